// The columnar event table: one typed array per column, in chunks of CHUNK_ROWS events (the
// first of FIRST_CHUNK_ROWS). Strings (event names, endpoints, addresses) are indexes into a
// per-trace string table; 0 is the empty string. Times are 100 ns ticks since the trace's
// StartTime (exact as f64).
import type { ChunkSummary } from './chunk-summary.ts';

export const CHUNK_ROWS = 65536;
/** Small, so that the first rows are stored, and shown, after a few milliseconds of decoding. */
export const FIRST_CHUNK_ROWS = 1024;

/** How many rows chunk `index` holds when full. */
export function chunkCapacity(index: number): number {
	return index === 0 ? FIRST_CHUNK_ROWS : CHUNK_ROWS;
}

/** The chunk that starts at row `row`, a chunk boundary (where a resumed import goes on). */
export function chunkStartingAt(row: number): number {
	if (row === 0) return 0;
	const after = row - FIRST_CHUNK_ROWS;
	if (after < 0 || after % CHUNK_ROWS !== 0) throw new Error(`row ${row} is not a chunk boundary`);
	return 1 + after / CHUNK_ROWS;
}

export type ColumnType = 'f64' | 'u32' | 'u16' | 'u8';

export const COLUMNS = {
	/** 100 ns ticks since StartTime. */
	time: 'f64',
	/**
	 * Ticks since the chunk's first event (tMin), for the timeline: half the bytes of `time`.
	 * Saturates at 2^32 - 1 in a chunk spanning more than 7 minutes, which reads `time` instead.
	 */
	tick: 'u32',
	/** Timeline category (categories.ts): connect, data, other, or errors for a failed event. */
	cat: 'u8',
	/** RecordKind. */
	kind: 'u8',
	level: 'u8',
	opcode: 'u8',
	cpu: 'u16',
	/** Index into the trace's event types (provider, id, version, name). */
	etype: 'u32',
	/** PID from the record header; NO_PID when the header has none. */
	pid: 'u32',
	tid: 'u32',
	/** The process the event is about: for Winsock events the PID learned for its EPROCESS. */
	process: 'u32',
	/** String index of the AFD endpoint pointer, 0 when none. */
	endpoint: 'u32',
	/** Address family of the addresses (2 AF_INET, 23 AF_INET6), 0 when none. */
	family: 'u8',
	laddr: 'u32',
	lport: 'u16',
	raddr: 'u32',
	rport: 'u16',
	/** NTSTATUS (or legacy Error) when FLAG_STATUS is set. */
	status: 'u32',
	/** Byte count: BufferLength, bytes indicated, packet size. */
	bytes: 'u32',
	/** FLAG_* bits. */
	flags: 'u8',
	/** Index of the buffer holding the record (in the trace's buffer table). */
	buffer: 'u32',
	/** Offset of the record in that buffer's image (decompressed when the buffer is compressed). */
	recOffset: 'u32',
} as const satisfies Record<string, ColumnType>;

export type ColumnName = keyof typeof COLUMNS;
export const COLUMN_NAMES = Object.keys(COLUMNS) as ColumnName[];

/**
 * The order a chunk's columns are stored in: those filters and the timeline read most, side by
 * side first, so that the few a query needs come in one read of the chunk's bytes (each read
 * from storage costs milliseconds before its first byte, trace-store.ts `loadColumns`). Chunks
 * stored in another order are read the same way: where each column sits is stored with it.
 */
export const STORE_ORDER: readonly ColumnName[] = [
	'etype',
	'flags',
	'bytes',
	'status',
	'process',
	'endpoint',
	'raddr',
	'rport',
	'laddr',
	'lport',
	'family',
	'pid',
	'cat',
	'tick',
	'level',
	'opcode',
	'kind',
	'cpu',
	'tid',
	'time',
	'buffer',
	'recOffset',
];

/**
 * Columns stored in a Blob of their own beside the chunk's first (which holds the rest in
 * STORE_ORDER): a group read whole needs no Blob.slice, which in Chromium costs the reading
 * thread about half a millisecond per chunk, and whose reads took about twice as long as those
 * of a Blob of its own. The timeline reads its two columns of every chunk at once.
 */
