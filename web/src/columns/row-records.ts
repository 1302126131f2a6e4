// A stored row's record read back as `sockscope decode` prints it, one way for the CLI
// (filteredRecords) and the page (RecordReader): the record as its buffer decodes it when that
// agrees with the row (BufferRecords.asStored), else the record decoded alone from its bytes; PID
// and TID from the columns (kernel header records carry none of their own), and the logfile
// header record shown as the trace's facts.
import { BufferRecords, type RecordAt, type RecordBytes } from '../decoder/buffer-records.ts';
import { Clock } from '../decoder/decoded-buffer.ts';
import type { OpenTrace } from '../decoder/etl-file.ts';
import {
	ProviderTable,
	recordFields,
	recordJson,
	type RecordJson,
} from '../decoder/record-json.ts';
import { decodeRecord } from '../decoder/single-record.ts';
import type { TraceFacts } from '../decoder/types.ts';
import { NO_PID } from './layout.ts';

/** A chunk's columns that place its rows' records: as built (CLI) or as stored (page). */
export interface RowPlaces {
	readonly buffer: ArrayLike<number>;
	readonly recOffset: ArrayLike<number>;
	readonly cpu: ArrayLike<number>;
	readonly time: ArrayLike<number>;
	readonly pid: ArrayLike<number>;
	readonly tid: ArrayLike<number>;
	readonly kind: ArrayLike<number>;
}

type Fields = Readonly<Record<string, unknown>>;

export class RowRecords {
	readonly #records: RecordBytes;
	/** `#records` when they are buffers decoded and kept (rows are then read from them). */
	readonly #buffers: BufferRecords | null;
	readonly #single: OpenTrace;
	readonly #providers: ProviderTable;
	readonly #facts: TraceFacts;
	readonly #start: bigint;
	readonly #clock: Clock;

	/** `single`: a single-record decoder (recordDecoder) over the trace's facts. */
	constructor(records: RecordBytes, single: OpenTrace, facts: TraceFacts) {
		this.#records = records;
		this.#buffers = records instanceof BufferRecords ? records : null;
		this.#single = single;
		this.#providers = new ProviderTable(single);
		this.#facts = facts;
		this.#start = BigInt(facts.startFiletime);
		this.#clock = new Clock(this.#start);
	}

	/**
	 * Row i's record in its buffer as decoded and kept for the next rows (no decode per row: a
	 * payload filter or an export reads thousands), when that is what decoding it alone gives;
	 * else null (the logfile header's row too).
	 */
	async stored(c: RowPlaces, i: number): Promise<RecordAt | null> {
		const buffers = this.#buffers;
		if (!buffers || c.kind[i] === 0) return null;
		return buffers.asStored(c.buffer[i]!, c.recOffset[i]!, c.cpu[i]!, c.time[i]!, this.#clock);
	}

	/** `stored`'s answer without waiting; undefined when its buffer must be decoded first. */
	storedNow(c: RowPlaces, i: number): RecordAt | null | undefined {
		const buffers = this.#buffers;
		if (!buffers || c.kind[i] === 0) return null;
		return buffers.storedNow(c.buffer[i]!, c.recOffset[i]!, c.cpu[i]!, c.time[i]!, this.#clock);
	}

	/** Row i's record object, or null when its bytes no longer decode. */
	async json(c: RowPlaces, i: number): Promise<RecordJson | null> {
		const at = await this.stored(c, i);
		const r = at
			? recordJson(at.buffer, at.i, { facts: this.#facts }, this.#buffers!.providers)
			: await this.#alone(c, i);
		if (!r) return null;
		r.pid = c.pid[i] === NO_PID ? null : c.pid[i]!;
		r.tid = c.tid[i] === NO_PID ? null : c.tid[i]!;
		if (c.kind[i] === 0) {
			r.kind = 'header';
			r.name = 'TraceLogfileHeader';
			r.fields = { ...this.#facts };
			delete r.payload;
		}
		return r;
	}

	/**
	 * Row i's payload fields as its record object has them (`keys` of them; null: all): from its
	 * buffer without the rest of the object when it can, without waiting when its buffer is among
	 * those just decoded (almost every row).
	 */
	async fields(c: RowPlaces, i: number, keys: ReadonlySet<string> | null): Promise<Fields | null> {
		const now = this.storedNow(c, i);
		const at = now !== undefined ? now : await this.stored(c, i);
		if (at) return recordFields(at.buffer, at.i, { facts: this.#facts }, keys);
		return (await this.json(c, i))?.fields ?? null;
	}

	/** Row i's record decoded alone, from its bytes. */
	async #alone(c: RowPlaces, i: number): Promise<RecordJson | null> {
		const bytes = await this.#records.bytes(c.buffer[i]!, c.recOffset[i]!);
		const buf = await decodeRecord(
			this.#single,
			bytes,
			c.cpu[i]!,
			this.#start + BigInt(c.time[i]!),
		);
		return buf && recordJson(buf, 0, { facts: this.#facts }, this.#providers);
	}
}
