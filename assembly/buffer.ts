// Framing of one ETL buffer (WMI_BUFFER_HEADER + records) and the record walk.
// Sources: schema/README.md. Facts relied on: the stride is each buffer's own BufferSize; the data
// ends at Offset (not SavedOffset); compressed buffers (flag 0x40) hold MS-XCA LZ77 after the
// 0x48-byte header; records are 8-byte aligned; 0xFFFFFFFF marks the fill after the last record.
import {
	BufferFlag,
	BufferOut_SIZE,
	BufferOut_bufferSize,
	BufferOut_bufferType,
	BufferOut_compressed,
	BufferOut_cpu,
	BufferOut_dataEnd,
	BufferOut_dataPtr,
	BufferOut_dataSize,
	BufferOut_errorLimit,
	BufferOut_errorOffset,
	BufferOut_errorValue,
	BufferOut_flags,
	BufferOut_records,
	BufferOut_sequence,
	HeaderType,
	PayloadLayout,
	RecordKind,
	RecordOut_SIZE,
	RecordOut_channel,
	RecordOut_damage,
	RecordOut_extCount,
	RecordOut_extOffset,
	RecordOut_extSize,
	RecordOut_fieldCount,
	RecordOut_fieldStart,
	RecordOut_flags,
	RecordOut_headerType,
	RecordOut_id,
	RecordOut_keyword,
	RecordOut_kind,
	RecordOut_layout,
	RecordOut_level,
	RecordOut_opcode,
	RecordOut_payloadOffset,
	RecordOut_payloadSize,
	RecordOut_pid,
	RecordOut_pointerSize,
	RecordOut_providerIndex,
	RecordOut_rawTime,
	RecordOut_recordOffset,
	RecordOut_recordSize,
	RecordOut_reserved,
	RecordOut_schemaIndex,
	RecordOut_task,
	RecordOut_tid,
	RecordOut_time,
	RecordOut_version,
	Status,
	WMI_BUFFER_HEADER_BufferFlag,
	WMI_BUFFER_HEADER_BufferSize,
	WMI_BUFFER_HEADER_BufferType,
	WMI_BUFFER_HEADER_Offset,
	WMI_BUFFER_HEADER_ProcessorIndex,
	WMI_BUFFER_HEADER_SIZE,
	WMI_BUFFER_HEADER_SequenceNumber,
} from './generated/layouts';
import {
	BUFFER_OUT,
	INPUT,
	MAX_BUFFER_SIZE,
	MAX_EXT_ITEMS,
	MAX_RECORDS,
	RECORDS,
	ensureMemory,
	scratch,
} from './memory-map';
import { decompressXpress, xpressErrorAt } from './xpress';
import { toFiletime } from './clock';
import { NO_PROVIDER, internGuid, knownProvider, partialProvider } from './providers';
import {
	fieldsFit,
	fieldsUsed,
	findLayout,
	interpret,
	layoutFieldCount,
	resetFields,
	skipFields,
} from './payload';
import { beginCall, kept, tallyRecord, tallying, writeOut } from './tally';

const HEADER: u32 = WMI_BUFFER_HEADER_SIZE;
/** ProcessorIndex mask when BufferFlag PROC_INDEX is set (phnt). */
const PROC_INDEX_MASK: u32 = 0x07ff;
const FILL_MARKER: u32 = 0xffffffff;
const EXT_TYPE_EVENT_SCHEMA_TL: u32 = 0x0b;
const EVENT_HEADER_FLAG_EXTENDED_INFO: u32 = 0x1;
const EVENT_HEADER_FLAG_STRING_ONLY: u32 = 0x4;
const TRACELOGGING_CHANNEL: u32 = 11;
const NONE: u32 = 0xffffffff;

