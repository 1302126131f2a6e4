// A test-only writer of spec-conformant ETL files (docs/etl-format.md §1-§9, §14), laid out as
// Windows lays them out: per-CPU buffers flushed when full (so file order is not time order),
// 8-byte aligned records with garbage padding, 0xFF buffer tails, optional XPRESS-compressed
// buffers packed back to back. Besides the bytes it returns the ground truth of every record.
//
// Struct offsets come from web/src/generated/layouts.ts (generated from schema/containers.json).

import {
	BufferFlag,
	EVENT_HEADER,
	EVENT_HEADER_EXTENDED_DATA_ITEM,
	EVENT_INSTANCE_GUID_HEADER,
	EVENT_TRACE_HEADER,
	HeaderType,
	MESSAGE_TRACE_HEADER,
	PERFINFO_TRACE_HEADER,
	SYSTEM_TRACE_HEADER,
	TRACE_LOGFILE_HEADER,
	WMI_BUFFER_HEADER,
	type FieldDef,
	type StructDef,
} from '../../web/src/generated/layouts.ts';
import { ByteWriter, align8, filetimeFromIso, guidBytes, normGuid, utf16z } from './bytes.ts';
import {
	AFD_PROVIDER,
	afdDescriptor,
	afdPayload,
	type EventDescriptor,
	type PayloadValues,
} from './payloads.ts';
import {
	TL_CHANNEL,
	tlProviderGuid,
	traceLoggingEvent,
	type ExtItem,
	type TlField,
} from './tracelogging.ts';
import { compressXpress } from './xpress.ts';

export * from './payloads.ts';
export * from './tracelogging.ts';
export { compressXpress, decompressXpress } from './xpress.ts';

// ---------------------------------------------------------------------------------------------
// Options and ground truth

export interface EtlWriterOptions {
	/** TRACE_LOGFILE_HEADER layout (SYSTEM32 + 32-bit layout, or SYSTEM64 + 64-bit) and the default
	 * pointer width of records. Default 8. */
	pointerSize?: 4 | 8;
	/** NumberOfProcessors; records may use CPUs 0..cpus-1. Default 1. */
	cpus?: number;
	/** Session buffer size (TRACE_LOGFILE_HEADER.BufferSize and the in-memory buffer capacity).
	 * Default 65536. Must hold 0x48 + the largest aligned record. */
	bufferSize?: number;
	/** XPRESS-compress every buffer after buffer 0 (relogger style). Default false. */
	compress?: boolean;
	/** ReservedFlags clock type: 1 QPC, 2 system time (FILETIME), 3 CPU cycles. Default 1. */
	clock?: 1 | 2 | 3;
	/** QPC frequency (clock 1). Default 10 MHz, where FILETIME ↔ raw conversion is exact. */
	perfFreq?: bigint;
	/** CpuSpeedInMHz; the cycle-counter rate for clock 3. Default 3000. */
	cpuSpeedMHz?: number;
	/** Session StartTime (FILETIME). Default 2026-03-14T09:26:53.5897932Z. */
	startTime?: bigint;
	/** Session clock at StartTime (the header record's SystemTime). Default for QPC and cycles:
	 * (startTime - bootTime) in clock units plus 12 345 ticks; for system time: startTime. */
	t0?: bigint;
	/** ProviderVersion (OS build). Default 22621. */
	build?: number;
	/** Major, Minor, Sub, SubMinor version bytes. Default [10, 0, 1, 5]. */
	version?: readonly [number, number, number, number];
	loggerName?: string;
	logFileName?: string;
	eventsLost?: number;
	buffersLost?: number;
	/** Win8+ ClientContext (u16 ProcessorIndex, BufferFlag 0x20). false: Win7 style (u8
	 * ProcessorNumber + u8 Alignment 8, no 0x20, and the header buffer's SavedOffset is 0).
	 * Default true. */
	procIndexFlag?: boolean;
	/** TimeZone.Bias in minutes. Default 0. */
	timeZoneBias?: number;
	/** BootTime (FILETIME). Default startTime - 3 h 17 min. */
	bootTime?: bigint;
	/** LogFileMode before the compression bit. Default 0x1 (SEQUENTIAL). */
	logFileMode?: number;
	/** LoggerId in every buffer header. Default 0x24. */
	loggerId?: number;
	/** TimerResolution (100 ns units). Default 156250. */
	timerResolution?: number;
	/** MaximumFileSize (MB). Default 0. */
	maximumFileSize?: number;
	/** PID/TID of the controller, in the header record. Defaults 4 and 8. */
	controllerPid?: number;
	controllerTid?: number;
	/** Byte written into alignment padding between records (real files hold garbage). 0xCD. */
	padByte?: number;
	/** SequenceNumber of the first data buffer (the header buffer has 0). Default 1. */
	firstSequence?: number;
	/**
	 * Streaming output (for files too large to hold in memory). Data buffers are handed to the sink
	 * in file order as they are flushed instead of being kept; the first chunk is a zero-filled
	 * placeholder of buffer 0 (the header buffer, whose BuffersWritten and EndTime are only known at
	 * the end). finish() then returns buffer 0 alone in `bytes`: write it over the placeholder at
	 * offset 0. Records are placed in buffers by release() and finish(); call release() as time
	 * advances to keep memory bounded. Default: none (finish() returns the whole file).
	 */
	sink?: (chunk: Uint8Array) => void;
	/** Keep the ground truth of every record (EtlFile.records). Default true; false leaves
	 * `records` empty and keeps nothing per record once its buffer is flushed. */
	truth?: boolean;
}

export type RecordKindName =
	'header' | 'system' | 'compact' | 'perfinfo' | 'classic' | 'instance' | 'event' | 'wpp';

/**
 * What was written for one record. `time` is the FILETIME asked for; `raw` the session-clock
 * value stored. Per kind: `id` is the event id (EVENT_HEADER), the HookId (system, compact,
 * perfinfo, header) or the MessageNumber (wpp), 0 for classic/instance; `opcode` is the Class.Type
 * for classic/instance and the low byte of the HookId for kernel headers; `flags` is
 * EVENT_HEADER.Flags or WPP OptionFlags; `version` is the record's version field.
 */
export interface TruthRecord {
	kind: RecordKindName;
	headerType: number;
	time: bigint;
	raw: bigint;
	cpu: number;
	/** null when the header carries none (PERFINFO; WPP without SYSTEMINFO). */
	pid: number | null;
	tid: number | null;
	/** Lower-case GUID without braces, or null when the record names none. */
	provider: string | null;
	id: number;
	version: number;
	level: number;
	opcode: number;
	channel: number;
	task: number;
	keyword: bigint;
	flags: number;
	pointerSize: 4 | 8;
	/** User data (after the fixed header, optional blocks and ext items). */
	payload: Uint8Array;
	ext: ExtItem[];
	/** The record's Size (unaligned). */
	size: number;
	/** Index of the buffer in the file (0 = header buffer). */
	bufferIndex: number;
	/** Offset of the record from the start of its buffer (0x48 = first record); for compressed
	 * buffers, in the decompressed image whose data starts at 0x48. */
	offset: number;
	/** Order of the add… call (the header record is -1). */
	addIndex: number;
	tl?: { provider: string; event: string; fields: TlField[] };
	instance?: { instanceId: number; parentInstanceId: number; parentGuid: string };
}

