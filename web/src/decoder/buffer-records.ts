// Record bytes read back from the trace file: a stored event names its buffer and its offset in
// that buffer's image, so details and exports decode the buffer again instead of keeping a copy
// of every record (which was most of what an import wrote).
import { RecordOut } from '../generated/layouts.ts';
import { PromiseCache } from '../lib/promise-cache.ts';
import { decodeSlice, type Clock, type DecodedBuffer, type SliceStart } from './decoded-buffer.ts';
import type { BufferEntry, OpenTrace } from './etl-file.ts';
import { ProviderTable } from './record-json.ts';

/** The buffer index as stored: one typed array per field. */
export interface BufferTable {
	readonly offset: Float64Array;
	readonly size: Uint32Array;
	readonly available: Uint32Array;
	readonly cpu: Uint16Array;
	readonly flags: Uint16Array;
	readonly compressed: Uint8Array;
	/** SequenceNumber (below 2^53 in any real trace). */
	readonly sequence: Float64Array;
}

export function bufferTable(entries: readonly BufferEntry[]): BufferTable {
	const n = entries.length;
	const t = {
		offset: new Float64Array(n),
		size: new Uint32Array(n),
		available: new Uint32Array(n),
		cpu: new Uint16Array(n),
		flags: new Uint16Array(n),
		compressed: new Uint8Array(n),
		sequence: new Float64Array(n),
	};
	entries.forEach((e, i) => {
		t.offset[i] = e.offset;
		t.size[i] = e.size;
		t.available[i] = e.available;
		t.cpu[i] = e.cpu;
		t.flags[i] = e.flags;
		t.compressed[i] = e.compressed ? 1 : 0;
		t.sequence[i] = Number(e.sequence);
	});
	return t;
}

export function bufferEntry(t: BufferTable, index: number): BufferEntry {
	return {
		index,
		offset: t.offset[index]!,
		size: t.size[index]!,
		available: t.available[index]!,
		cpu: t.cpu[index]!,
		sequence: BigInt(t.sequence[index]!),
		flags: t.flags[index]!,
		compressed: t.compressed[index] === 1,
	};
}

/** Finds a stored record's bytes. */
export interface RecordBytes {
	/** The bytes (header and payload) of the record at `offset` in buffer `buffer`. */
	bytes(buffer: number, offset: number): Promise<Uint8Array>;
}

/** A decoded buffer, or a slice of a large one, and where its records are. */
export class Decoded {
	readonly buffer: DecodedBuffer;
	/** A slice of a large buffer (other records need another slice). */
	readonly sliced: boolean;
	/** The records' offsets in the whole buffer's image, in record order (increasing). */
	readonly #offsets: Uint32Array;
	/** Where the last look-up ended: readers mostly ask for the records in order. */
	#next = 0;

	constructor(buffer: DecodedBuffer) {
		this.buffer = buffer;
		this.sliced = buffer.offsetBase > 0 || buffer.next !== null;
		this.#offsets = new Uint32Array(buffer.count);
		for (let i = 0; i < buffer.count; i++)
			this.#offsets[i] = buffer.u32(i, RecordOut.recordOffset) + buffer.offsetBase;
	}

	/** The index of the record at `offset`, or undefined when no record starts there. */
	indexOf(offset: number): number | undefined {
		const o = this.#offsets;
		let i = this.#next;
		if (o[i] !== offset) {
			let lo = 0;
			let hi = o.length - 1;
			i = -1;
			while (lo <= hi) {
				const mid = (lo + hi) >>> 1;
				if (o[mid]! < offset) lo = mid + 1;
				else if (o[mid]! > offset) hi = mid - 1;
				else {
					i = mid;
					break;
				}
			}
			if (i < 0) return undefined;
		}
		this.#next = i + 1;
		return i;
	}
}

/** A record found: record `i` of a decoded buffer (or slice). */
export interface RecordAt {
	readonly buffer: DecodedBuffer;
	readonly i: number;
}

/**
 * A part's key: its buffer and where it starts, as one number (not a string made per look-up:
 * an export looks up every record it writes) while that is exact.
 */
const partKey = (index: number, start: number): number | string =>
	index < 0x200000 ? index * 0x100000000 + start : `${index}:${start}`;

/** A large buffer is read back a slice at a time: the cache holds at most this much image each. */
const SLICE_BYTES = 2 << 20;

/** Whether a record in its buffer is what a decode of its bytes alone gives (asStored). */
function agrees(at: RecordAt, cpu: number, ticks: number, clock: Clock): boolean {
	return (
		at.buffer.entry.cpu === cpu &&
		at.buffer.u16(at.i, RecordOut.damage) === 0 &&
		clock.ticks(at.buffer, at.i) === ticks
	);
}

/**
 * Decodes buffers of one trace on demand, keeping the last few: the rows of a page, a details
 * click or an export walk mostly hit buffers just decoded. A large buffer is decoded from the
 * record asked for, one slice at a time.
 */