// State of the buffer being walked.
let image: usize = 0;
let dataEnd: u32 = 0;
let cursor: u32 = 0;
let bufferStatus: i32 = Status.Ok;
let isHeaderBuffer = false;
let recordIndex: u32 = 0;
let lastRaw: i64 = 0;
/** The walk stops before a record that starts here or later (a slice of a large buffer). */
let walkEnd: u32 = NONE;
/** And stops after this many records per nextRecords call. */
let walkMax: u32 = MAX_RECORDS;
/** Decompression stops here (image offset), 0 for the whole buffer: see limitImage. */
let imageLimit: u32 = 0;
/**
 * Largest decompressed buffer (header included) accepted: the trace's own BufferSize from its
 * logfile header, which no buffer of the session can exceed; MAX_BUFFER_SIZE until it is known.
 */
let expansionBudget: u32 = MAX_BUFFER_SIZE;

export function setExpansionBudget(n: u32): void {
	expansionBudget = n >= HEADER && n <= MAX_BUFFER_SIZE ? n : MAX_BUFFER_SIZE;
}

/** Pointer size of the logfile header, for WPP records that do not say. */
export let defaultPointerSize: u32 = 8;

export function setDefaultPointerSize(n: u32): void {
	defaultPointerSize = n;
}

export function currentStatus(): i32 {
	return bufferStatus;
}

function setError(status: i32, at: u32, value: u32, limit: u32): i32 {
	store<u32>(BUFFER_OUT + BufferOut_errorOffset, at);
	store<u32>(BUFFER_OUT + BufferOut_errorValue, value);
	store<u32>(BUFFER_OUT + BufferOut_errorLimit, limit);
	bufferStatus = status;
	return status;
}

/** Reads and checks the WMI_BUFFER_HEADER at INPUT (`avail` bytes present) into BufferOut. */
export function frameBuffer(avail: u32): i32 {
	memory.fill(BUFFER_OUT, 0, BufferOut_SIZE);
	bufferStatus = Status.Ok;
	if (avail < HEADER) return setError(Status.TooSmall, 0, avail, HEADER);
	const size = load<u32>(INPUT + WMI_BUFFER_HEADER_BufferSize);
	const end = load<u32>(INPUT + WMI_BUFFER_HEADER_Offset);
	const flags = <u32>load<u16>(INPUT + WMI_BUFFER_HEADER_BufferFlag);
	const compressed = (flags & BufferFlag.Compressed) != 0;
	store<u32>(BUFFER_OUT + BufferOut_bufferSize, size);
	store<u32>(BUFFER_OUT + BufferOut_dataEnd, end);
	store<i64>(BUFFER_OUT + BufferOut_sequence, load<i64>(INPUT + WMI_BUFFER_HEADER_SequenceNumber));
	const context = <u32>load<u16>(INPUT + WMI_BUFFER_HEADER_ProcessorIndex);
	// Without PROC_INDEX (Windows 7) the field is u8 ProcessorNumber + u8 Alignment.
	const cpu = (flags & BufferFlag.ProcIndex) != 0 ? context & PROC_INDEX_MASK : context & 0xff;
	store<u16>(BUFFER_OUT + BufferOut_cpu, <u16>cpu);
	store<u16>(BUFFER_OUT + BufferOut_flags, <u16>flags);
	store<u16>(BUFFER_OUT + BufferOut_bufferType, load<u16>(INPUT + WMI_BUFFER_HEADER_BufferType));
	store<u8>(BUFFER_OUT + BufferOut_compressed, compressed ? 1 : 0);
	if (size < HEADER)
		return setError(Status.BadBufferSize, WMI_BUFFER_HEADER_BufferSize, size, HEADER);
	if (size > MAX_BUFFER_SIZE)
		return setError(Status.BadBufferSize, WMI_BUFFER_HEADER_BufferSize, size, MAX_BUFFER_SIZE);
	if (compressed) {
		if (end < HEADER) return setError(Status.BadDataEnd, WMI_BUFFER_HEADER_Offset, end, size);
		if (end > expansionBudget)
			return setError(Status.OverBudget, WMI_BUFFER_HEADER_Offset, end, expansionBudget);
	} else if (end < HEADER || end > size) {
		return setError(Status.BadDataEnd, WMI_BUFFER_HEADER_Offset, end, size);
	}
	return Status.Ok;
}