export interface BufferInfo {
	index: number;
	fileOffset: number;
	/** BufferSize as written (on-disk size). */
	size: number;
	/** Offset field: 0x48 + the (uncompressed) record bytes. */
	dataEnd: number;
	cpu: number;
	sequence: number;
	compressed: boolean;
	flags: number;
	type: number;
	recordCount: number;
}

export interface EtlFile {
	/** The whole file; with the `sink` option, buffer 0 only (to write over its placeholder). */
	bytes: Uint8Array;
	/**
	 * Every record, header record included, in decoder output order (empty with `truth: false`): by time; ties by CPU, then by
	 * position in that CPU's stream (its buffers by SequenceNumber, the header buffer first for
	 * CPU 0). Records of one CPU with equal times keep the order they were added in.
	 */
	records: TruthRecord[];
	buffers: BufferInfo[];
	t0: bigint;
	startTime: bigint;
	endTime: bigint;
}

// ---------------------------------------------------------------------------------------------
// Inputs of the add… methods

interface Common {
	cpu: number;
	/** FILETIME; not before the session StartTime. */
	time: bigint;
	/** Pointer width of the payload: picks the 32/64-bit header type. Default: writer's. */
	pointerSize?: 4 | 8;
}

export interface EventInput extends Common {
	pid: number;
	tid: number;
	provider: string;
	id: number;
	version?: number;
	channel?: number;
	level?: number;
	opcode?: number;
	task?: number;
	keyword?: bigint;
	payload?: Uint8Array;
	/** Extended data items; EVENT_HEADER.Flags gets 0x1 when present. */
	ext?: readonly ExtItem[];
	/** Extra EVENT_HEADER.Flags bits (e.g. 0x4 STRING_ONLY). */
	flags?: number;
	eventProperty?: number;
	kernelTime?: number;
	userTime?: number;
	activityId?: string;
}

export interface AfdEventInput extends Common {
	pid: number;
	tid: number;
	id: number;
	values: PayloadValues;
	version?: number;
	/** OR 0x8000000000000000 into the keyword (default true). */
	channelKeyword?: boolean;
	kernelTime?: number;
	userTime?: number;
}

export interface TraceLoggingInput extends Common {
	pid: number;
	tid: number;
	providerName: string;
	/** Default: the GUID derived from providerName (tlProviderGuid). */
	provider?: string;
	eventName: string;
	fields: readonly TlField[];
	level?: number;
	opcode?: number;
	keyword?: bigint;
}

export interface SystemInput extends Common {
	pid: number;
	tid: number;
	hookId: number;
	/** Header Version field. Default 2. */
	version?: number;
	payload?: Uint8Array;
	kernelTime?: number;
	userTime?: number;
}

export interface CompactInput extends Common {
	pid: number;
	tid: number;
	hookId: number;
	version?: number;
	payload?: Uint8Array;
}

export interface PerfInfoInput extends Common {
	hookId: number;
	version?: number;
	payload?: Uint8Array;
}

export interface ClassicInput extends Common {
	pid: number;
	tid: number;
	/** Event class / provider GUID. */
	guid: string;
	/** Class.Type (opcode). */
	type: number;
	level?: number;
	version?: number;
	payload?: Uint8Array;
	kernelTime?: number;
	userTime?: number;
}

export interface InstanceInput extends ClassicInput {
	instanceId: number;
	parentInstanceId?: number;
	parentGuid?: string;
}

export interface WppInput extends Common {
	messageNumber: number;
	/** SEQUENCE block (OptionFlags 0x01). */
	sequence?: number;
	/** GUID block (0x02): the message GUID. */
	guid?: string;
	/** SYSTEMINFO block (0x20) when both are given. */
	pid?: number;
	tid?: number;
	/** 0x08 TIMESTAMP (default) or 0x10 PERFORMANCE_TIMESTAMP; the value is the session clock. */
	timestampFlag?: 0x08 | 0x10;
	/** Set POINTER32/POINTER64 (0x40/0x80) from pointerSize. Default true. */
	pointerFlag?: boolean;
	/** The WPP arguments. */
	args?: Uint8Array;
}

/** Records that go into the header buffer after the logfile header (time = StartTime). */
export interface HeaderExtraInput {
	kind: 'system' | 'perfinfo';
	hookId: number;
	pid?: number;
	tid?: number;
	version?: number;
	payload?: Uint8Array;
	pointerSize?: 4 | 8;
}

// ---------------------------------------------------------------------------------------------
// Layout helpers

const BUFFER_HEADER_SIZE = WMI_BUFFER_HEADER.size; // 0x48
const MARKER_FLAGS = 0xc0; // TRACE_HEADER_FLAG | TRACE_HEADER_EVENT_TRACE
const WPP_MARKER = 0x90; // TRACE_HEADER_FLAG | TRACE_MESSAGE
const BUFFER_TYPE_GENERIC = 0;
const BUFFER_TYPE_HEADER = 4;
const BUFFER_STATE_FLUSH = 3;
const COMPRESSED_MODE = 0x04000000;
const HEADER_BUFFER_ALIGN = 512;

const EMPTY = new Uint8Array(0);

const fieldCache = new Map<StructDef, Map<string, FieldDef>>();

function fieldOf(def: StructDef, name: string): FieldDef {
	let m = fieldCache.get(def);
	if (!m) {
		m = new Map(def.fields.map((f) => [f.name, f]));
		fieldCache.set(def, m);
	}
	const f = m.get(name);
	if (!f) throw new Error(`layout has no field ${name}`);
	return f;
}

/** Offset of a field (the 32-bit layout's when `ptr32` and the field has one). */
export function fieldOffset(def: StructDef, name: string, ptr32 = false): number {
	const f = fieldOf(def, name);
	return ptr32 && f.offset32 !== undefined ? f.offset32 : f.offset;
}

type FieldValue = number | bigint | string | Uint8Array;

function numberOf(name: string, value: FieldValue): number {
	if (typeof value !== 'number' && typeof value !== 'bigint') {
		throw new Error(`${name}: expected a number`);
	}
	return Number(value);
}

function bigintOf(name: string, value: FieldValue): bigint {
	if (typeof value !== 'number' && typeof value !== 'bigint') {
		throw new Error(`${name}: expected a number`);
	}
	return BigInt(value);
}

/** guidBytes, memoised (the writer stores the same few provider GUIDs again and again). */
const guidBytesCache = new Map<string, Uint8Array>();

function cachedGuidBytes(g: string): Uint8Array {
	let b = guidBytesCache.get(g);
	if (!b) {
		b = guidBytes(g);
		if (guidBytesCache.size < 1024) guidBytesCache.set(g, b);
	}
	return b;
}

const normGuidCache = new Map<string, string>();

function cachedNormGuid(g: string): string {
	let n = normGuidCache.get(g);
	if (n === undefined) {
		n = normGuid(g);
		if (normGuidCache.size < 1024) normGuidCache.set(g, n);
	}
	return n;
}