export class BufferRecords implements RecordBytes {
	readonly #trace: OpenTrace;
	readonly #table: BufferTable;
	readonly #decoded: PromiseCache<number | string, Decoded>;
	/** The decoded parts among those kept, for callers that go on without waiting. */
	readonly #ready = new Map<number | string, Decoded>();
	readonly #keep: number;
	/** Where the slice last decoded of a large buffer starts. */
	readonly #starts = new Map<number, number>();
	/** GUIDs of the provider indexes in these buffers' records. */
	readonly providers: ProviderTable;
	/** Parts put out of the cache, whose memory the next decode takes (with `reuse`). */
	readonly #spare: DecodedBuffer[] = [];

	/**
	 * `trace` must have a decoder of its own: decoding here must not disturb another pass.
	 * `reuse`: a part put out of the cache lends its memory to the next one decoded, so a walk
	 * over a whole trace allocates no more than `keep` parts; then a record found (its bytes or
	 * its RecordAt) is valid only until the next record is asked for.
	 */
	constructor(trace: OpenTrace, table: BufferTable, keep = 16, reuse = false) {
		this.#trace = trace;
		this.#table = table;
		this.#keep = keep;
		this.#decoded = new PromiseCache(
			keep,
			reuse
				? (part) =>
						void part.then(
							(d) => this.#lend(d),
							() => {},
						)
				: null,
		);
		this.providers = new ProviderTable(trace);
	}

	/** A part put out of the cache: no longer found, its memory kept for the next decode. */
	#lend(d: Decoded): void {
		for (const [key, kept] of this.#ready) if (kept === d) this.#ready.delete(key);
		if (this.#spare.length < 2) this.#spare.push(d.buffer);
	}

	/** The trace facts the records' JSON refers to. */
	get facts(): OpenTrace['facts'] {
		return this.#trace.facts;
	}

	/** The record at `offset` of buffer `index` when its part is decoded already; else undefined. */
	recordNow(index: number, offset: number): RecordAt | undefined {
		const d = this.#ready.get(partKey(index, this.#starts.get(index) ?? 0));
		const i = d?.indexOf(offset);
		return d && i !== undefined ? { buffer: d.buffer, i } : undefined;
	}

	/** The record at `offset` of buffer `index`, decoding its part; null when there is none. */
	async record(index: number, offset: number): Promise<RecordAt | null> {
		if (index >= this.#table.offset.length) return null;
		let d = await this.#part(index, this.#starts.get(index) ?? 0);
		let i = d.indexOf(offset);
		if (i === undefined && d.sliced) {
			this.#starts.set(index, offset);
			d = await this.#part(index, offset);
			i = d.indexOf(offset);
		}
		return i === undefined ? null : { buffer: d.buffer, i };
	}

	/**
	 * The record at `offset` of buffer `index` as its buffer decodes it (kept for the next rows),
	 * when that is the record a decode of its bytes alone gives (decodeRecord): on the CPU and at
	 * the time (`ticks` by `clock`) its row holds, and undamaged (a damage report names the
	 * buffer). Null otherwise: the caller decodes the record alone. Rows read one by one (a
	 * payload filter, columns of an export) then cost no decode each.
	 */
	async asStored(
		index: number,
		offset: number,
		cpu: number,
		ticks: number,
		clock: Clock,
	): Promise<RecordAt | null> {
		const now = this.storedNow(index, offset, cpu, ticks, clock);
		if (now !== undefined) return now;
		const at = await this.record(index, offset);
		return at && agrees(at, cpu, ticks, clock) ? at : null;
	}

	/** asStored's answer from the parts decoded already; undefined when it needs a decode. */
	storedNow(
		index: number,
		offset: number,
		cpu: number,
		ticks: number,
		clock: Clock,
	): RecordAt | null | undefined {
		const at = this.recordNow(index, offset);
		return at && (agrees(at, cpu, ticks, clock) ? at : null);
	}

	async bytes(buffer: number, offset: number): Promise<Uint8Array> {
		if (buffer >= this.#table.offset.length)
			throw new Error(`the trace has no buffer ${buffer} (it has ${this.#table.offset.length})`);
		const r = await this.record(buffer, offset);
		if (!r)
			throw new Error(
				`buffer ${buffer} at file offset 0x${this.#table.offset[buffer]!.toString(16)} has no record at 0x${offset.toString(16)}`,
			);
		const size = r.buffer.u32(r.i, RecordOut.recordSize);
		const at = offset - r.buffer.offsetBase;
		return r.buffer.image.subarray(at, at + size);
	}

	/** Buffer `index` decoded from its start (0), or a slice of it from the record at `start`. */
	#part(index: number, start: number): Promise<Decoded> {
		const key = partKey(index, start);
		return this.#decoded.get(key, async () => {
			const entry = bufferEntry(this.#table, index);
			const from: SliceStart | null =
				start === 0
					? null
					: {
							at: start,
							index: 0,
							lastRaw: 0n,
							generation: -1,
							imageEnd: 0,
							firstTime: null,
							lastTime: null,
						};
			const d = new Decoded(
				await decodeSlice(this.#trace, entry, from, SLICE_BYTES, this.#spare.pop() ?? null),
			);
			this.#ready.set(key, d);
			if (this.#ready.size > this.#keep) this.#ready.delete(this.#ready.keys().next().value!);
			return d;
		});
	}
}