/**
 * Prepares the buffer at INPUT (`avail` bytes of it present) for the record walk: frames it,
 * decompresses it when flagged. A buffer cut short by the end of the file is walked up to
 * the last whole record and reported as Truncated.
 */
export function openBuffer(avail: u32, headerBuffer: bool): i32 {
	const framed = frameBuffer(avail);
	isHeaderBuffer = headerBuffer;
	recordIndex = 0;
	cursor = HEADER;
	lastRaw = 0;
	image = INPUT;
	dataEnd = HEADER;
	walkEnd = NONE;
	walkMax = MAX_RECORDS;
	const limit = imageLimit;
	imageLimit = 0;
	if (framed != Status.Ok) return framed;
	const size = load<u32>(BUFFER_OUT + BufferOut_bufferSize);
	let end = load<u32>(BUFFER_OUT + BufferOut_dataEnd);
	let truncated = false;
	if (load<u8>(BUFFER_OUT + BufferOut_compressed)) {
		if (avail < size) return setError(Status.Truncated, avail, avail, size);
		const out = scratch();
		if (!ensureMemory(out + <usize>end))
			return setError(Status.BadDataEnd, WMI_BUFFER_HEADER_Offset, end, MAX_BUFFER_SIZE);
		memory.copy(out, INPUT, HEADER);
		// A slice of a large buffer needs its image only up to the slice's last record.
		const clipped = limit > HEADER && limit < end;
		if (clipped) end = limit;
		if (!decompressXpress(INPUT + HEADER, size - HEADER, out + HEADER, end - HEADER, clipped))
			return setError(Status.CompressionError, HEADER + xpressErrorAt, 0, size);
		image = out;
	} else if (avail < end) {
		end = avail;
		truncated = true;
	}
	dataEnd = end;
	store<u32>(BUFFER_OUT + BufferOut_dataPtr, <u32>image);
	store<u32>(BUFFER_OUT + BufferOut_dataSize, end);
	if (truncated) setError(Status.Truncated, avail, avail, size);
	return Status.Ok;
}

/**
 * For the next openBuffer only: decompress a compressed buffer's image up to `end` (an image
 * offset), not further. A slice walked from a later record needs no more than that.
 */
export function limitImage(end: u32): void {
	imageLimit = end;
}

/**
 * The next nextRecords calls stop before a record that starts at `end` or later, and after `max`
 * records each.
 */
export function limitWalk(end: u32, max: u32): void {
	walkEnd = end;
	walkMax = max > 0 && max < MAX_RECORDS ? max : MAX_RECORDS;
}

/**
 * Goes on walking the open buffer from a record where an earlier walk of it stopped: its image
 * offset, its index in the buffer and the raw time of the record before it (WPP records
 * without a time of their own take that one).
 */
export function seekWalk(at: u32, index: u32, raw: i64): void {
	if (at >= HEADER && at <= dataEnd) cursor = at;
	recordIndex = index;
	lastRaw = raw;
}

/** Where the walk is: the image offset of the next record (dataEnd when it is done). */
export function walkCursor(): u32 {
	return cursor;
}

/** The raw time of the last record walked. */
export function walkLastRaw(): i64 {
	return lastRaw;
}

/** Pointer width of a record's payload, from its header type. */
function pointerSizeOf(headerType: u32): u32 {
	switch (headerType) {
		case HeaderType.System32:
		case HeaderType.Compact32:
		case HeaderType.Full32:
		case HeaderType.Instance32:
		case HeaderType.Perfinfo32:
		case HeaderType.EventHeader32:
			return 4;
		default:
			return 8;
	}
}