/** Writes a field by name and layout type into `view` at `base`. */
function put(
	view: DataView,
	base: number,
	def: StructDef,
	name: string,
	value: FieldValue,
	ptr32 = false,
): void {
	const f = fieldOf(def, name);
	const at = base + (ptr32 && f.offset32 !== undefined ? f.offset32 : f.offset);
	switch (f.type) {
		case 'u8':
			view.setUint8(at, numberOf(name, value));
			break;
		case 'u16':
			view.setUint16(at, numberOf(name, value), true);
			break;
		case 'u32':
			view.setUint32(at, numberOf(name, value), true);
			break;
		case 'i32':
			view.setInt32(at, numberOf(name, value), true);
			break;
		case 'u64':
			view.setBigUint64(at, bigintOf(name, value), true);
			break;
		case 'i64':
			view.setBigInt64(at, bigintOf(name, value), true);
			break;
		case 'ptr':
			if (ptr32) view.setUint32(at, numberOf(name, value), true);
			else view.setBigUint64(at, bigintOf(name, value), true);
			break;
		case 'guid':
			putBytes(view, at, name, value, 16);
			break;
		default: {
			const m = /^bytes:(\d+)$/.exec(f.type);
			if (!m) throw new Error(`${name}: unknown layout type ${f.type}`);
			putBytes(view, at, name, value, Number(m[1]));
		}
	}
}

function putBytes(view: DataView, at: number, name: string, value: FieldValue, len: number): void {
	const src = typeof value === 'string' ? cachedGuidBytes(value) : value;
	if (!(src instanceof Uint8Array) || src.length > len) {
		throw new Error(`${name}: expected at most ${len} bytes`);
	}
	new Uint8Array(view.buffer, view.byteOffset + at, len).set(src);
}

/** A zeroed fixed header of `def` plus a DataView on it. */
function fixedHeader(size: number): { bytes: Uint8Array; view: DataView } {
	const bytes = new Uint8Array(size);
	return { bytes, view: new DataView(bytes.buffer) };
}

function u16Check(v: number, what: string): number {
	if (!Number.isInteger(v) || v < 0 || v > 0xffff)
		throw new RangeError(`${what} out of range: ${v}`);
	return v;
}

function u32Check(v: number, what: string): number {
	if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) {
		throw new RangeError(`${what} out of range: ${v}`);
	}
	return v;
}

/** On-disk extended items: u16 Size (8-aligned, header included), u16 ExtType, u16 Linkage, u16
 * DataSize, data, zero padding. */
function extItemsBytes(items: readonly ExtItem[]): Uint8Array {
	if (items.length === 0) return EMPTY;
	const w = new ByteWriter(64);
	items.forEach((it, i) => {
		const size = align8(EVENT_HEADER_EXTENDED_DATA_ITEM.size + it.data.length);
		if (size > 0xffff) throw new RangeError(`extended item too large (${it.data.length} bytes)`);
		const h = fixedHeader(EVENT_HEADER_EXTENDED_DATA_ITEM.size);
		const def = EVENT_HEADER_EXTENDED_DATA_ITEM;
		put(h.view, 0, def, 'Size', size);
		put(h.view, 0, def, 'ExtType', u16Check(it.type, 'ExtType'));
		put(h.view, 0, def, 'Linkage', i < items.length - 1 ? 1 : 0);
		put(h.view, 0, def, 'DataSize', it.data.length);
		w.bytes(h.bytes)
			.bytes(it.data)
			.fill(0, size - 8 - it.data.length);
	});
	return w.finish();
}

// ---------------------------------------------------------------------------------------------
// The writer

type TruthData = Omit<TruthRecord, 'bufferIndex' | 'offset'>;

interface Pending {
	addIndex: number;
	cpu: number;
	time: bigint;
	raw: bigint;
	bytes: Uint8Array;
	/** null with `truth: false`. */
	truth: TruthData | null;
}

interface OpenBuffer {
	seq: number;
	cpu: number;
	records: Pending[];
	used: number;
	flushRaw: bigint;
	atStop: boolean;
	eventsLost: boolean;
}

const DEFAULT_START = filetimeFromIso('2026-03-14T09:26:53.5897932Z');

export class EtlWriter {
	readonly pointerSize: 4 | 8;
	readonly cpus: number;
	readonly bufferSize: number;
	readonly compress: boolean;
	readonly clock: 1 | 2 | 3;
	readonly perfFreq: bigint;
	readonly cpuSpeedMHz: number;
	readonly startTime: bigint;
	readonly bootTime: bigint;
	readonly t0: bigint;
	private readonly opts: EtlWriterOptions;
	private readonly keepTruth: boolean;
	/** Records added but not yet placed in a buffer. */
	private pending: Pending[] = [];
	private readonly headerExtras: Pending[] = [];
	/** Marks not yet matched to a flushed buffer. */
	private lostMarks: { cpu: number; time: bigint }[] = [];
	private addCount = 0;
	private finished = false;
	// Buffer placement state (records are placed in global time order, ties by add order).
	/** Records before this time have been placed; adding one earlier throws. */
	private released: bigint | null = null;
	private endTime: bigint;
	private nextSeq: number;
	private readonly open = new Map<number, OpenBuffer>();
	/** Size of buffer 0, fixed when the first data buffer is written. */
	private headerSize: number | null = null;
	private fileOffset = 0;
	private readonly dataInfos: BufferInfo[] = [];
	private readonly dataChunks: Uint8Array[] = [];
	private readonly dataTruth: TruthRecord[] = [];

	constructor(options: EtlWriterOptions = {}) {
		this.opts = options;
		this.pointerSize = options.pointerSize ?? 8;
		this.cpus = options.cpus ?? 1;
		this.bufferSize = options.bufferSize ?? 65536;
		this.compress = options.compress ?? false;
		this.clock = options.clock ?? 1;
		this.perfFreq = options.perfFreq ?? 10_000_000n;
		this.cpuSpeedMHz = options.cpuSpeedMHz ?? 3000;
		this.startTime = options.startTime ?? DEFAULT_START;
		this.keepTruth = options.truth ?? true;
		this.endTime = this.startTime;
		this.nextSeq = options.firstSequence ?? 1;
		this.bootTime = options.bootTime ?? this.startTime - 118_200_000_000n;
		if (![4, 8].includes(this.pointerSize)) throw new Error('pointerSize must be 4 or 8');
		if (!Number.isInteger(this.cpus) || this.cpus < 1 || this.cpus > 2048) {
			throw new Error(`bad cpus ${this.cpus}`);
		}
		if (this.bufferSize % 8 !== 0 || this.bufferSize < 1024 || this.bufferSize > 0x4000000) {
			throw new Error(`bad bufferSize ${this.bufferSize}`);
		}
		if (this.perfFreq <= 0n) throw new Error('perfFreq must be positive');
		if (!Number.isInteger(this.cpuSpeedMHz) || this.cpuSpeedMHz <= 0) {
			throw new Error('cpuSpeedMHz must be a positive integer');
		}
		if (this.bootTime > this.startTime) throw new Error('bootTime after startTime');
		const sinceBoot = this.startTime - this.bootTime;
		this.t0 =
			options.t0 ??
			(this.clock === 2
				? this.startTime
				: this.clock === 1
					? (sinceBoot * this.perfFreq) / 10_000_000n + 12_345n
					: (sinceBoot * BigInt(this.cpuSpeedMHz)) / 10n + 12_345n);
	}

	/** The session-clock value of a FILETIME: T0 + (time - startTime) in clock units (floor). */
	rawTime(time: bigint): bigint {
		const d = time - this.startTime;
		if (d < 0n) throw new RangeError(`time ${time} is before the session StartTime`);
		switch (this.clock) {
			case 1:
				return this.t0 + (d * this.perfFreq) / 10_000_000n;
			case 2:
				return this.t0 + d;
			case 3:
				return this.t0 + (d * BigInt(this.cpuSpeedMHz)) / 10n;
		}
	}

