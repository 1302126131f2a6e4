// One buffer's records, copied out of WASM memory so that several buffers (one per CPU) can be
// held at once while their records are merged in time order.
import { BufferOut, FieldOut, RecordOut, Status } from '../generated/layouts.ts';
import type { BufferEntry, OpenTrace } from './etl-file.ts';
import type { DamageInfo } from './messages.ts';
import type { WasmDecoder } from './wasm.ts';

const R = RecordOut.SIZE;
const F = FieldOut.SIZE;

export class DecodedBuffer {
	readonly entry: BufferEntry;
	/** The buffer image (header + data, decompressed when compressed); record offsets index it. */
	readonly image: Uint8Array;
	readonly count: number;
	readonly records: DataView;
	readonly fields: DataView;
	readonly damage: DamageInfo | null;
	/**
	 * The FieldOut table as 32-bit words and as bytes (it starts 8-byte aligned): a hot loop reads
	 * fields at word (j * FieldOut.SIZE + offset) >> 2 in its own body, where values stay unboxed,
	 * rather than through a call per field.
	 */
	readonly fieldWords: Uint32Array;
	readonly fieldBytes: Uint8Array;
	/** The RecordOut table likewise, as words, halves and bytes (little-endian, as WASM writes it). */
	readonly recordWords: Uint32Array;
	readonly recordHalves: Uint16Array;
	readonly recordBytes: Uint8Array;
	/** Memory the image and tables were copied into, which a later decode may reuse. */
	storage: ArrayBuffer | null = null;

	constructor(
		entry: BufferEntry,
		image: Uint8Array,
		records: Uint8Array,
		count: number,
		fields: Uint8Array,
		damage: DamageInfo | null,
	) {
		this.entry = entry;
		this.image = image;
		this.count = count;
		this.records = new DataView(records.buffer, records.byteOffset, records.byteLength);
		this.fields = new DataView(fields.buffer, fields.byteOffset, fields.byteLength);
		this.fieldBytes = fields;
		this.recordBytes = records;
		this.recordHalves = new Uint16Array(
			records.buffer,
			records.byteOffset,
			records.byteLength >> 1,
		);
		this.recordWords = new Uint32Array(records.buffer, records.byteOffset, records.byteLength >> 2);
		this.fieldWords = new Uint32Array(fields.buffer, fields.byteOffset, fields.byteLength >> 2);
		this.damage = damage;
	}

	/** UTC FILETIME of record i. */
	time(i: number): bigint {
		return this.records.getBigInt64(i * R + RecordOut.time, true);
	}
	/** High and low halves of the FILETIME, for fast comparisons without bigint. */
	timeHi(i: number): number {
		return this.records.getInt32(i * R + RecordOut.time + 4, true);
	}
	timeLo(i: number): number {
		return this.records.getUint32(i * R + RecordOut.time, true);
	}
	u8(i: number, field: number): number {
		return this.records.getUint8(i * R + field);
	}
	u16(i: number, field: number): number {
		return this.records.getUint16(i * R + field, true);
	}
	u32(i: number, field: number): number {
		return this.records.getUint32(i * R + field, true);
	}
	u64(i: number, field: number): bigint {
		return this.records.getBigUint64(i * R + field, true);
	}
	/** FieldOut j (absolute index within this buffer). */
	fieldU64(j: number, field: number): bigint {
		return this.fields.getBigUint64(j * F + field, true);
	}
	fieldU32(j: number, field: number): number {
		return this.fields.getUint32(j * F + field, true);
	}
	fieldU8(j: number, field: number): number {
		return this.fields.getUint8(j * F + field);
	}
}

