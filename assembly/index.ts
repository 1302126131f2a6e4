// The decoder's WASM interface. Call order (JavaScript side: web/src/decoder/wasm.ts):
//   1. reserve(n) and copy buffer 0 to inputPtr(); readHeader(n) sets the clock and checks the file;
//      logfilePtr()/logfilePointerSize() locate TRACE_LOGFILE_HEADER for the facts.
//   2. For each buffer (BufferSize bytes at its file offset): copy its first 0x48 bytes and call
//      frameBuffer(n) to learn its size, CPU and sequence (BufferOut at bufferOutPtr()).
//   3. To decode one: reserve(size), copy it, openBuffer(n, isBuffer0); then nextRecords() until it
//      returns 0, reading RecordOut[] at recordsPtr() and FieldOut[] at fieldsPtr() after each call;
//      bufferStatus() then tells whether the walk stopped on damage (details in BufferOut).
//   4. A large buffer may be walked in slices: limitWalk(end) before nextRecords() stops the walk
//      before the record at `end`; walkCursor()/walkLastRaw() say where it stopped. To go on
//      later (after other buffers were opened), limitImage(end) + openBuffer() again, then
//      seekWalk(cursor, recordIndex, lastRaw) and limitWalk(next end).
//   5. A header-only walk (counts, no payloads): resetTally(), walkTally(1); before walking each
//      stream's buffers, tallyStream(rank, latest time so far); nextRecords() then counts into the
//      TallySlots (tally*SlotsPtr()) and per AFD event id (tallyAfdPtr()), and leaves only the
//      TraceLogging records in RecordOut (TallyOut at tallyOutPtr() says how many). walkTally(0)
//      after.
// Nothing here throws on bad input: every outcome is a Status.
import {
	BUFFER_OUT,
	FIELDS,
	INPUT,
	PROVIDERS,
	RECORDS,
	TALLY_AFD,
	TALLY_HEADER_SLOTS,
	TALLY_KIND_SLOTS,
	TALLY_OUT,
	TALLY_PROVIDER_SLOTS,
	reserveInput,
} from './memory-map';
import * as buffer from './buffer';
import * as header from './header';
import { providerCount as countProviders } from './providers';
import * as tally from './tally';

export function inputPtr(): usize {
	return INPUT;
}
export function bufferOutPtr(): usize {
	return BUFFER_OUT;
}
export function recordsPtr(): usize {
	return RECORDS;
}
export function fieldsPtr(): usize {
	return FIELDS;
}
export function providersPtr(): usize {
	return PROVIDERS;
}
export function providerCount(): u32 {
	return countProviders();
}

/** Makes room for n input bytes at inputPtr(); 0 when n is too large. */
export function reserve(n: u32): i32 {
	return reserveInput(n) ? 1 : 0;
}

export function readHeader(n: u32): i32 {
	return header.readHeader(n);
}
export function logfilePtr(): usize {
	return header.logfileAt;
}
export function logfileEndPtr(): usize {
	return header.logfileEnd;
}
export function logfilePointerSize(): u32 {
	return header.logfilePointerSize;
}
/** The offending value when readHeader fails (BufferType, marker or size). */
export function headerErrorValue(): u32 {
	return header.headerValue;
}

export function frameBuffer(n: u32): i32 {
	return buffer.frameBuffer(n);
}
export function openBuffer(n: u32, isBuffer0: i32): i32 {
	return buffer.openBuffer(n, isBuffer0 != 0);
}
export function nextRecords(): u32 {
	return buffer.nextRecords();
}
/** Slices of a large buffer (web/src/decoder/decoded-buffer.ts): see buffer.ts. */
export function limitImage(end: u32): void {
	buffer.limitImage(end);
}
export function limitWalk(end: u32, max: u32): void {
	buffer.limitWalk(end, max);
}
export function seekWalk(at: u32, index: u32, raw: i64): void {
	buffer.seekWalk(at, index, raw);
}
export function walkCursor(): u32 {
	return buffer.walkCursor();
}
export function walkLastRaw(): i64 {
	return buffer.walkLastRaw();
}
export function bufferStatus(): i32 {
	return buffer.currentStatus();
}

/** Header-only walks on (1) or off (0). */
export function walkTally(on: i32): void {
	tally.setTallying(on != 0);
}
/** Clears the counts; 0 when their tables cannot be had (the memory limit). */
export function resetTally(): i32 {
	return tally.resetTally() ? 1 : 0;
}
export function tallyStream(rank: i32, latest: i64): void {
	tally.tallyStream(rank, latest);
}
export function tallyOutPtr(): usize {
	return TALLY_OUT;
}
export function tallyKindSlotsPtr(): usize {
	return TALLY_KIND_SLOTS;
}
export function tallyHeaderSlotsPtr(): usize {
	return TALLY_HEADER_SLOTS;
}
export function tallyProviderSlotsPtr(): usize {
	return TALLY_PROVIDER_SLOTS;
}
export function tallyAfdPtr(): usize {
	return TALLY_AFD;
}