	private check(c: Common): { ptr: 4 | 8; raw: bigint } {
		if (this.finished) throw new Error('EtlWriter: finish() was already called');
		if (!Number.isInteger(c.cpu) || c.cpu < 0 || c.cpu >= this.cpus) {
			throw new RangeError(`cpu ${c.cpu} outside 0..${this.cpus - 1}`);
		}
		if (this.released !== null && c.time < this.released) {
			throw new RangeError(`time ${c.time} is before the released time ${this.released}`);
		}
		const ptr = c.pointerSize ?? this.pointerSize;
		if (ptr !== 4 && ptr !== 8) throw new Error('pointerSize must be 4 or 8');
		return { ptr, raw: this.rawTime(c.time) };
	}

	private push(
		c: Common,
		raw: bigint,
		bytes: Uint8Array,
		truth: Omit<TruthData, 'addIndex' | 'time' | 'raw' | 'cpu' | 'size'> | null,
	): number {
		if (bytes.length > 0xffff) throw new RangeError(`record too large: ${bytes.length} bytes`);
		if (BUFFER_HEADER_SIZE + align8(bytes.length) > this.bufferSize) {
			throw new RangeError(
				`record of ${bytes.length} bytes does not fit a ${this.bufferSize}-byte buffer`,
			);
		}
		const addIndex = this.addCount++;
		if (c.time > this.endTime) this.endTime = c.time;
		this.pending.push({
			addIndex,
			cpu: c.cpu,
			time: c.time,
			raw,
			bytes,
			truth:
				this.keepTruth && truth
					? { ...truth, addIndex, time: c.time, raw, cpu: c.cpu, size: bytes.length }
					: null,
		});
		return addIndex;
	}

	/** An EVENT_HEADER record (0x12 for 4-byte pointers, 0x13 for 8). Returns its add index. */
	addEvent(e: EventInput): number {
		const { ptr, raw } = this.check(e);
		const ext = e.ext ?? [];
		const extBytes = extItemsBytes(ext);
		const payload = e.payload ?? new Uint8Array(0);
		const flags = u16Check((e.flags ?? 0) | (ext.length > 0 ? 0x1 : 0), 'Flags');
		const def = EVENT_HEADER;
		const size = def.size + extBytes.length + payload.length;
		// The record is built in place: fixed header, then the ext items and the payload.
		const bytes = new Uint8Array(size);
		const h = { bytes, view: new DataView(bytes.buffer) };
		const headerType = ptr === 4 ? HeaderType.EventHeader32 : HeaderType.EventHeader64;
		put(h.view, 0, def, 'Size', u16Check(size, 'record Size'));
		put(h.view, 0, def, 'HeaderType', headerType);
		put(h.view, 0, def, 'MarkerFlags', MARKER_FLAGS);
		put(h.view, 0, def, 'Flags', flags);
		put(h.view, 0, def, 'EventProperty', e.eventProperty ?? 0);
		put(h.view, 0, def, 'ThreadId', u32Check(e.tid, 'tid'));
		put(h.view, 0, def, 'ProcessId', u32Check(e.pid, 'pid'));
		put(h.view, 0, def, 'TimeStamp', raw);
		put(h.view, 0, def, 'ProviderId', e.provider);
		put(h.view, 0, def, 'Id', u16Check(e.id, 'Id'));
		put(h.view, 0, def, 'Version', e.version ?? 0);
		put(h.view, 0, def, 'Channel', e.channel ?? 0);
		put(h.view, 0, def, 'Level', e.level ?? 4);
		put(h.view, 0, def, 'Opcode', e.opcode ?? 0);
		put(h.view, 0, def, 'Task', e.task ?? 0);
		put(h.view, 0, def, 'Keyword', e.keyword ?? 0n);
		put(h.view, 0, def, 'KernelTime', e.kernelTime ?? 0);
		put(h.view, 0, def, 'UserTime', e.userTime ?? 0);
		if (e.activityId !== undefined) put(h.view, 0, def, 'ActivityId', e.activityId);
		bytes.set(extBytes, def.size);
		bytes.set(payload, def.size + extBytes.length);
		if (!this.keepTruth) return this.push(e, raw, bytes, null);
		return this.push(e, raw, bytes, {
			kind: 'event',
			headerType,
			pid: e.pid,
			tid: e.tid,
			provider: cachedNormGuid(e.provider),
			id: e.id,
			version: e.version ?? 0,
			level: e.level ?? 4,
			opcode: e.opcode ?? 0,
			channel: e.channel ?? 0,
			task: e.task ?? 0,
			keyword: e.keyword ?? 0n,
			flags,
			pointerSize: ptr,
			payload,
			ext: ext.map((x) => ({ type: x.type, data: x.data })),
		});
	}

	/** A Winsock-AFD event: descriptor and payload from schema/winsock-afd.json. */
	addAfd(e: AfdEventInput): number {
		const ptr = e.pointerSize ?? this.pointerSize;
		const d: EventDescriptor = afdDescriptor(e.id, e.version ?? 0, e.channelKeyword ?? true);
		return this.addEvent({
			cpu: e.cpu,
			time: e.time,
			pointerSize: ptr,
			pid: e.pid,
			tid: e.tid,
			provider: AFD_PROVIDER,
			...d,
			payload: afdPayload(e.id, e.values, ptr, e.version ?? 0),
			kernelTime: e.kernelTime,
			userTime: e.userTime,
		});
	}

	/** A TraceLogging event: Channel 11, Id 0, ext items 0xC + 0xB, payload from the fields. */
	addTraceLogging(e: TraceLoggingInput): number {
		const { ext, payload } = traceLoggingEvent(e.providerName, e.eventName, e.fields);
		const provider = e.provider ?? tlProviderGuid(e.providerName);
		const index = this.addEvent({
			cpu: e.cpu,
			time: e.time,
			pointerSize: e.pointerSize,
			pid: e.pid,
			tid: e.tid,
			provider,
			id: 0,
			version: 0,
			channel: TL_CHANNEL,
			level: e.level ?? 5,
			opcode: e.opcode ?? 0,
			task: 0,
			keyword: e.keyword ?? 0n,
			payload,
			ext,
		});
		const truth = this.pending[this.pending.length - 1]!.truth;
		if (truth) {
			truth.tl = {
				provider: e.providerName,
				event: e.eventName,
				fields: e.fields.map((f) => ({ ...f })),
			};
		}
		return index;
	}