export const STORE_APART: readonly (readonly ColumnName[])[] = [['cat', 'tick']];

export const NO_PID = 0xffffffff;
/** Past this span (ticks) a chunk's `tick` column saturates. */
export const TICK_SPAN = 0xffffffff;

/**
 * Whether a chunk spans too long for its `tick` column to hold its times: then `time` is stored
 * and read instead.
 */
export function ticksSaturate(chunk: { readonly tMin: number; readonly tMax: number }): boolean {
	return chunk.tMax - chunk.tMin >= TICK_SPAN;
}
export const FLAG_STATUS = 1;
export const FLAG_ERROR = 2;
export const FLAG_ENTER = 4;
export const FLAG_EXIT = 8;
export const FLAG_BYTES = 16;
/**
 * The row's bytes are not a transfer of their own although it is a completion: a datagram send's
 * exit (its enter carries the bytes) or an exit at a Location that counts a send again (3073,
 * 3024). From schema/winsock-semantics.json; chunks stored without it count as before.
 */
export const FLAG_NOT_TRANSFER = 32;
/** An enter whose bytes are the transfer (a datagram send, whose exit is optional). */
export const FLAG_TRANSFER_AT_ENTER = 64;

type ArrayOf<T extends ColumnType> = T extends 'f64'
	? Float64Array
	: T extends 'u32'
		? Uint32Array
		: T extends 'u16'
			? Uint16Array
			: Uint8Array;

export type Columns = { -readonly [K in ColumnName]: ArrayOf<(typeof COLUMNS)[K]> };

/** The integer types a column of type T may be read back in: its own or a narrower one. */
type ReadArrayOf<T extends ColumnType> = T extends 'f64'
	? Float64Array
	: T extends 'u32'
		? Uint32Array | Uint16Array | Uint8Array
		: T extends 'u16'
			? Uint16Array | Uint8Array
			: Uint8Array;

/**
 * Columns as queries read them: an integer column in the narrowest type that holds its values,
 * as it is stored. A 25 M-event trace's filter columns then fit the query cache (an event type
 * takes 1 byte, not 4), and reading one needs no copy to widen it. Full columns are such too.
 */
export type ReadColumns = { [K in ColumnName]: ReadArrayOf<(typeof COLUMNS)[K]> };

const CTORS = { f64: Float64Array, u32: Uint32Array, u16: Uint16Array, u8: Uint8Array } as const;

export function allocateColumn(name: ColumnName, rows: number): Columns[ColumnName] {
	return new CTORS[COLUMNS[name]](rows) as Columns[ColumnName];
}

/**
 * A set of columns made by `make`. Built in one go (Object.fromEntries): an object given two
 * dozen properties one by one falls into V8's slow dictionary mode, and the builder reads them
 * for every event.
 */
export function makeColumns<K extends ColumnName>(
	names: Iterable<K>,
	make: (name: K) => Columns[K],
): Pick<Columns, K> {
	return Object.fromEntries([...names].map((name) => [name, make(name)])) as Pick<Columns, K>;
}

/** Where one column sits in its chunk's stored bytes, and the narrower type it is stored in, if any. */
export interface ColumnPart {
	name: ColumnName;
	/** Where it starts in its Blob. */
	offset: number;
	length: number;
	stored?: 'u8' | 'u16';
	/** Which Blob holds it: k (1, 2, …) for the chunk's k-th Blob apart; absent for its first. */
	blob?: number;
}

/** Where each stored column starts: a multiple of this many bytes (any type is aligned there). */
export const COLUMN_ALIGN = 8;

/**
 * A chunk's columns as stored: one after another in one buffer (8-byte aligned), each in the
 * narrowest unsigned type that holds all its values (fewer bytes to write and to read back);
 * a column of zeros is not stored, only named.
 */
export interface StoredColumns {
	readonly data: ArrayBuffer;
	readonly parts: ColumnPart[];
	readonly zeros: ColumnName[];
}

/**
 * The same, as the pieces that make the stored bytes when joined (a column kept in its own type
 * is a view of the column itself, no copy): what a Blob is built from, copying each byte once.
 */
