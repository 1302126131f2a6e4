// Record bytes read back from the trace file: a stored event names its buffer and its offset in
// that buffer's image, so details and exports decode the buffer again instead of keeping a copy
// of every record (which was most of what an import wrote).
import { RecordOut } from '../generated/layouts.ts';
import { PromiseCache } from '../lib/promise-cache.ts';
import { decodeBuffer, type DecodedBuffer } from './decoded-buffer.ts';
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

/** A decoded buffer and where its records are. */
export class Decoded {
	readonly buffer: DecodedBuffer;
	/** The records' offsets, in record order (increasing). */
	readonly #offsets: Uint32Array;
	/** Where the last look-up ended: readers mostly ask for the records in order. */
	#next = 0;

	constructor(buffer: DecodedBuffer) {
		this.buffer = buffer;
		this.#offsets = new Uint32Array(buffer.count);
		for (let i = 0; i < buffer.count; i++) this.#offsets[i] = buffer.u32(i, RecordOut.recordOffset);
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

/**
 * Decodes buffers of one trace on demand, keeping the last few: the rows of a page, a details
 * click or an export walk mostly hit buffers just decoded.
 */
export class BufferRecords implements RecordBytes {
	readonly #trace: OpenTrace;
	readonly #table: BufferTable;
	readonly #decoded: PromiseCache<number, Decoded>;
	/** The decoded buffers among those kept, for callers that go on without waiting. */
	readonly #ready = new Map<number, Decoded>();
	readonly #keep: number;
	/** GUIDs of the provider indexes in these buffers' records. */
	readonly providers: ProviderTable;

	/** `trace` must have a decoder of its own: decoding here must not disturb another pass. */
	constructor(trace: OpenTrace, table: BufferTable, keep = 16) {
		this.#trace = trace;
		this.#table = table;
		this.#keep = keep;
		this.#decoded = new PromiseCache(keep);
		this.providers = new ProviderTable(trace);
	}

	/** The trace facts the records' JSON refers to. */
	get facts(): OpenTrace['facts'] {
		return this.#trace.facts;
	}

	/** Buffer `index` decoded, when it is kept already; else undefined (then `decoded` it). */
	decodedNow(index: number): Decoded | undefined {
		return this.#ready.get(index);
	}

	/** Buffer `index` decoded (or null when the trace has no such buffer). */
	async decoded(index: number): Promise<Decoded | null> {
		return index < this.#table.offset.length ? this.#buffer(index) : null;
	}

	async bytes(buffer: number, offset: number): Promise<Uint8Array> {
		if (buffer >= this.#table.offset.length)
			throw new Error(`the trace has no buffer ${buffer} (it has ${this.#table.offset.length})`);
		const d = await this.#buffer(buffer);
		const i = d.indexOf(offset);
		if (i === undefined)
			throw new Error(
				`buffer ${buffer} at file offset 0x${this.#table.offset[buffer]!.toString(16)} has no record at 0x${offset.toString(16)}`,
			);
		const size = d.buffer.u32(i, RecordOut.recordSize);
		return d.buffer.image.subarray(offset, offset + size);
	}

	#buffer(index: number): Promise<Decoded> {
		return this.#decoded.get(index, async (k) => {
			const buffer = await decodeBuffer(this.#trace, bufferEntry(this.#table, k));
			const d = new Decoded(buffer);
			this.#ready.set(k, d);
			if (this.#ready.size > this.#keep) this.#ready.delete(this.#ready.keys().next().value!);
			return d;
		});
	}
}