	private systemBytes(
		ptr: 4 | 8,
		compact: boolean,
		version: number,
		hookId: number,
		pid: number,
		tid: number,
		raw: bigint,
		payload: Uint8Array,
		kernelTime = 0,
		userTime = 0,
	): { bytes: Uint8Array; headerType: number } {
		if (version & 0x8700) {
			throw new Error('PEBS/PMC extension bits in the Version field are not supported');
		}
		const def = SYSTEM_TRACE_HEADER;
		const fixed = compact ? 0x18 : def.size;
		const h = fixedHeader(def.size);
		const headerType = compact
			? ptr === 4
				? HeaderType.Compact32
				: HeaderType.Compact64
			: ptr === 4
				? HeaderType.System32
				: HeaderType.System64;
		put(h.view, 0, def, 'Version', u16Check(version, 'Version'));
		put(h.view, 0, def, 'HeaderType', headerType);
		put(h.view, 0, def, 'Flags', MARKER_FLAGS);
		put(h.view, 0, def, 'Size', u16Check(fixed + payload.length, 'record Size'));
		put(h.view, 0, def, 'HookId', u16Check(hookId, 'HookId'));
		put(h.view, 0, def, 'ThreadId', u32Check(tid, 'tid'));
		put(h.view, 0, def, 'ProcessId', u32Check(pid, 'pid'));
		put(h.view, 0, def, 'SystemTime', raw);
		if (!compact) {
			put(h.view, 0, def, 'KernelTime', kernelTime);
			put(h.view, 0, def, 'UserTime', userTime);
		}
		const bytes = new ByteWriter().bytes(h.bytes.subarray(0, fixed)).bytes(payload).finish();
		return { bytes, headerType };
	}

	/** A SYSTEM_TRACE_HEADER record (type 1/2) with a MOF payload. */
	addSystem(e: SystemInput): number {
		return this.addKernel(e, false);
	}

	/** A COMPACT system record (type 3/4): the first 0x18 bytes of SYSTEM_TRACE_HEADER. */
	addCompact(e: CompactInput): number {
		return this.addKernel(e, true);
	}

	private addKernel(e: SystemInput, compact: boolean): number {
		const { ptr, raw } = this.check(e);
		const payload = e.payload ?? new Uint8Array(0);
		const version = e.version ?? 2;
		const { bytes, headerType } = this.systemBytes(
			ptr,
			compact,
			version,
			e.hookId,
			e.pid,
			e.tid,
			raw,
			payload,
			// A compact header has no room for the CPU times.
			compact ? undefined : e.kernelTime,
			compact ? undefined : e.userTime,
		);
		return this.push(
			e,
			raw,
			bytes,
			this.kernelTruth(compact ? 'compact' : 'system', headerType, e, version, ptr, payload),
		);
	}

	private perfInfoBytes(
		ptr: 4 | 8,
		version: number,
		hookId: number,
		raw: bigint,
		payload: Uint8Array,
	): { bytes: Uint8Array; headerType: number } {
		if (version & 0x8700) {
			throw new Error('PEBS/PMC extension bits in the Version field are not supported');
		}
		const def = PERFINFO_TRACE_HEADER;
		const h = fixedHeader(def.size);
		const headerType = ptr === 4 ? HeaderType.Perfinfo32 : HeaderType.Perfinfo64;
		put(h.view, 0, def, 'Version', u16Check(version, 'Version'));
		put(h.view, 0, def, 'HeaderType', headerType);
		put(h.view, 0, def, 'Flags', MARKER_FLAGS);
		put(h.view, 0, def, 'Size', u16Check(def.size + payload.length, 'record Size'));
		put(h.view, 0, def, 'HookId', u16Check(hookId, 'HookId'));
		put(h.view, 0, def, 'SystemTime', raw);
		return { bytes: new ByteWriter().bytes(h.bytes).bytes(payload).finish(), headerType };
	}

	/** A PERFINFO_TRACE_HEADER record (type 0x10/0x11); no PID/TID. */
	addPerfInfo(e: PerfInfoInput): number {
		const { ptr, raw } = this.check(e);
		const payload = e.payload ?? new Uint8Array(0);
		const version = e.version ?? 2;
		const { bytes, headerType } = this.perfInfoBytes(ptr, version, e.hookId, raw, payload);
		return this.push(
			e,
			raw,
			bytes,
			this.kernelTruth('perfinfo', headerType, { hookId: e.hookId }, version, ptr, payload),
		);
	}

	private kernelTruth(
		kind: RecordKindName,
		headerType: number,
		e: { hookId: number; pid?: number; tid?: number },
		version: number,
		ptr: 4 | 8,
		payload: Uint8Array,
	): Omit<TruthData, 'addIndex' | 'time' | 'raw' | 'cpu' | 'size'> {
		return {
			kind,
			headerType,
			pid: e.pid ?? null,
			tid: e.tid ?? null,
			provider: null,
			id: e.hookId,
			version,
			level: 0,
			opcode: e.hookId & 0xff,
			channel: 0,
			task: 0,
			keyword: 0n,
			flags: 0,
			pointerSize: ptr,
			payload,
			ext: [],
		};
	}

	private classicBytes(
		e: ClassicInput,
		ptr: 4 | 8,
		raw: bigint,
		instance: InstanceInput | null,
	): { bytes: Uint8Array; headerType: number } {
		const def = EVENT_TRACE_HEADER;
		const fixed = instance ? EVENT_INSTANCE_GUID_HEADER.size : def.size;
		const payload = e.payload ?? new Uint8Array(0);
		const h = fixedHeader(fixed);
		const headerType = instance
			? ptr === 4
				? HeaderType.Instance32
				: HeaderType.Instance64
			: ptr === 4
				? HeaderType.Full32
				: HeaderType.Full64;
		put(h.view, 0, def, 'Size', u16Check(fixed + payload.length, 'record Size'));
		put(h.view, 0, def, 'HeaderType', headerType);
		put(h.view, 0, def, 'MarkerFlags', MARKER_FLAGS);
		put(h.view, 0, def, 'Type', e.type);
		put(h.view, 0, def, 'Level', e.level ?? 4);
		put(h.view, 0, def, 'Version', e.version ?? 0);
		put(h.view, 0, def, 'ThreadId', u32Check(e.tid, 'tid'));
		put(h.view, 0, def, 'ProcessId', u32Check(e.pid, 'pid'));
		put(h.view, 0, def, 'TimeStamp', raw);
		put(h.view, 0, def, 'Guid', e.guid);
		put(
			h.view,
			0,
			def,
			'ProcessorTime',
			BigInt(u32Check(e.kernelTime ?? 0, 'kernelTime')) |
				(BigInt(u32Check(e.userTime ?? 0, 'userTime')) << 32n),
		);
		if (instance) {
			const idef = EVENT_INSTANCE_GUID_HEADER;
			put(h.view, 0, idef, 'InstanceId', u32Check(instance.instanceId, 'InstanceId'));
			put(h.view, 0, idef, 'ParentInstanceId', instance.parentInstanceId ?? 0);
			put(
				h.view,
				0,
				idef,
				'ParentGuid',
				instance.parentGuid ?? '00000000-0000-0000-0000-000000000000',
			);
		}
		return { bytes: new ByteWriter().bytes(h.bytes).bytes(payload).finish(), headerType };
	}

	private classicTruth(
		kind: RecordKindName,
		headerType: number,
		e: ClassicInput,
		ptr: 4 | 8,
	): Omit<TruthData, 'addIndex' | 'time' | 'raw' | 'cpu' | 'size'> {
		return {
			kind,
			headerType,
			pid: e.pid,
			tid: e.tid,
			provider: normGuid(e.guid),
			id: 0,
			version: e.version ?? 0,
			level: e.level ?? 4,
			opcode: e.type,
			channel: 0,
			task: 0,
			keyword: 0n,
			flags: 0,
			pointerSize: ptr,
			payload: e.payload ?? new Uint8Array(0),
			ext: [],
		};
	}