/** PEBS index and PMC counters that may follow kernel headers (TRACE_HEADER_PEBS_INDEX_FLAG, PMC mask). */
function kernelExtension(version: u32): u32 {
	return ((version & 0x8000) != 0 ? 8 : 0) + ((version >> 8) & 7) * 8;
}

function emit(
	out: usize,
	kind: u32,
	headerType: u32,
	at: u32,
	size: u32,
	payload: u32,
	raw: i64,
	pid: u32,
	tid: u32,
	pointerSize: u32,
): void {
	store<i64>(out + RecordOut_time, toFiletime(raw));
	store<i64>(out + RecordOut_rawTime, raw);
	store<u64>(out + RecordOut_keyword, 0);
	store<u32>(out + RecordOut_recordOffset, at);
	store<u32>(out + RecordOut_recordSize, size);
	store<u32>(out + RecordOut_payloadOffset, payload);
	store<u32>(out + RecordOut_payloadSize, at + size - payload);
	store<u32>(out + RecordOut_pid, pid);
	store<u32>(out + RecordOut_tid, tid);
	store<u16>(out + RecordOut_id, 0);
	store<u8>(out + RecordOut_kind, <u8>kind);
	store<u8>(out + RecordOut_headerType, <u8>headerType);
	store<u8>(out + RecordOut_version, 0);
	store<u8>(out + RecordOut_level, 0);
	store<u8>(out + RecordOut_opcode, 0);
	store<u8>(out + RecordOut_channel, 0);
	store<u16>(out + RecordOut_task, 0);
	store<u16>(out + RecordOut_flags, 0);
	store<u16>(out + RecordOut_providerIndex, <u16>NO_PROVIDER);
	store<u8>(out + RecordOut_pointerSize, <u8>pointerSize);
	store<u8>(out + RecordOut_layout, PayloadLayout.raw);
	store<u32>(out + RecordOut_fieldStart, fieldsUsed);
	store<u16>(out + RecordOut_fieldCount, 0);
	store<u16>(out + RecordOut_extCount, 0);
	store<u32>(out + RecordOut_extOffset, 0);
	store<u32>(out + RecordOut_extSize, 0);
	store<u16>(out + RecordOut_schemaIndex, 0);
	store<u16>(out + RecordOut_damage, 0);
	store<u32>(out + RecordOut_reserved, 0);
}

/**
 * Decodes the next records of the open buffer into RECORDS; returns how many (0 at the end).
 * When tallying (tally.ts), counts them instead and leaves only the TraceLogging ones in RECORDS;
 * the walk stops where it would otherwise (slices, batches), so that both walks agree.
 */
export function nextRecords(): u32 {
	if (tallying) {
		beginCall();
		const n = walkRecords();
		writeOut();
		return n;
	}
	return walkRecords();
}