export interface ColumnPieces {
	readonly pieces: Uint8Array[];
	readonly bytes: number;
	readonly parts: ColumnPart[];
	readonly zeros: ColumnName[];
}

/**
 * The bits set in any value of an integer column (below 2^8 or 2^16 exactly when its largest
 * value is), and whether a column holds anything but zeros. One function per element type: a
 * loop reading arrays of several types is megamorphic, and ran ten times slower than these (a
 * tenth of an import's time went to it).
 */
function bitsU32(a: Uint32Array): number {
	// Four ORs side by side: one chain of them waits on each (half the time in Node).
	let [b0, b1, b2, b3] = [0, 0, 0, 0];
	const n = a.length & ~3;
	let i = 0;
	for (; i < n; i += 4) {
		b0 |= a[i]!;
		b1 |= a[i + 1]!;
		b2 |= a[i + 2]!;
		b3 |= a[i + 3]!;
	}
	for (; i < a.length; i++) b0 |= a[i]!;
	return (b0 | b1 | b2 | b3) >>> 0;
}
function bitsU16(a: Uint16Array): number {
	// Two values a word: bitsU32 over the words (where they are 4-byte aligned), halves folded.
	const aligned = a.byteOffset % 4 === 0;
	const pairs = aligned ? a.length >> 1 : 0;
	const words = aligned ? bitsU32(new Uint32Array(a.buffer, a.byteOffset, pairs)) : 0;
	let bits = (words | (words >>> 16)) & 0xffff;
	for (let i = 2 * pairs; i < a.length; i++) bits |= a[i]!;
	return bits;
}
function anyF64(a: Float64Array): number {
	for (let i = 0; i < a.length; i++) if (a[i] !== 0) return Infinity;
	return 0;
}
function anyU8(a: Uint8Array): number {
	for (let i = 0; i < a.length; i++) if (a[i] !== 0) return Infinity;
	return 0;
}

const PADDING = new Uint8Array(8);

/**
 * Where narrowed columns are written: reused from chunk to chunk (the pieces are copied out at
 * once, into a Blob or a joined buffer). A loop writing into fresh memory cost fifteen times
 * more per element than TypedArray.set into memory already touched.
 */
let scratch = new ArrayBuffer(0);

interface Narrowing {
	readonly name: ColumnName;
	readonly offset: number;
	readonly length: number;
	readonly stored: 'u8' | 'u16';
	/** Its place among the pieces. */
	readonly at: number;
}

/**
 * The pieces are valid until the next call (narrowed columns share one scratch buffer): copy
 * them out first, as `new Blob(pieces)` does.
 */
