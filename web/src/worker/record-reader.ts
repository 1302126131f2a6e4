// Stored events read back as the objects `sockscope decode` prints, from their records read back
// from the trace file, by the CLI's rules (columns/row-records.ts). Exports, details and the
// statistics' payload lookups go through here, so the page and the CLI print the same fields.
import { BufferRecords, type RecordAt, type RecordBytes } from '../decoder/buffer-records.ts';
import { recordLine, type ExportFormat } from '../export/record-lines.ts';
import type { ByteSink } from '../export/byte-sink.ts';
import { RecordWriter } from '../export/record-writer.ts';
import { BufferEventRows } from '../export/event-rows.ts';
import type { RowAt } from '../export/tables.ts';
import type { Row } from '../export/table-writer.ts';
import type { OpenTrace } from '../decoder/etl-file.ts';
import type { RecordJson } from '../decoder/record-json.ts';
import type { TraceFacts } from '../decoder/types.ts';
import type { ReadColumns } from '../columns/layout.ts';
import { RowRecords } from '../columns/row-records.ts';
import type { QueryEngine } from '../query/engine.ts';

/** Where stored records come from: the engine's columns and the trace's buffers. */
export interface StoredRecords {
	readonly engine: QueryEngine;
	readonly records: RecordBytes;
}

interface ChunkView {
	readonly chunk: number;
	readonly buffer: ReadColumns['buffer'];
	readonly recOffset: ReadColumns['recOffset'];
	readonly cpu: ReadColumns['cpu'];
	readonly time: ReadColumns['time'];
	readonly pid: ReadColumns['pid'];
	readonly tid: ReadColumns['tid'];
	readonly kind: ReadColumns['kind'];
}

export class RecordReader {
	readonly #store: StoredRecords;
	readonly #facts: TraceFacts;
	readonly #rows: RowRecords;
	/** The store's records when they are buffers decoded and kept (rows then read from them). */
	readonly #buffers: BufferRecords | null;
	#view: ChunkView | null = null;
	readonly #writers = new Map<ExportFormat, RecordWriter>();
	#tableRows: BufferEventRows | null = null;

	/** `decoder` is a single-record decoder (recordDecoder) over the trace's facts. */
	constructor(store: StoredRecords, decoder: OpenTrace, facts: TraceFacts) {
		this.#store = store;
		this.#facts = facts;
		this.#rows = new RowRecords(store.records, decoder, facts);
		this.#buffers = store.records instanceof BufferRecords ? store.records : null;
	}

	async #chunk(chunk: number): Promise<ChunkView> {
		if (this.#view?.chunk === chunk) return this.#view;
		const e = this.#store.engine;
		const [buffer, recOffset, cpu, time, pid, tid, kind] = await Promise.all([
			e.column(chunk, 'buffer'),
			e.column(chunk, 'recOffset'),
			e.column(chunk, 'cpu'),
			e.column(chunk, 'time'),
			e.column(chunk, 'pid'),
			e.column(chunk, 'tid'),
			e.column(chunk, 'kind'),
		]);
		this.#view = { chunk, buffer, recOffset, cpu, time, pid, tid, kind };
		return this.#view;
	}

	/** The record's bytes as stored (header and payload). */
	async bytes(chunk: number, row: number): Promise<Uint8Array> {
		const c = await this.#chunk(chunk);
		return this.#store.records.bytes(c.buffer[row]!, c.recOffset[row]!);
	}

	/** Row `row` of chunk `chunk` as `sockscope decode` prints it, or null if it no longer decodes. */
	async json(chunk: number, row: number): Promise<RecordJson | null> {
		return this.#rows.json(await this.#chunk(chunk), row);
	}

	/**
	 * Row `row` of chunk `chunk` as the events table's Parquet row, made straight from its decoded
	 * buffer (BufferEventRows; `at` is where its columns are); null when only the record object
	 * makes it (eventRow over `json`).
	 */
	async tableRow(chunk: number, row: number, at: RowAt): Promise<Row | null> {
		const c = await this.#chunk(chunk);
		return this.#tableRow(c, row, await this.#rows.stored(c, row), at);
	}

	/**
	 * tableRow's answer without waiting (no promise per row: nearly every row's chunk and buffer
	 * are at hand); undefined when it must wait.
	 */
	tableRowNow(chunk: number, row: number, at: RowAt): Row | null | undefined {
		const c = this.#view;
		if (c?.chunk !== chunk) return undefined;
		const stored = this.#rows.storedNow(c, row);
		return stored === undefined ? undefined : this.#tableRow(c, row, stored, at);
	}

	#tableRow(c: ChunkView, row: number, stored: RecordAt | null, at: RowAt): Row | null {
		if (!stored) return null;
		this.#tableRows ??= new BufferEventRows(this.#buffers!.providers);
		return this.#tableRows.row(stored.buffer, stored.i, c.pid[row]!, c.tid[row]!, at);
	}

	/**
	 * Writes rows `rows[from..]` of chunk `chunk` (or rows `first + k` when `rows` is null, k below
	 * `count`) as `json` would print them, until the sink holds `limit` bytes or the rows end.
	 * Returns the position reached and the rows written (a row that no longer decodes is
	 * skipped). Rows go straight from their decoded buffer when the record writer can; the others
	 * (the logfile header, records it leaves to the record object) through `json`.
	 */
	async write(
		sink: ByteSink,
		format: ExportFormat,
		chunk: number,
		rows: ArrayLike<number> | null,
		first: number,
		from: number,
		count: number,
		limit: number,
	): Promise<{ next: number; written: number }> {
		const c = await this.#chunk(chunk);
		const buffers = this.#buffers;
		let writer = this.#writers.get(format);
		if (!writer && buffers)
			this.#writers.set(
				format,
				(writer = new RecordWriter(format, { facts: this.#facts }, buffers.providers)),
			);
		let written = 0;
		let k = from;
		for (; k < count && sink.length < limit; k++) {
			const row = rows ? rows[k]! : first + k;
			if (writer) {
				// The columns' time and CPU are what `json` prints: the buffer must agree.
				const at = await this.#rows.stored(c, row);
				if (at && writer.fast(sink, at.buffer, at.i, c.pid[row]!, c.tid[row]!)) {
					written++;
					continue;
				}
			}
			const r = await this.json(chunk, row);
			if (!r) continue;
			sink.utf8(recordLine(r, format));
			sink.byte(10);
			written++;
		}
		return { next: k, written };
	}

	/** The payload fields of rows of a chunk (what a filter on a payload field tests). */
	async fields(
		chunk: number,
		rows: readonly number[],
		keys: ReadonlySet<string> | null = null,
	): Promise<(Readonly<Record<string, unknown>> | null)[]> {
		const c = await this.#chunk(chunk);
		const out: (Readonly<Record<string, unknown>> | null)[] = [];
		for (const row of rows) out.push(await this.#rows.fields(c, row, keys));
		return out;
	}
}