function walkRecords(): u32 {
	resetFields();
	let n: u32 = 0;
	while (n < walkMax && cursor < dataEnd && cursor < walkEnd) {
		if (cursor + 4 > dataEnd) return stopAt(n, Status.BadRecordSize, cursor, dataEnd - cursor, 4);
		const p = image + cursor;
		const marker = load<u32>(p);
		if (marker == FILL_MARKER) break;
		const flagsByte = marker >>> 24;
		const headerType = (marker >>> 16) & 0xff;
		const out = RECORDS + <usize>(tallying ? kept : n) * RecordOut_SIZE;
		const at = cursor;
		const room = dataEnd - cursor;
		let size: u32 = 0;
		let fixed: u32 = 0;
		if ((flagsByte & 0xd0) == 0x90) {
			// MESSAGE_TRACE_HEADER (WPP): +0 u16 Size, +3 0x90, +4 MessageNumber, +6 OptionFlags.
			size = <u32>load<u16>(p);
			if (size < 8 || size > room) return stopAt(n, Status.BadRecordSize, at, size, room);
			if (!decodeMessage(out, at, size)) return stopAt(n, Status.BadRecordSize, at, size, room);
		} else if ((flagsByte & 0xc0) == 0xc0) {
			switch (headerType) {
				case HeaderType.System32:
				case HeaderType.System64:
				case HeaderType.Compact32:
				case HeaderType.Compact64:
				case HeaderType.Perfinfo32:
				case HeaderType.Perfinfo64: {
					const perfinfo =
						headerType == HeaderType.Perfinfo32 || headerType == HeaderType.Perfinfo64;
					const compact = headerType == HeaderType.Compact32 || headerType == HeaderType.Compact64;
					fixed = (perfinfo ? 0x10 : compact ? 0x18 : 0x20) + kernelExtension(marker & 0xffff);
					if (room < 8) return stopAt(n, Status.BadRecordSize, at, room, 8);
					size = <u32>load<u16>(p + 4);
					if (size < fixed || size > room) return stopAt(n, Status.BadRecordSize, at, size, room);
					const hook = <u32>load<u16>(p + 6);
					const first = isHeaderBuffer && recordIndex == 0;
					const kind = first
						? RecordKind.header
						: perfinfo
							? RecordKind.perfinfo
							: compact
								? RecordKind.compact
								: RecordKind.system;
					const raw = perfinfo ? load<i64>(p + 8) : load<i64>(p + 0x10);
					emit(
						out,
						kind,
						headerType,
						at,
						size,
						at + fixed,
						raw,
						perfinfo ? NONE : load<u32>(p + 0xc),
						perfinfo ? NONE : load<u32>(p + 8),
						pointerSizeOf(headerType),
					);
					store<u16>(out + RecordOut_id, <u16>hook);
					store<u8>(out + RecordOut_opcode, <u8>(hook & 0xff));
					store<u8>(out + RecordOut_version, <u8>(marker & 0xff));
					break;
				}
				case HeaderType.Full32:
				case HeaderType.Full64:
				case HeaderType.Instance32:
				case HeaderType.Instance64: {
					const instance =
						headerType == HeaderType.Instance32 || headerType == HeaderType.Instance64;
					fixed = instance ? 0x48 : 0x30;
					size = marker & 0xffff;
					if (size < fixed || size > room) return stopAt(n, Status.BadRecordSize, at, size, room);
					emit(
						out,
						instance ? RecordKind.instance : RecordKind.classic,
						headerType,
						at,
						size,
						at + fixed,
						load<i64>(p + 0x10),
						load<u32>(p + 0xc),
						load<u32>(p + 8),
						pointerSizeOf(headerType),
					);
					store<u8>(out + RecordOut_opcode, load<u8>(p + 4));
					store<u8>(out + RecordOut_level, load<u8>(p + 5));
					store<u8>(out + RecordOut_version, <u8>load<u16>(p + 6));
					store<u16>(out + RecordOut_providerIndex, <u16>internGuid(p + 0x18));
					break;
				}
				case HeaderType.EventHeader32:
				case HeaderType.EventHeader64: {
					size = marker & 0xffff;
					if (size < 0x50 || size > room) return stopAt(n, Status.BadRecordSize, at, size, room);
					if (!fieldsFit(16)) return n;
					if (tallying) tallyEvent(out, at, size, headerType);
					else decodeEvent(out, at, size, headerType);
					break;
				}
				default:
					return stopAt(n, Status.BadHeaderType, at, headerType, 0);
			}
		} else {
			return stopAt(n, Status.BadRecordMarker, at, marker, 0);
		}
		lastRaw = load<i64>(out + RecordOut_rawTime);
		if (tallying) tallyRecord(out, n);
		cursor = at + ((size + 7) & ~7);
		recordIndex++;
		n++;
	}
	store<u32>(BUFFER_OUT + BufferOut_records, recordIndex);
	return n;
}

