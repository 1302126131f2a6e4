// One buffer's records, copied out of WASM memory so that several buffers (one per CPU) can be
// held at once while their records are merged in time order. A large buffer is copied out in
// slices (decodeSlice): the merge then holds a bounded part of each CPU's buffer, whatever the
// buffer size and the number of CPUs.
import { BufferOut, FieldOut, RecordOut, Status, WMI_BUFFER_HEADER } from '../generated/layouts.ts';
import { expansionBudget } from './buffer-checks.ts';
import type { BufferEntry, OpenTrace } from './etl-file.ts';
import type { DamageInfo } from './messages.ts';
import { syncReader } from './source.ts';
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
	damage: DamageInfo | null;
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
	/**
	 * The image offset of `image[0]`: 0 for a whole buffer; for a slice, the offset of its first
	 * record (its record, payload, extended-item and field offsets are relative to it).
	 */
	offsetBase = 0;
	/** Where the next slice of the same buffer starts; null when this is its last (or only) one. */
	next: SliceStart | null = null;
	/** Times of the buffer's first and last records so far (all of its slices up to this one). */
	firstTime: bigint | null = null;
	lastTime: bigint | null = null;

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
	/** The bytes of FieldOut j (FieldOut.size is a u16). */
	fieldSize(j: number): number {
		return this.fields.getUint16(j * F + FieldOut.size, true);
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
	/** Exact while the difference is below 2^53 ticks (28 years). Read as words: once per event. */
	ticks(buf: DecodedBuffer, i: number): number {
		const w = (i * R + RecordOut.time) >> 2;
		const words = buf.recordWords;
		return ((words[w + 1]! | 0) - this.#hi) * 0x100000000 + (words[w]! - this.#lo);
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
	const readInto = syncReader(source, entry.offset, entry.available);
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
	const damage = damageOf(decoder, entry, status);
	const decoded = new DecodedBuffer(entry, image, records, count, fields, damage);
	decoded.storage = storage;
	if (count > 0) {
		decoded.firstTime = decoded.time(0);
		decoded.lastTime = decoded.time(count - 1);
	}
	return decoded;
}

export function damageOf(
	decoder: WasmDecoder,
	entry: BufferEntry,
	status: number,
): DamageInfo | null {
	if (status === Status.Ok) return null;
	const v = decoder.view();
	return {
		status,
		bufferIndex: entry.index,
		bufferOffset: entry.offset,
		at: v.getUint32(decoder.bufferOut + BufferOut.errorOffset, true),
		value: v.getUint32(decoder.bufferOut + BufferOut.errorValue, true),
		limit: v.getUint32(decoder.bufferOut + BufferOut.errorLimit, true),
		compressed: entry.compressed,
	};
}

const EMPTY = new Uint8Array(0);
const HEADER = WMI_BUFFER_HEADER.size;
/** A record's size is a u16: a record starting before a slice's end ends within this of it. */
const MAX_RECORD = 0x10000;
/** At most one record per this many image bytes of a slice: its tables stay about its size. */
const SLICE_BYTES_PER_RECORD = 64;

/** Where a walk of a large buffer stopped: the next slice starts there. */
export interface SliceStart {
	/** Image offset of the next record, its index in the buffer, the raw time before it. */
	readonly at: number;
	readonly index: number;
	readonly lastRaw: bigint;
	/**
	 * The decoder's generation when the walk stopped, and how far the image it holds reaches:
	 * while both allow, the walk goes on without opening the buffer again.
	 */
	readonly generation: number;
	readonly imageEnd: number;
	readonly firstTime: bigint | null;
	readonly lastTime: bigint | null;
}

/**
 * The next part of a buffer: from its start (`from` null) or where the slice before stopped.
 * A buffer whose image fits `sliceBytes` is decoded whole, as decodeBuffer does; a larger one
 * yields slices of at most about `sliceBytes` of image (and their records), each telling where
 * the next starts. Going on after other buffers were decoded opens the buffer again: an
 * uncompressed one reads only the slice's bytes, a compressed one is decompressed up to the
 * slice's end (the XPRESS stream cannot be entered in the middle).
 */
export async function decodeSlice(
	trace: OpenTrace,
	entry: BufferEntry,
	from: SliceStart | null,
	sliceBytes: number,
	reuse: DecodedBuffer | null = null,
): Promise<DecodedBuffer> {
	const { decoder } = trace;
	let opener = sliceOpener(trace, entry, from, sliceBytes);
	if (opener instanceof Promise) opener = await opener;
	if (opener === null) return decodeBuffer(trace, entry, reuse);
	// From here to the end, nothing is awaited: no other pass uses the decoder meanwhile.
	const { status: opened, start, held } = opener();
	if (opened !== Status.Ok) return damaged(decoder, entry, opened, from);
	decoder.limitWalk(start + sliceBytes, sliceRecords(sliceBytes));
	const n = decoder.nextRecords();
	const slice = copySlice(decoder, entry, n, start, reuse);
	const status = decoder.bufferStatus;
	slice.firstTime = from?.firstTime ?? (n > 0 ? slice.time(0) : null);
	slice.lastTime = n > 0 ? slice.time(n - 1) : (from?.lastTime ?? null);
	slice.next = sliceNext(decoder, from, n, held, slice.firstTime, slice.lastTime);
	if (!slice.next) slice.damage = damageOf(decoder, entry, status);
	return slice;
}

/** The most records one slice of `sliceBytes` holds (a walk's max). */
export function sliceRecords(sliceBytes: number): number {
	return Math.max(1, Math.floor(sliceBytes / SLICE_BYTES_PER_RECORD));
}

/**
 * Where the next slice starts after a walk of n records that began at `from` (null at the
 * buffer's start) over an image reaching `held`; null when the buffer ends here.
 */
export function sliceNext(
	decoder: WasmDecoder,
	from: SliceStart | null,
	n: number,
	held: number,
	firstTime: bigint | null,
	lastTime: bigint | null,
): SliceStart | null {
	const cursor = decoder.walkCursor;
	const status = decoder.bufferStatus;
	const dataEnd = decoder.view().getUint32(decoder.bufferOut + BufferOut.dataEnd, true);
	// An empty walk ends the buffer (its end, the fill after its last record, or damage).
	if (n > 0 && cursor < dataEnd && (status === Status.Ok || status === Status.Truncated))
		return {
			at: cursor,
			index: (from?.index ?? 0) + n,
			lastRaw: decoder.walkLastRaw,
			generation: decoder.generation,
			imageEnd: held,
			firstTime,
			lastTime,
		};
	return null;
}

/** Where a slice's walk starts: the buffer's open status, the image offset, how far the image held reaches. */
export interface SliceAt {
	readonly status: number;
	readonly start: number;
	readonly held: number;
}

/**
 * What walking the next slice of a buffer takes (decodeSlice, and the header-only tallySlice):
 * null when the buffer is walked whole (small, or it cannot be framed); else the call that opens
 * it at the slice's start, to be made with nothing awaited before the walk. Synchronous when the
 * walk can go on in the decoder as it is: the check and the walk must not be parted by an await,
 * in which another pass could use the decoder.
 */
export function sliceOpener(
	trace: OpenTrace,
	entry: BufferEntry,
	from: SliceStart | null,
	sliceBytes: number,
): (() => SliceAt) | null | Promise<(() => SliceAt) | null> {
	if (from === null) {
		// Whole when small, or when it cannot be opened (the damage is all there is). A buffer's
		// image is at most its size, or the trace's BufferSize when compressed: framed only when
		// that may be more than a slice.
		const most = entry.compressed ? expansionBudget(trace.facts) : entry.size;
		return most <= HEADER + sliceBytes ? null : firstSlice(trace, entry, sliceBytes);
	}
	const start = from.at;
	const held = from.imageEnd;
	if (trace.decoder.generation === from.generation && start + sliceBytes + MAX_RECORD <= held)
		return () => ({ status: Status.Ok, start, held });
	return reopenSlice(trace, entry, from, sliceBytes);
}

/** The first slice of a buffer that may be larger than a slice: null when it is walked whole. */
async function firstSlice(
	trace: OpenTrace,
	entry: BufferEntry,
	sliceBytes: number,
): Promise<(() => SliceAt) | null> {
	const { dataEnd, status } = await frameEntry(trace, entry);
	if (status !== Status.Ok || dataEnd <= HEADER + sliceBytes) return null;
	const open = await prepareOpen(trace, entry, 0, null);
	return () => ({ status: open(), start: HEADER, held: Infinity });
}

/** A later slice of a buffer whose image the decoder no longer holds (far enough). */
async function reopenSlice(
	trace: OpenTrace,
	entry: BufferEntry,
	from: SliceStart,
	sliceBytes: number,
): Promise<() => SliceAt> {
	const { decoder } = trace;
	const start = from.at;
	// Twice as far as the slice started: a walk that goes on from here (no other buffer
	// decoded meanwhile) opens the buffer again only a few times.
	const end = Math.max(start + sliceBytes + MAX_RECORD, 2 * start);
	const open = entry.compressed
		? await prepareOpen(trace, entry, end, null)
		: await prepareOpen(trace, entry, 0, [start, end]);
	return () => {
		const opened = open();
		// It opened before: the file changed under us. Reported as the buffer's damage.
		if (opened !== Status.Ok) return { status: opened, start, held: from.imageEnd };
		decoder.seekWalk(start, from.index, from.lastRaw);
		const v = decoder.view();
		const image = entry.compressed
			? v.getUint32(decoder.bufferOut + BufferOut.dataSize, true)
			: Math.min(end, entry.available);
		const held =
			image < v.getUint32(decoder.bufferOut + BufferOut.dataEnd, true) ? image : Infinity;
		return { status: Status.Ok, start, held };
	};
}

/** Frames an entry's header: its status and, when framed, the end of its data (Offset). */
async function frameEntry(
	trace: OpenTrace,
	entry: BufferEntry,
): Promise<{ status: number; dataEnd: number }> {
	const { decoder, source } = trace;
	const head = await source.read(entry.offset, HEADER);
	decoder.load(head);
	const status = decoder.frameBuffer(head.length);
	const dataEnd = decoder.view().getUint32(decoder.bufferOut + BufferOut.dataEnd, true);
	return { status, dataEnd };
}

/** A buffer that could not be opened: no records, its damage. */
export function damaged(
	decoder: WasmDecoder,
	entry: BufferEntry,
	status: number,
	from: SliceStart | null,
): DecodedBuffer {
	const b = new DecodedBuffer(entry, EMPTY, EMPTY, 0, EMPTY, damageOf(decoder, entry, status));
	b.firstTime = from?.firstTime ?? null;
	b.lastTime = from?.lastTime ?? null;
	return b;
}

/**
 * Reads what opening a buffer needs: all of it, or (`range`, uncompressed only) its header and
 * the image bytes [from, to), which a slice in the middle of a large buffer needs. The call it
 * returns loads that into the decoder and opens the buffer (its image up to `limit` when not 0)
 * synchronously: the walk that follows runs before any other pass can use the decoder.
 */
async function prepareOpen(
	trace: OpenTrace,
	entry: BufferEntry,
	limit: number,
	range: readonly [number, number] | null,
): Promise<() => number> {
	const { decoder, source } = trace;
	const parts: [number, number][] = range
		? [
				[0, HEADER],
				[range[0], Math.min(range[1], entry.available)],
			]
		: [[0, entry.available]];
	const readInto = syncReader(source, entry.offset, entry.available);
	const read = readInto
		? null
		: await Promise.all(parts.map(([a, b]) => source.read(entry.offset + a, b - a)));
	return () => {
		const area = decoder.inputArea(entry.available);
		if (!area) return Status.BadBufferSize;
		parts.forEach(([a, b], k) => {
			if (b <= a) return;
			if (read) area.set(read[k]!, a);
			else readInto!(entry.offset + a, area.subarray(a, b));
		});
		decoder.limitImage(limit);
		// Only the bytes read are there; the buffer is `available` long.
		return decoder.openBuffer(range ? entry.available : parts[0]![1], entry.index === 0);
	};
}

/**
 * Copies the n records just walked (from image offset `base`), their fields and the image bytes
 * they span, with every image offset made relative to `base`.
 */
function copySlice(
	decoder: WasmDecoder,
	entry: BufferEntry,
	n: number,
	base: number,
	reuse: DecodedBuffer | null,
): DecodedBuffer {
	if (n === 0) {
		const empty = new DecodedBuffer(entry, EMPTY, EMPTY, 0, EMPTY, null);
		empty.storage = reuse?.storage ?? null;
		return empty;
	}
	const v = decoder.view();
	const dataPtr = v.getUint32(decoder.bufferOut + BufferOut.dataPtr, true);
	const lastAt = decoder.records + (n - 1) * R;
	const end =
		v.getUint32(lastAt + RecordOut.recordOffset, true) +
		v.getUint32(lastAt + RecordOut.recordSize, true);
	const imageSize = (end - base + 7) & ~7;
	const used = fieldsUsed(decoder, n);
	const need = imageSize + n * R + used * F;
	const storage =
		reuse?.storage && reuse.storage.byteLength >= need
			? reuse.storage
			: new ArrayBuffer(Math.max(need, 8));
	const image = new Uint8Array(storage, 0, end - base);
	image.set(decoder.bytes(dataPtr + base, end - base));
	const records = new Uint8Array(storage, imageSize, n * R);
	records.set(decoder.bytes(decoder.records, n * R));
	const fields = new Uint8Array(storage, imageSize + n * R, used * F);
	fields.set(decoder.bytes(decoder.fields, used * F));
	const rv = new DataView(storage, imageSize, n * R);
	for (let i = 0; i < n; i++)
		for (const f of [RecordOut.recordOffset, RecordOut.payloadOffset, RecordOut.extOffset]) {
			const at = i * R + f;
			const x = rv.getUint32(at, true);
			if (x >= base) rv.setUint32(at, x - base, true);
		}
	const fv = new DataView(storage, imageSize + n * R, used * F);
	for (let j = 0; j < used; j++) {
		const x = fv.getUint32(j * F + FieldOut.offset, true);
		if (x >= base) fv.setUint32(j * F + FieldOut.offset, x - base, true);
	}
	const slice = new DecodedBuffer(entry, image, records, n, fields, null);
	slice.storage = storage;
	slice.offsetBase = base;
	return slice;
}

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