export function columnPieces(
	columns: Partial<Columns>,
	names: readonly ColumnName[],
): ColumnPieces {
	const pieces: Uint8Array[] = [];
	const parts: ColumnPart[] = [];
	const zeros: ColumnName[] = [];
	const narrowing: Narrowing[] = [];
	let end = 0;
	for (const name of names) {
		const a = columns[name]!;
		const type = COLUMNS[name];
		// Times may be negative (events before StartTime): any value but 0 is kept, at full width;
		// a column of bytes is kept whole too. Either only needs a value that is not 0.
		const max =
			type === 'f64'
				? anyF64(a as Float64Array)
				: type === 'u8'
					? anyU8(a as Uint8Array)
					: type === 'u16'
						? bitsU16(a as Uint16Array)
						: bitsU32(a as Uint32Array);
		if (max === 0) {
			zeros.push(name);
			continue;
		}
		const narrow =
			type !== 'u8' && max < 0x100 ? 'u8' : type === 'u32' && max < 0x10000 ? 'u16' : null;
		const length = a.length * (narrow ? CTORS[narrow] : CTORS[type]).BYTES_PER_ELEMENT;
		const offset = (end + COLUMN_ALIGN - 1) & ~(COLUMN_ALIGN - 1);
		if (offset > end) pieces.push(PADDING.subarray(0, offset - end));
		// A column kept in its own type goes as it is; a narrowed one is written into the scratch
		// buffer, at its offset in the stored bytes (so the scratch needs no more than those).
		if (narrow) narrowing.push({ name, offset, length, stored: narrow, at: pieces.length });
		pieces.push(narrow ? PADDING : new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
		parts.push(narrow ? { name, offset, length, stored: narrow } : { name, offset, length });
		end = offset + length;
	}
	if (narrowing.length > 0 && scratch.byteLength < end) scratch = new ArrayBuffer(end);
	for (const n of narrowing) {
		const a = columns[n.name]!;
		new CTORS[n.stored](scratch, n.offset, a.length).set(a);
		pieces[n.at] = new Uint8Array(scratch, n.offset, n.length);
	}
	return { pieces, bytes: end, parts, zeros };
}

export function storeColumns(
	columns: Partial<Columns>,
	names: readonly ColumnName[],
): StoredColumns {
	const { pieces, bytes, parts, zeros } = columnPieces(columns, names);
	const data = new Uint8Array(bytes);
	let at = 0;
	for (const p of pieces) {
		data.set(p, at);
		at += p.length;
	}
	return { data: data.buffer, parts, zeros };
}

/**
 * A column read back, in the type it was stored in (`stored` names a narrower one, if any): a view
 * of `buffer`, not a copy.
 */
export function columnFromBuffer<K extends ColumnName>(
	name: K,
	buffer: ArrayBuffer,
	stored?: 'u8' | 'u16',
): ReadColumns[K] {
	return new CTORS[stored ?? COLUMNS[name]](buffer) as ReadColumns[K];
}

/**
 * A column that is `length` bytes at `offset` of a larger read: a view of that read where the
 * place is aligned for the column's type, else a copy of its bytes.
 */
export function columnAt<K extends ColumnName>(
	name: K,
	buffer: ArrayBuffer,
	offset: number,
	length: number,
	stored?: 'u8' | 'u16',
): ReadColumns[K] {
	const Ctor = CTORS[stored ?? COLUMNS[name]];
	const size = Ctor.BYTES_PER_ELEMENT;
	return (
		offset % size === 0
			? new Ctor(buffer, offset, length / size)
			: new Ctor(buffer.slice(offset, offset + length))
	) as ReadColumns[K];
}

/** A column of zeros as queries read it (one byte per integer row). */
export function zeroColumn<K extends ColumnName>(name: K, rows: number): ReadColumns[K] {
	return (
		COLUMNS[name] === 'f64' ? new Float64Array(rows) : new Uint8Array(rows)
	) as ReadColumns[K];
}

/**
 * A column in the narrowest type that holds its values, as it would be stored: a copy when
 * narrower, else the column itself (a column an import hands to the query cache).
 */
export function narrowColumn<K extends ColumnName>(name: K, a: Columns[K]): ReadColumns[K] {
	const type = COLUMNS[name];
	if (type === 'f64' || type === 'u8') return a as ReadColumns[K];
	const max = type === 'u16' ? bitsU16(a as Uint16Array) : bitsU32(a as Uint32Array);
	const narrow = max < 0x100 ? 'u8' : type === 'u32' && max < 0x10000 ? 'u16' : null;
	if (!narrow) return a as ReadColumns[K];
	const out = new CTORS[narrow](a.length);
	out.set(a);
	return out as ReadColumns[K];
}

/**
 * A chunk of events. Record bytes are not kept: (buffer, recOffset) locates each record in the
 * trace file, which is decoded again for details and exports.
 */
export interface Chunk {
	readonly index: number;
	readonly rows: number;
	readonly columns: Columns;
	/** First and last time (ticks since StartTime). */
	readonly tMin: number;
	readonly tMax: number;
	/**
	 * Its rows' combinations of event type, process, status and the like (chunk-summary.ts): null
	 * when they are too many; absent in chunks stored by an earlier version.
	 */
	readonly summary?: ChunkSummary | null;
}

/** An event type: what the etype column points to. */
export interface EventType {
	readonly kind: number;
	readonly provider: string | null;
	readonly providerName: string | null;
	readonly id: number;
	readonly version: number;
	readonly opcode: number;
	readonly name: string;
	/** Winsock-AFD event. */
	readonly afd: boolean;
	/** Index into the generated EVENT_SCHEMAS, -1 when none. */
	readonly schema: number;
}