function stopAt(n: u32, status: i32, at: u32, value: u32, limit: u32): u32 {
	// In a buffer cut short by the end of the file, the last record is expected to be partial.
	if (bufferStatus != Status.Truncated) setError(status, at, value, limit);
	cursor = dataEnd;
	store<u32>(BUFFER_OUT + BufferOut_records, recordIndex);
	return n;
}

function decodeEvent(out: usize, at: u32, size: u32, headerType: u32): void {
	const p = image + at;
	const pointerSize = pointerSizeOf(headerType);
	const flags = <u32>load<u16>(p + 4);
	let payload = at + 0x50;
	const end = at + size;
	emit(
		out,
		RecordKind.event,
		headerType,
		at,
		size,
		payload,
		load<i64>(p + 0x10),
		load<u32>(p + 0xc),
		load<u32>(p + 8),
		pointerSize,
	);
	const id = <u32>load<u16>(p + 0x28);
	const version = <u32>load<u8>(p + 0x2a);
	const channel = <u32>load<u8>(p + 0x2b);
	store<u16>(out + RecordOut_id, <u16>id);
	store<u8>(out + RecordOut_version, <u8>version);
	store<u8>(out + RecordOut_channel, <u8>channel);
	store<u8>(out + RecordOut_level, load<u8>(p + 0x2c));
	store<u8>(out + RecordOut_opcode, load<u8>(p + 0x2d));
	store<u16>(out + RecordOut_task, load<u16>(p + 0x2e));
	store<u64>(out + RecordOut_keyword, load<u64>(p + 0x30));
	store<u16>(out + RecordOut_flags, <u16>flags);
	store<u16>(out + RecordOut_providerIndex, <u16>internGuid(p + 0x18));
	let hasSchemaTL = false;
	if ((flags & EVENT_HEADER_FLAG_EXTENDED_INFO) != 0) {
		// Extended items: u16 Size (multiple of 8, header included), u16 ExtType, u16 Linkage, u16 DataSize.
		let q = payload;
		let count: u32 = 0;
		let bad = false;
		while (true) {
			if (q + 8 > end || count >= MAX_EXT_ITEMS) {
				bad = true;
				break;
			}
			const itemSize = <u32>load<u16>(image + q);
			const type = <u32>load<u16>(image + q + 2);
			const linkage = <u32>load<u16>(image + q + 4);
			const dataSize = <u32>load<u16>(image + q + 6);
			if (itemSize < 8 || q + itemSize > end || dataSize > itemSize - 8) {
				bad = true;
				break;
			}
			if (type == EXT_TYPE_EVENT_SCHEMA_TL) hasSchemaTL = true;
			count++;
			q += itemSize;
			if ((linkage & 1) == 0) break;
		}
		if (bad) {
			// The record's own size is sound, so the walk goes on; the record says what is wrong.
			store<u16>(out + RecordOut_damage, <u16>Status.BadExtendedItem);
			store<u16>(out + RecordOut_extCount, <u16>count);
			store<u32>(out + RecordOut_extOffset, payload);
			store<u32>(out + RecordOut_extSize, 0);
			return;
		}
		store<u16>(out + RecordOut_extCount, <u16>count);
		store<u32>(out + RecordOut_extOffset, payload);
		store<u32>(out + RecordOut_extSize, q - payload);
		payload = q;
		store<u32>(out + RecordOut_payloadOffset, payload);
		store<u32>(out + RecordOut_payloadSize, end - payload);
	}
	const provider = knownProvider(p + 0x18);
	if (provider != 0) {
		const layout = findLayout(provider, version, id);
		if (layout < 0) {
			// Providers decoded for a few events only leave the rest raw.
			if (!partialProvider(provider))
				store<u8>(out + RecordOut_layout, PayloadLayout.unknownVersion);
			return;
		}
		store<u8>(out + RecordOut_layout, PayloadLayout.schema);
		store<u16>(out + RecordOut_schemaIndex, <u16>layout);
		store<u32>(out + RecordOut_fieldStart, fieldsUsed);
		store<u16>(out + RecordOut_fieldCount, <u16>layoutFieldCount(layout));
		// A header-only walk uses the fields' room as a decoding would (fieldsFit), writing none.
		if (tallying) skipFields(layout);
		else interpret(layout, image, payload, end, pointerSize);
	} else if (hasSchemaTL && channel == TRACELOGGING_CHANNEL) {
		store<u8>(out + RecordOut_layout, PayloadLayout.tracelogging);
	} else if (hasSchemaTL) {
		store<u8>(out + RecordOut_layout, PayloadLayout.tracelogging);
	} else if ((flags & EVENT_HEADER_FLAG_STRING_ONLY) != 0) {
		store<u8>(out + RecordOut_layout, PayloadLayout.string);
	}
}

