// Header-only walks: the record walk counts records by kind, header type, provider and
// Winsock-AFD event id in WASM memory instead of handing every record to TypeScript, and skips
// payload interpretation. For the order in which values are first seen in the time-ordered merge
// of the per-CPU streams (web/src/decoder/tally-merge.ts), each value keeps the merge's key of
// its first record: the stream's latest time up to that record, the stream's rank, and a
// sequence number (the merge hands out a record after every earlier one of its stream, so a
// record that goes back in time comes out at its stream's latest time, not its own).
import {
	PayloadLayout,
	RecordKind,
	RecordOut_headerType,
	RecordOut_id,
	RecordOut_kind,
	RecordOut_layout,
	RecordOut_providerIndex,
	RecordOut_time,
	TallyOut_afdIndex,
	TallyOut_firstTime,
	TallyOut_kept,
	TallyOut_lastTime,
	TallyOut_order,
	TallyOut_runningMax,
	TallyOut_sequence,
	TallySlot_SIZE,
	TallySlot_count,
	TallySlot_firstOrder,
	TallySlot_firstSequence,
	TallySlot_firstTime,
	TallySlot_stamp,
} from './generated/layouts';
import {
	MAX_PROVIDERS,
	TALLY_AFD,
	TALLY_END,
	TALLY_HEADER_SLOTS,
	TALLY_KIND_SLOTS,
	TALLY_KINDS,
	TALLY_OUT,
	TALLY_PROVIDER_SLOTS,
	ensureMemory,
} from './memory-map';
import { isAfd } from './providers';

const NONE: u32 = 0xffffffff;

/** Whether nextRecords tallies (header-only) rather than writing every record out. */
export let tallying = false;
/** TraceLogging records of the current call kept in RecordOut (their slots are 0..kept). */
export let kept: u32 = 0;

let epoch: u32 = 0;
let order: i32 = 0;
let runningMax: i64 = i64.MIN_VALUE;
let sequence: u64 = 0;
let firstTime: i64 = 0;
let lastTime: i64 = 0;
let afdIndex: u32 = NONE;

export function setTallying(on: bool): void {
	tallying = on;
}

/** Clears every count: a new trace. False when the memory for the tables cannot be had. */
export function resetTally(): bool {
	if (!ensureMemory(TALLY_END)) return false;
	memory.fill(TALLY_OUT, 0, TALLY_END - TALLY_OUT);
	epoch = 0;
	kept = 0;
	order = 0;
	runningMax = i64.MIN_VALUE;
	sequence = 0;
	firstTime = 0;
	lastTime = 0;
	afdIndex = NONE;
	writeOut();
	return true;
}

/** The records walked next belong to the stream of rank `rank`, whose latest time so far is `max`. */
export function tallyStream(rank: i32, max: i64): void {
	order = rank;
	runningMax = max;
	writeOut();
}

/** At the start of each nextRecords call. */
export function beginCall(): void {
	kept = 0;
	// A value's first record in a call goes through the slower path of see(); stamps are per call.
	if (++epoch == 0) {
		for (let p = TALLY_KIND_SLOTS; p < TALLY_AFD; p += TallySlot_SIZE)
			store<u32>(p + TallySlot_stamp, 0);
		epoch = 1;
	}
}

/** At the end of each nextRecords call: what TypeScript reads. */
export function writeOut(): void {
	store<i64>(TALLY_OUT + TallyOut_firstTime, firstTime);
	store<i64>(TALLY_OUT + TallyOut_lastTime, lastTime);
	store<i64>(TALLY_OUT + TallyOut_runningMax, runningMax);
	store<u64>(TALLY_OUT + TallyOut_sequence, sequence);
	store<u32>(TALLY_OUT + TallyOut_kept, kept);
	store<i32>(TALLY_OUT + TallyOut_order, order);
	store<u32>(TALLY_OUT + TallyOut_afdIndex, afdIndex);
}

/** Counts a value; returns whether it is its first record in this call. */
function see(slot: usize): bool {
	const count = load<u32>(slot + TallySlot_count) + 1;
	store<u32>(slot + TallySlot_count, count);
	if (load<u32>(slot + TallySlot_stamp) == epoch) return false;
	store<u32>(slot + TallySlot_stamp, epoch);
	const t = load<i64>(slot + TallySlot_firstTime);
	const o = load<i32>(slot + TallySlot_firstOrder);
	// Later records of the same stream never come first: their key is not smaller.
	if (count == 1 || runningMax < t || (runningMax == t && order < o)) {
		store<i64>(slot + TallySlot_firstTime, runningMax);
		store<i32>(slot + TallySlot_firstOrder, order);
		store<u64>(slot + TallySlot_firstSequence, sequence);
	}
	return true;
}

/**
 * Counts the record just written at `out`, the n-th of this call; keeps it (the caller writes the
 * next record after it) when it is a TraceLogging event, whose payload TypeScript checks.
 */
export function tallyRecord(out: usize, n: u32): void {
	const t = load<i64>(out + RecordOut_time);
	if (t > runningMax) runningMax = t;
	sequence++;
	if (n == 0) firstTime = t;
	lastTime = t;
	const kind = <u32>load<u8>(out + RecordOut_kind);
	if (kind < TALLY_KINDS) see(TALLY_KIND_SLOTS + <usize>kind * TallySlot_SIZE);
	// A WPP record has no header type of its own (its kind names it).
	if (kind != RecordKind.wpp)
		see(TALLY_HEADER_SLOTS + <usize>load<u8>(out + RecordOut_headerType) * TallySlot_SIZE);
	const provider = <u32>load<u16>(out + RecordOut_providerIndex);
	if (provider < MAX_PROVIDERS) {
		if (see(TALLY_PROVIDER_SLOTS + <usize>provider * TallySlot_SIZE) && afdIndex == NONE) {
			if (isAfd(provider)) afdIndex = provider;
		}
		if (provider == afdIndex) {
			const at = TALLY_AFD + ((<usize>load<u16>(out + RecordOut_id)) << 2);
			store<u32>(at, load<u32>(at) + 1);
		}
	}
	if (load<u8>(out + RecordOut_layout) == PayloadLayout.tracelogging) kept++;
}