	/** A classic EVENT_TRACE_HEADER record (type 0x0A/0x14). */
	addClassic(e: ClassicInput): number {
		const { ptr, raw } = this.check(e);
		const { bytes, headerType } = this.classicBytes(e, ptr, raw, null);
		return this.push(e, raw, bytes, this.classicTruth('classic', headerType, e, ptr));
	}

	/** An EVENT_INSTANCE_GUID_HEADER record (type 0x0B/0x15). */
	addInstance(e: InstanceInput): number {
		const { ptr, raw } = this.check(e);
		const { bytes, headerType } = this.classicBytes(e, ptr, raw, e);
		const truth = this.classicTruth('instance', headerType, e, ptr);
		truth.instance = {
			instanceId: e.instanceId,
			parentInstanceId: e.parentInstanceId ?? 0,
			parentGuid: normGuid(e.parentGuid ?? '00000000-0000-0000-0000-000000000000'),
		};
		return this.push(e, raw, bytes, truth);
	}

	/**
	 * A WPP MESSAGE record: u16 Size, u8 0, u8 0x90, u16 MessageNumber, u16 OptionFlags, then the
	 * optional blocks in order SEQUENCE u32 (0x01), GUID (0x02), TIMESTAMP u64 (0x08/0x10, always
	 * written: the session clock), SYSTEMINFO u32 TID + u32 PID (0x20), then the arguments.
	 */
	addWpp(e: WppInput): number {
		const { ptr, raw } = this.check(e);
		const args = e.args ?? new Uint8Array(0);
		const tsFlag = e.timestampFlag ?? 0x08;
		const sysInfo = e.pid !== undefined && e.tid !== undefined;
		if ((e.pid === undefined) !== (e.tid === undefined)) {
			throw new Error('WPP SYSTEMINFO needs both pid and tid');
		}
		let flags = tsFlag;
		if (e.sequence !== undefined) flags |= 0x01;
		if (e.guid !== undefined) flags |= 0x02;
		if (sysInfo) flags |= 0x20;
		if (e.pointerFlag ?? true) flags |= ptr === 4 ? 0x40 : 0x80;
		const def = MESSAGE_TRACE_HEADER;
		const h = fixedHeader(def.size);
		const w = new ByteWriter(64);
		if (e.sequence !== undefined) w.u32(u32Check(e.sequence, 'sequence'));
		if (e.guid !== undefined) w.guid(e.guid);
		w.u64(raw);
		if (sysInfo) w.u32(u32Check(e.tid!, 'tid')).u32(u32Check(e.pid!, 'pid'));
		w.bytes(args);
		const body = w.finish();
		put(h.view, 0, def, 'Size', u16Check(def.size + body.length, 'record Size'));
		put(h.view, 0, def, 'Reserved', 0);
		put(h.view, 0, def, 'MarkerFlags', WPP_MARKER);
		put(h.view, 0, def, 'MessageNumber', u16Check(e.messageNumber, 'MessageNumber'));
		put(h.view, 0, def, 'OptionFlags', flags);
		const bytes = new ByteWriter().bytes(h.bytes).bytes(body).finish();
		return this.push(e, raw, bytes, {
			kind: 'wpp',
			headerType: 0,
			pid: sysInfo ? e.pid! : null,
			tid: sysInfo ? e.tid! : null,
			provider: e.guid !== undefined ? normGuid(e.guid) : null,
			id: e.messageNumber,
			version: 0,
			level: 0,
			opcode: 0,
			channel: 0,
			task: 0,
			keyword: 0n,
			flags,
			pointerSize: ptr,
			payload: args,
			ext: [],
		});
	}

	/**
	 * A group-0 style record in the header buffer after the logfile header (e.g. hook 0x0050
	 * PartitionInfoExtension, PERFINFO 0x0040/0x0042). Its time is StartTime (raw T0), as in real
	 * files.
	 */
	addHeaderRecord(e: HeaderExtraInput): number {
		if (this.finished) throw new Error('EtlWriter: finish() was already called');
		if (this.headerSize !== null) {
			throw new Error('addHeaderRecord: data buffers were already written (see release())');
		}
		const ptr = e.pointerSize ?? this.pointerSize;
		const payload = e.payload ?? new Uint8Array(0);
		const version = e.version ?? 2;
		const built =
			e.kind === 'system'
				? this.systemBytes(ptr, false, version, e.hookId, e.pid ?? 0, e.tid ?? 0, this.t0, payload)
				: this.perfInfoBytes(ptr, version, e.hookId, this.t0, payload);
		const addIndex = this.addCount++;
		const kt = this.kernelTruth(
			e.kind,
			built.headerType,
			e.kind === 'system' ? { hookId: e.hookId, pid: e.pid ?? 0, tid: e.tid ?? 0 } : e,
			version,
			ptr,
			payload,
		);
		this.headerExtras.push({
			addIndex,
			cpu: 0,
			time: this.startTime,
			raw: this.t0,
			bytes: built.bytes,
			truth: {
				...kt,
				addIndex,
				time: this.startTime,
				raw: this.t0,
				cpu: 0,
				size: built.bytes.length,
			},
		});
		return addIndex;
	}

	/** Sets BufferFlag 0x2 (EVENTS_LOST) on the buffer of `cpu` that holds its first record at or
	 * after `time` (or its last buffer). */
	markEventsLost(cpu: number, time: bigint): void {
		this.check({ cpu, time });
		this.lostMarks.push({ cpu, time });
	}

	/**
	 * Places every record added so far with a time before `before` in its CPU's buffer, writing
	 * the buffers that fill up (to the sink, when there is one). The file is the same as when
	 * everything is placed by finish(); afterwards adding a record (or a lost-events mark) earlier
	 * than `before` throws. Streaming callers call this as their clock advances.
	 */
	release(before: bigint): void {
		if (this.finished) throw new Error('EtlWriter: finish() was already called');
		if (this.released !== null && before <= this.released) return;
		this.released = before;
		const ready: Pending[] = [];
		const rest: Pending[] = [];
		for (const r of this.pending) (r.time < before ? ready : rest).push(r);
		this.pending = rest;
		this.place(ready);
	}