/**
 * An event in a header-only walk: only what tallyRecord reads is written, and the fields' room
 * is taken as decodeEvent takes it. An event with extended items may be TraceLogging, which is
 * kept whole (its payload is checked): it goes through decodeEvent.
 */
function tallyEvent(out: usize, at: u32, size: u32, headerType: u32): void {
	const p = image + at;
	const flags = <u32>load<u16>(p + 4);
	if ((flags & EVENT_HEADER_FLAG_EXTENDED_INFO) != 0) {
		decodeEvent(out, at, size, headerType);
		return;
	}
	const raw = load<i64>(p + 0x10);
	const id = <u32>load<u16>(p + 0x28);
	store<i64>(out + RecordOut_time, toFiletime(raw));
	store<i64>(out + RecordOut_rawTime, raw);
	store<u8>(out + RecordOut_kind, <u8>RecordKind.event);
	store<u8>(out + RecordOut_headerType, <u8>headerType);
	store<u16>(out + RecordOut_id, <u16>id);
	store<u16>(out + RecordOut_providerIndex, <u16>internGuid(p + 0x18));
	store<u8>(out + RecordOut_layout, PayloadLayout.raw);
	const provider = knownProvider(p + 0x18);
	if (provider != 0) {
		const layout = findLayout(provider, <u32>load<u8>(p + 0x2a), id);
		if (layout >= 0) skipFields(layout);
	}
}

/** WPP / TraceMessage: optional fields follow OptionFlags in a fixed order. */
function decodeMessage(out: usize, at: u32, size: u32): bool {
	const p = image + at;
	const options = <u32>load<u16>(p + 6);
	const end = at + size;
	let q = at + 8;
	let pid = NONE;
	let tid = NONE;
	let raw = lastRaw;
	let guidAt: u32 = 0;
	if (options & 0x01) q += 4; // SEQUENCE
	if (options & 0x02) {
		guidAt = q;
		q += 16; // GUID
	} else if (options & 0x04) q += 4; // COMPONENTID
	if (q > end) return false;
	if (options & 0x18) {
		// TIMESTAMP or PERFORMANCE_TIMESTAMP
		if (q + 8 > end) return false;
		raw = load<i64>(image + q);
		q += 8;
	}
	if (options & 0x20) {
		// SYSTEMINFO: TID then PID
		if (q + 8 > end) return false;
		tid = load<u32>(image + q);
		pid = load<u32>(image + q + 4);
		q += 8;
	}
	const pointerSize = (options & 0x40) != 0 ? 4 : (options & 0x80) != 0 ? 8 : defaultPointerSize;
	emit(out, RecordKind.wpp, 0, at, size, q, raw, pid, tid, pointerSize);
	store<u16>(out + RecordOut_id, load<u16>(p + 4));
	store<u16>(out + RecordOut_flags, <u16>options);
	if (guidAt != 0) store<u16>(out + RecordOut_providerIndex, <u16>internGuid(image + guidAt));
	return true;
}
