// Record bytes read back from the trace file: a stored event names its buffer and its offset in
// that buffer's image, so details and exports decode the buffer again instead of keeping a copy
// of every record (which was most of what an import wrote).
import { RecordOut } from '../generated/layouts.ts';
import { PromiseCache } from '../lib/promise-cache.ts';
import { decodeSlice, type DecodedBuffer, type SliceStart } from './decoded-buffer.ts';
import type { BufferEntry, OpenTrace } from './etl-file.ts';

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

interface Decoded {
	readonly buffer: DecodedBuffer;
	/** recordOffset (in the whole buffer's image) → record index. */
	readonly at: Map<number, number>;
	/** A slice of a large buffer (other records need another slice). */
	readonly sliced: boolean;
}

/** A large buffer is read back a slice at a time: the cache holds at most this much image each. */
const SLICE_BYTES = 2 << 20;

/**
 * Decodes buffers of one trace on demand, keeping the last few: the rows of a page, a details
 * click or an export walk mostly hit buffers just decoded. A large buffer is decoded from the
 * record asked for, one slice at a time.
 */
export class BufferRecords implements RecordBytes {
	readonly #trace: OpenTrace;
	readonly #table: BufferTable;
	readonly #decoded: PromiseCache<string, Decoded>;
	/** Where the slice last decoded of a large buffer starts. */
	readonly #starts = new Map<number, number>();

	/** `trace` must have a decoder of its own: decoding here must not disturb another pass. */
	constructor(trace: OpenTrace, table: BufferTable, keep = 16) {
		this.#trace = trace;
		this.#table = table;
		this.#decoded = new PromiseCache(keep);
	}

	async bytes(buffer: number, offset: number): Promise<Uint8Array> {
		if (buffer >= this.#table.offset.length)
			throw new Error(`the trace has no buffer ${buffer} (it has ${this.#table.offset.length})`);
		let d = await this.#part(buffer, this.#starts.get(buffer) ?? 0);
		let i = d.at.get(offset);
		if (i === undefined && d.sliced) {
			this.#starts.set(buffer, offset);
			d = await this.#part(buffer, offset);
			i = d.at.get(offset);
		}
		if (i === undefined)
			throw new Error(
				`buffer ${buffer} at file offset 0x${this.#table.offset[buffer]!.toString(16)} has no record at 0x${offset.toString(16)}`,
			);
		const size = d.buffer.u32(i, RecordOut.recordSize);
		const at = offset - d.buffer.offsetBase;
		return d.buffer.image.subarray(at, at + size);
	}

	/** Buffer `index` decoded from its start (0), or a slice of it from the record at `start`. */
	#part(index: number, start: number): Promise<Decoded> {
		return this.#decoded.get(`${index}:${start}`, async () => {
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
			const buffer = await decodeSlice(this.#trace, entry, from, SLICE_BYTES);
			const at = new Map<number, number>();
			for (let i = 0; i < buffer.count; i++)
				at.set(buffer.u32(i, RecordOut.recordOffset) + buffer.offsetBase, i);
			return { buffer, at, sliced: buffer.offsetBase > 0 || buffer.next !== null };
		});
	}
}