	/** Appends records to the per-CPU buffers in global time order (ties: add order). */
	private place(records: Pending[]): void {
		records.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.addIndex - b.addIndex));
		for (const r of records) {
			const a = align8(r.bytes.length);
			let b = this.open.get(r.cpu);
			if (b && b.used + a > this.bufferSize) {
				b.flushRaw = r.raw;
				this.writeBuffer(b, false);
				b = undefined;
			}
			if (!b) {
				b = {
					seq: this.nextSeq++,
					cpu: r.cpu,
					records: [],
					used: BUFFER_HEADER_SIZE,
					flushRaw: 0n,
					atStop: false,
					eventsLost: false,
				};
				this.open.set(r.cpu, b);
			}
			b.records.push(r);
			b.used += a;
		}
	}

	/** Header records of buffer 0: the logfile header record, then any header extras. */
	private headerRecords(
		buffersWritten: number,
		endTime: bigint,
	): {
		records: { bytes: Uint8Array; truth: TruthRecord | null }[];
		used: number;
	} {
		const o = this.opts;
		const headerRecord = this.logfileHeaderRecord(buffersWritten, endTime);
		const records: { bytes: Uint8Array; truth: TruthRecord | null }[] = [];
		records.push({
			bytes: headerRecord.bytes,
			truth: this.keepTruth
				? {
						kind: 'header',
						headerType: headerRecord.headerType,
						time: this.startTime,
						raw: this.t0,
						cpu: 0,
						pid: o.controllerPid ?? 4,
						tid: o.controllerTid ?? 8,
						provider: null,
						id: 0,
						version: 2,
						level: 0,
						opcode: 0,
						channel: 0,
						task: 0,
						keyword: 0n,
						flags: 0,
						pointerSize: this.pointerSize,
						payload: headerRecord.bytes.subarray(SYSTEM_TRACE_HEADER.size),
						ext: [],
						size: headerRecord.bytes.length,
						bufferIndex: 0,
						offset: 0,
						addIndex: -1,
					}
				: null,
		});
		for (const x of this.headerExtras) {
			records.push({
				bytes: x.bytes,
				truth: x.truth && this.keepTruth ? { ...x.truth, bufferIndex: 0, offset: 0 } : null,
			});
		}
		let used = BUFFER_HEADER_SIZE;
		for (const r of records) used += align8(r.bytes.length);
		return { records, used };
	}

	/** Fixes the size of buffer 0 (before the first data buffer is written) and returns it. */
	private fixHeaderSize(): number {
		if (this.headerSize === null) {
			// The header record's size does not depend on BuffersWritten or EndTime.
			const { used } = this.headerRecords(0, this.startTime);
			this.headerSize = this.compress
				? Math.ceil(used / HEADER_BUFFER_ALIGN) * HEADER_BUFFER_ALIGN
				: this.bufferSize;
			if (used > this.headerSize) {
				throw new Error(`header records (${used} bytes) exceed the buffer`);
			}
			this.fileOffset = this.headerSize;
			this.opts.sink?.(new Uint8Array(this.headerSize));
		}
		return this.headerSize;
	}

	/** Builds a data buffer and writes it (to the sink, or kept for finish()). */
	private writeBuffer(b: OpenBuffer, last: boolean): void {
		this.fixHeaderSize();
		const padByte = this.opts.padByte ?? 0xcd;
		const procIndex = this.opts.procIndexFlag ?? true;
		const index = this.dataInfos.length + 1;
		const marks = this.lostMarks.filter((m) => m.cpu === b.cpu);
		if (marks.length > 0) {
			// The first buffer of the CPU holding a record at or after the mark, else its last one.
			const hit = marks.filter((m) => b.atStop || b.records.some((r) => r.time >= m.time));
			if (hit.length > 0) {
				b.eventsLost = true;
				this.lostMarks = this.lostMarks.filter((m) => !hit.includes(m));
			}
		}
		// The records go straight into the output buffer (0xFF after the data) unless compressed.
		const image = this.compress
			? new Uint8Array(b.used)
			: new Uint8Array(this.bufferSize).fill(0xff, b.used);
		let at = BUFFER_HEADER_SIZE;
		for (const r of b.records) {
			image.set(r.bytes, at);
			image.fill(padByte, at + r.bytes.length, at + align8(r.bytes.length));
			if (r.truth) this.dataTruth.push({ ...r.truth, bufferIndex: index, offset: at });
			at += align8(r.bytes.length);
		}
		let flags = procIndex ? BufferFlag.ProcIndex : 0;
		if (this.compress) flags |= BufferFlag.Compressed;
		if (b.eventsLost) flags |= BufferFlag.EventsLost;
		if (last) flags |= BufferFlag.FlushMarker;
		let out: Uint8Array;
		if (this.compress) {
			const packed = compressXpress(image.subarray(BUFFER_HEADER_SIZE));
			out = new Uint8Array(BUFFER_HEADER_SIZE + packed.length);
			out.set(packed, BUFFER_HEADER_SIZE);
		} else {
			out = image;
		}
		this.bufferHeader(out, {
			size: out.length,
			savedOffset: b.used,
			used: b.used,
			timeStamp: b.flushRaw,
			seq: b.seq,
			cpu: b.cpu,
			flags,
			type: BUFFER_TYPE_GENERIC,
			garbage: true,
			atStop: b.atStop,
			procIndex,
		});
		this.dataInfos.push({
			index,
			fileOffset: this.fileOffset,
			size: out.length,
			dataEnd: b.used,
			cpu: b.cpu,
			sequence: b.seq,
			compressed: this.compress,
			flags,
			type: BUFFER_TYPE_GENERIC,
			recordCount: b.records.length,
		});
		this.fileOffset += out.length;
		if (this.opts.sink) this.opts.sink(out);
		else this.dataChunks.push(out);
	}

	// -----------------------------------------------------------------------------------------

	finish(): EtlFile {
		if (this.finished) throw new Error('EtlWriter: finish() was already called');
		const o = this.opts;
		const procIndex = o.procIndexFlag ?? true;

		// 1. Per-CPU buffers, filled in global time order (ties: add order); the buffers still
		// open are flushed at the session stop, in CPU order.
		const pending = this.pending;
		this.pending = [];
		this.place(pending);
		this.finished = true;
		const endTime = this.endTime;
		const endRaw = this.rawTime(endTime);
		const stopping: OpenBuffer[] = [];
		for (let cpu = 0; cpu < this.cpus; cpu++) {
			const b = this.open.get(cpu);
			if (!b) continue;
			b.flushRaw = endRaw;
			b.atStop = true;
			stopping.push(b);
		}
		for (const m of this.lostMarks) {
			if (!stopping.some((b) => b.cpu === m.cpu) && !this.dataInfos.some((b) => b.cpu === m.cpu))
				throw new Error(`markEventsLost: CPU ${m.cpu} has no records`);
		}
		stopping.forEach((b, i) => this.writeBuffer(b, i === stopping.length - 1));
		this.open.clear();

		const buffersWritten = 1 + this.dataInfos.length;
		const records: TruthRecord[] = [];
		const infos: BufferInfo[] = [];

		// 2. Buffer 0: the logfile header record, then any header extras.
		const header = this.headerRecords(buffersWritten, endTime);
		const size = this.fixHeaderSize();
		if (header.used > size)
			throw new Error(`header records (${header.used} bytes) exceed the buffer`);
		const buf0 = new Uint8Array(size).fill(0xff);
		{
			const padByte = o.padByte ?? 0xcd;
			let at = BUFFER_HEADER_SIZE;
			for (const r of header.records) {
				buf0.set(r.bytes, at);
				buf0.fill(padByte, at + r.bytes.length, at + align8(r.bytes.length));
				if (r.truth) {
					r.truth.offset = at;
					records.push(r.truth);
				}
				at += align8(r.bytes.length);
			}
			const flags = BufferFlag.FlushMarker | (procIndex ? BufferFlag.ProcIndex : 0);
			this.bufferHeader(buf0, {
				size,
				savedOffset: procIndex ? header.used : 0,
				used: header.used,
				timeStamp: 0n,
				seq: 0,
				cpu: 0,
				flags,
				type: BUFFER_TYPE_HEADER,
				garbage: false,
				procIndex,
			});
			infos.push({
				index: 0,
				fileOffset: 0,
				size,
				dataEnd: header.used,
				cpu: 0,
				sequence: 0,
				compressed: false,
				flags,
				type: BUFFER_TYPE_HEADER,
				recordCount: header.records.length,
			});
		}

		// 3. Data buffers in flush order (written as they filled).
		infos.push(...this.dataInfos);
		for (const r of this.dataTruth) records.push(r);
		this.dataTruth.length = 0;

		// 4. Ground truth in decoder order: time, then CPU, then position in the CPU's stream.
		if (this.keepTruth) {
			const streamPos = new Map<TruthRecord, number>();
			const byCpu = new Map<number, { seq: number; recs: TruthRecord[] }[]>();
			const bufRecs = new Map<number, TruthRecord[]>();
			for (const r of records) {
				const list = bufRecs.get(r.bufferIndex) ?? [];
				list.push(r);
				bufRecs.set(r.bufferIndex, list);
			}
			for (const info of infos) {
				const list = byCpu.get(info.cpu) ?? [];
				list.push({ seq: info.sequence, recs: bufRecs.get(info.index) ?? [] });
				byCpu.set(info.cpu, list);
			}
			for (const list of byCpu.values()) {
				list.sort((a, b) => a.seq - b.seq);
				let n = 0;
				for (const b of list) for (const r of b.recs) streamPos.set(r, n++);
			}
			records.sort((a, b) => {
				if (a.time !== b.time) return a.time < b.time ? -1 : 1;
				if (a.cpu !== b.cpu) return a.cpu - b.cpu;
				return streamPos.get(a)! - streamPos.get(b)!;
			});
		}

		let bytes: Uint8Array;
		if (o.sink) bytes = buf0;
		else {
			bytes = new Uint8Array(this.fileOffset);
			bytes.set(buf0, 0);
			let p = size;
			for (const c of this.dataChunks) {
				bytes.set(c, p);
				p += c.length;
			}
			this.dataChunks.length = 0;
		}
		return { bytes, records, buffers: infos, t0: this.t0, startTime: this.startTime, endTime };
	}
	private bufferHeader(
		buf: Uint8Array,
		h: {
			size: number;
			savedOffset: number;
			used: number;
			timeStamp: bigint;
			seq: number;
			cpu: number;
			flags: number;
			type: number;
			garbage: boolean;
			atStop?: boolean;
			procIndex: boolean;
		},
	): void {
		const def = WMI_BUFFER_HEADER;
		const view = new DataView(buf.buffer, buf.byteOffset, BUFFER_HEADER_SIZE);
		new Uint8Array(buf.buffer, buf.byteOffset, BUFFER_HEADER_SIZE).fill(0);
		put(view, 0, def, 'BufferSize', h.size);
		put(view, 0, def, 'SavedOffset', h.savedOffset);
		put(view, 0, def, 'CurrentOffset', h.used);
		put(view, 0, def, 'ReferenceCount', 0);
		put(view, 0, def, 'TimeStamp', h.timeStamp);
		put(view, 0, def, 'SequenceNumber', BigInt(h.seq));
		// Real files: +0x20 mostly zero, kernel-pointer garbage in buffers flushed at session stop;
		// +0x38 zero in the header buffer, pointer garbage elsewhere. Decoders must ignore both.
		const g = 0xffffa50c00000000n + BigInt(h.seq) * 0x15000n;
		put(view, 0, def, 'ClockTypeFrequency', h.atStop ? g + 0x20n : 0n);
		if (h.procIndex) {
			put(view, 0, def, 'ProcessorIndex', h.cpu);
		} else {
			if (h.cpu > 0xff) throw new Error('Win7-style ClientContext holds CPUs 0..255 only');
			const at = fieldOffset(def, 'ProcessorIndex');
			view.setUint8(at, h.cpu);
			view.setUint8(at + 1, 8); // Alignment
		}
		put(view, 0, def, 'LoggerId', this.opts.loggerId ?? 0x24);
		put(view, 0, def, 'State', BUFFER_STATE_FLUSH);
		put(view, 0, def, 'Offset', h.used);
		put(view, 0, def, 'BufferFlag', h.flags);
		put(view, 0, def, 'BufferType', h.type);
		if (h.garbage) {
			const ref = new ByteWriter(16)
				.u64(g + 0x38n)
				.u64(g + 0x1038n)
				.finish();
			put(view, 0, def, 'ReferenceTime', ref);
		}
	}

	private logfileHeaderRecord(
		buffersWritten: number,
		endTime: bigint,
	): { bytes: Uint8Array; headerType: number } {
		const o = this.opts;
		const ptr32 = this.pointerSize === 4;
		const def = TRACE_LOGFILE_HEADER;
		const fixed = ptr32 ? def.size32! : def.size;
		const loggerName = utf16z(o.loggerName ?? 'sockscope-test');
		const logFileName = utf16z(o.logFileName ?? 'C:\\Windows\\Temp\\sockscope-test.etl');
		const payload = new Uint8Array(fixed + loggerName.length + logFileName.length);
		const view = new DataView(payload.buffer);
		const set = (name: string, v: FieldValue): void => put(view, 0, def, name, v, ptr32);
		const [major, minor, sub, subMinor] = o.version ?? [10, 0, 1, 5];
		let mode = o.logFileMode ?? 0x1;
		if (this.compress) mode = (mode | COMPRESSED_MODE) >>> 0;
		set('BufferSize', this.bufferSize);
		set('MajorVersion', major);
		set('MinorVersion', minor);
		set('SubVersion', sub);
		set('SubMinorVersion', subMinor);
		set('ProviderVersion', o.build ?? 22621);
		set('NumberOfProcessors', this.cpus);
		set('EndTime', endTime);
		set('TimerResolution', o.timerResolution ?? 156250);
		set('MaximumFileSize', o.maximumFileSize ?? 0);
		set('LogFileMode', mode);
		set('BuffersWritten', buffersWritten);
		set('StartBuffers', 1);
		set('PointerSize', this.pointerSize);
		set('EventsLost', o.eventsLost ?? 0);
		set('CpuSpeedInMHz', this.cpuSpeedMHz);
		// Not pointers on disk; real files hold small values such as 10 and 7 here.
		set('LoggerNamePtr', 10);
		set('LogFileNamePtr', 7);
		set('TimeZone', timeZoneInformation(o.timeZoneBias ?? 0));
		set('Padding', 0);
		set('BootTime', this.bootTime);
		set('PerfFreq', this.perfFreq);
		set('StartTime', this.startTime);
		set('ReservedFlags', this.clock);
		set('BuffersLost', o.buffersLost ?? 0);
		payload.set(loggerName, fixed);
		payload.set(logFileName, fixed + loggerName.length);
		const built = this.systemBytes(
			this.pointerSize,
			false,
			2,
			0,
			o.controllerPid ?? 4,
			o.controllerTid ?? 8,
			this.t0,
			payload,
		);
		return built;
	}
}

/** TIME_ZONE_INFORMATION (172 bytes): Bias, StandardName "@tzres.dll,-932" (UTC), zero dates. */
function timeZoneInformation(bias: number): Uint8Array {
	const tz = new Uint8Array(0xac);
	const view = new DataView(tz.buffer);
	view.setInt32(0, bias, true);
	tz.set(utf16z('@tzres.dll,-932').subarray(0, 64), 4);
	tz.set(utf16z('@tzres.dll,-931').subarray(0, 64), 0x58);
	return tz;
}

/** Convenience: build a whole file in one call. */
export function writeEtl(options: EtlWriterOptions, build: (w: EtlWriter) => void): EtlFile {
	const w = new EtlWriter(options);
	build(w);
	return w.finish();
}