/** Ticks (100 ns) of a record since an origin FILETIME, exactly, without a bigint per record. */
export class Clock {
	readonly #hi: number;
	readonly #lo: number;
	constructor(origin: bigint) {
		this.#hi = Number(origin >> 32n);
		this.#lo = Number(origin & 0xffffffffn);
	}
	/** Exact while the difference is below 2^53 ticks (28 years). */
	ticks(buf: DecodedBuffer, i: number): number {
		return (buf.timeHi(i) - this.#hi) * 0x100000000 + (buf.timeLo(i) - this.#lo);
	}
}

/**
 * Decodes one buffer: reads it from the source, walks its records in WASM, copies the image and
 * the tables out. With `reuse` (a buffer the caller is done with), the copies go into its memory
 * when they fit: no allocation, which matters more than the copying itself.
 */
export async function decodeBuffer(
	trace: OpenTrace,
	entry: BufferEntry,
	reuse: DecodedBuffer | null = null,
): Promise<DecodedBuffer> {
	const { decoder, source } = trace;
	// Read straight into WASM memory when the source can (no allocation, one copy fewer); the
	// read, the walk and the copies below then run without a pause, as with read() + load().
	// Looked up once: a switchable source binds it anew at each look.
	const readInto = source.readInto;
	const area = readInto ? decoder.inputArea(entry.available) : null;
	let bytes: Uint8Array | null = null;
	let length: number;
	if (readInto && area) length = readInto(entry.offset, area);
	else {
		bytes = await source.read(entry.offset, entry.available);
		decoder.load(bytes);
		length = bytes.length;
	}
	const opened = decoder.openBuffer(length, entry.index === 0);
	let records: Uint8Array = EMPTY;
	let fields: Uint8Array = EMPTY;
	let count = 0;
	let image: Uint8Array = EMPTY;
	let storage: ArrayBuffer | null = null;
	if (opened === Status.Ok) {
		const v = decoder.view();
		const dataPtr = v.getUint32(decoder.bufferOut + BufferOut.dataPtr, true);
		const dataSize = v.getUint32(decoder.bufferOut + BufferOut.dataSize, true);
		// An uncompressed buffer's image may be the bytes just read (when they are not a view into
		// something larger, such as a cache block): no copy back out of WASM memory then.
		const keepBytes = bytes !== null && dataPtr === decoder.input && ownsBuffer(bytes);
		const n = decoder.nextRecords();
		// The image and the first batch of records and fields (almost always the only one) are
		// copied into one piece of memory.
		// A buffer without records needs no image (its data may be a decompressed bomb).
		const copyImage = !keepBytes && n > 0;
		const imageSize = copyImage ? (dataSize + 7) & ~7 : 0;
		const used = n > 0 ? fieldsUsed(decoder, n) : 0;
		const need = imageSize + n * R + used * F;
		storage =
			reuse?.storage && reuse.storage.byteLength >= need
				? reuse.storage
				: new ArrayBuffer(Math.max(need, 8));
		if (keepBytes) image = bytes!.subarray(0, dataSize);
		else if (copyImage) {
			image = new Uint8Array(storage, 0, dataSize);
			image.set(decoder.bytes(dataPtr, dataSize));
		}
		if (n > 0) {
			records = new Uint8Array(storage, imageSize, n * R);
			records.set(decoder.bytes(decoder.records, n * R));
			fields = new Uint8Array(storage, imageSize + n * R, used * F);
			fields.set(decoder.bytes(decoder.fields, used * F));
			count = n;
			const m = decoder.nextRecords();
			if (m > 0) [records, fields, count] = moreBatches(decoder, records, fields, count, m);
		}
	}
	const status = opened === Status.Ok ? decoder.bufferStatus : opened;
	let damage: DamageInfo | null = null;
	if (status !== Status.Ok) {
		const v = decoder.view();
		damage = {
			status,
			bufferIndex: entry.index,
			bufferOffset: entry.offset,
			at: v.getUint32(decoder.bufferOut + BufferOut.errorOffset, true),
			value: v.getUint32(decoder.bufferOut + BufferOut.errorValue, true),
			limit: v.getUint32(decoder.bufferOut + BufferOut.errorLimit, true),
			compressed: entry.compressed,
		};
	}
	const decoded = new DecodedBuffer(entry, image, records, count, fields, damage);
	decoded.storage = storage;
	return decoded;
}

const EMPTY = new Uint8Array(0);

function ownsBuffer(b: Uint8Array): boolean {
	return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength;
}

/** Fields the last batch of n records uses (the end of the furthest field range). */
function fieldsUsed(decoder: WasmDecoder, n: number): number {
	const v = decoder.view();
	const at = decoder.records;
	let used = 0;
	for (let i = 0; i < n; i++) {
		const start = v.getUint32(at + i * R + RecordOut.fieldStart, true);
		const c = v.getUint16(at + i * R + RecordOut.fieldCount, true);
		if (start + c > used) used = start + c;
	}
	return used;
}

/**
 * A buffer with more records than one nextRecords() call returns (very large buffers): copies the
 * batch of m records now in WASM memory and every later one, and joins them to the first.
 */
function moreBatches(
	decoder: WasmDecoder,
	records: Uint8Array,
	fields: Uint8Array,
	count: number,
	m: number,
): [Uint8Array, Uint8Array, number] {
	const recordChunks: Uint8Array[] = [records];
	const fieldChunks: Uint8Array[] = [fields];
	let fieldCount = fields.length / F;
	for (let n = m; n > 0; n = decoder.nextRecords()) {
		const recs = decoder.bytes(decoder.records, n * R).slice();
		const rv = new DataView(recs.buffer);
		// Field tables restart at 0 on every call: rebase this batch onto the fields kept so far.
		let used = 0;
		for (let i = 0; i < n; i++) {
			const start = rv.getUint32(i * R + RecordOut.fieldStart, true);
			const c = rv.getUint16(i * R + RecordOut.fieldCount, true);
			if (start + c > used) used = start + c;
			rv.setUint32(i * R + RecordOut.fieldStart, start + fieldCount, true);
		}
		recordChunks.push(recs);
		fieldChunks.push(decoder.bytes(decoder.fields, used * F).slice());
		count += n;
		fieldCount += used;
	}
	return [concat(recordChunks), concat(fieldChunks), count];
}

function concat(parts: Uint8Array[]): Uint8Array {
	if (parts.length === 1) return parts[0]!;
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}
	return out;
}
