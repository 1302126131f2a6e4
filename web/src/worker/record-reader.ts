// Decodes stored events back into the objects `sockscope decode` prints, from their record bytes
// read back from the trace file. The rules are the CLI's (web/src/cli/decode-command.ts,
// filteredRecords): the record as its buffer decodes it when that agrees with its row, else the
// single-record decoder; PID and TID from the columns (kernel header records carry none of their
// own), and the logfile header record shown as the trace's facts. Exports and the statistics'
// payload lookups go through here, so the page and the CLI print the same fields.
import { BufferRecords, type RecordAt, type RecordBytes } from '../decoder/buffer-records.ts';
import { Clock } from '../decoder/decoded-buffer.ts';
import { recordLine, type ExportFormat } from '../export/record-lines.ts';
import type { ByteSink } from '../export/byte-sink.ts';
import { RecordWriter } from '../export/record-writer.ts';
import { BufferEventRows } from '../export/event-rows.ts';
import type { RowAt } from '../export/tables.ts';
import type { Row } from '../export/table-writer.ts';
import type { OpenTrace } from '../decoder/etl-file.ts';
import {
	ProviderTable,
	recordFields,
	recordJson,
	type RecordJson,
} from '../decoder/record-json.ts';
import { decodeRecord } from '../decoder/single-record.ts';
import type { TraceFacts } from '../decoder/types.ts';
import { NO_PID, type ReadColumns } from '../columns/layout.ts';
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
	readonly #decoder: OpenTrace;
	readonly #facts: TraceFacts;
	readonly #providers: ProviderTable;
	readonly #start: bigint;
	readonly #clock: Clock;
	/** The store's records when they are buffers decoded and kept (rows then read from them). */
	readonly #buffers: BufferRecords | null;
	#view: ChunkView | null = null;
	readonly #writers = new Map<ExportFormat, RecordWriter>();
	#rows: BufferEventRows | null = null;

	/** `decoder` is a single-record decoder (recordDecoder) over the trace's facts. */
	constructor(store: StoredRecords, decoder: OpenTrace, facts: TraceFacts) {
		this.#store = store;
		this.#decoder = decoder;
		this.#facts = facts;
		this.#providers = new ProviderTable(decoder);
		this.#start = BigInt(facts.startFiletime);
		this.#clock = new Clock(this.#start);
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
		const c = await this.#chunk(chunk);
		const at = await this.#stored(c, row);
		const r = at
			? recordJson(at.buffer, at.i, { facts: this.#facts }, this.#buffers!.providers)
			: await this.#alone(c, row);
		if (!r) return null;
		r.pid = c.pid[row] === NO_PID ? null : c.pid[row]!;
		r.tid = c.tid[row] === NO_PID ? null : c.tid[row]!;
		if (c.kind[row] === 0) {
			r.kind = 'header';
			r.name = 'TraceLogfileHeader';
			r.fields = { ...this.#facts };
			delete r.payload;
		}
		return r;
	}

	/**
	 * Row `row` of chunk `chunk` as the events table's Parquet row, made straight from its decoded
	 * buffer (BufferEventRows; `at` is where its columns are); null when only the record object
	 * makes it (eventRow over `json`).
	 */
	async tableRow(chunk: number, row: number, at: RowAt): Promise<Row | null> {
		const c = await this.#chunk(chunk);
		const stored = await this.#stored(c, row);
		if (!stored) return null;
		this.#rows ??= new BufferEventRows(this.#buffers!.providers);
		return this.#rows.row(stored.buffer, stored.i, c.pid[row]!, c.tid[row]!, at);
	}

	/**
	 * The row's record in its buffer as decoded and kept for the next rows (no decode per row: a
	 * payload filter reads thousands), when that is what decoding it alone gives; else null.
	 */
	async #stored(c: ChunkView, row: number): Promise<RecordAt | null> {
		const now = this.#storedNow(c, row);
		if (now !== undefined) return now;
		return this.#buffers!.asStored(
			c.buffer[row]!,
			c.recOffset[row]!,
			c.cpu[row]!,
			c.time[row]!,
			this.#clock,
		);
	}

	/** #stored's answer without waiting (undefined: its buffer must be decoded first). */
	#storedNow(c: ChunkView, row: number): RecordAt | null | undefined {
		const buffers = this.#buffers;
		if (!buffers || c.kind[row] === 0) return null;
		return buffers.storedNow(
			c.buffer[row]!,
			c.recOffset[row]!,
			c.cpu[row]!,
			c.time[row]!,
			this.#clock,
		);
	}

	/** The row's record decoded alone, from its bytes. */
	async #alone(c: ChunkView, row: number): Promise<RecordJson | null> {
		const bytes = await this.#store.records.bytes(c.buffer[row]!, c.recOffset[row]!);
		const buf = await decodeRecord(
			this.#decoder,
			bytes,
			c.cpu[row]!,
			this.#start + BigInt(c.time[row]!),
		);
		return buf && recordJson(buf, 0, this.#decoder, this.#providers);
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
		const records = this.#store.records;
		const buffers = records instanceof BufferRecords ? records : null;
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
				const at = await this.#stored(c, row);
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
		for (const row of rows) {
			// From the record's buffer when it agrees with the row: its fields alone, no object.
			// Without waiting when its buffer is among those just decoded (almost every row).
			const now = this.#storedNow(c, row);
			const at = now !== undefined ? now : await this.#stored(c, row);
			out.push(
				at
					? recordFields(at.buffer, at.i, { facts: this.#facts }, keys)
					: ((await this.json(chunk, row))?.fields ?? null),
			);
		}
		return out;
	}
}
