// Linear-memory plan of the decoder. Fixed tables first, then the input buffer and the
// decompression area, which grow on demand. JavaScript reads every table through the
// pointers exported by index.ts; views must be re-made after a call, since memory may grow.
import {
	RecordOut_SIZE,
	FieldOut_SIZE,
	BufferOut_SIZE,
	TallyOut_SIZE,
	TallySlot_SIZE,
} from './generated/layouts';

/** Largest on-disk or decompressed buffer accepted (ETW caps buffers at 16 MiB; room for relogs). */
export const MAX_BUFFER_SIZE: u32 = 64 << 20;
/** Records written per call before the caller must ask for more. */
export const MAX_RECORDS: u32 = 16384;
/** Payload fields written per call. */
export const MAX_FIELDS: u32 = MAX_RECORDS * 12;
/** Distinct provider GUIDs remembered in one trace. */
export const MAX_PROVIDERS: u32 = 4096;
/** Extended data items accepted in one event before it counts as damaged. */
export const MAX_EXT_ITEMS: u32 = 64;
/** TallySlots for record kinds (RecordKind) and for header types (a u8). */
export const TALLY_KINDS: u32 = 16;
export const TALLY_HEADER_TYPES: u32 = 256;

const PAGE: u32 = 65536;

function align(n: usize, a: usize): usize {
	return (n + a - 1) & ~(a - 1);
}

export const BUFFER_OUT: usize = align(__heap_base, 16);
export const PROVIDERS: usize = BUFFER_OUT + align(BufferOut_SIZE, 16);
export const RECORDS: usize = PROVIDERS + <usize>MAX_PROVIDERS * 16;
export const FIELDS: usize = RECORDS + <usize>MAX_RECORDS * RecordOut_SIZE;
// Header-only walks (tally.ts): TallyOut, TallySlots by kind, by header type and by provider
// index, and a u32 count per Winsock-AFD event id.
export const TALLY_OUT: usize = align(FIELDS + <usize>MAX_FIELDS * FieldOut_SIZE, 16);
export const TALLY_KIND_SLOTS: usize = TALLY_OUT + align(TallyOut_SIZE, 16);
export const TALLY_HEADER_SLOTS: usize = TALLY_KIND_SLOTS + <usize>TALLY_KINDS * TallySlot_SIZE;
export const TALLY_PROVIDER_SLOTS: usize =
	TALLY_HEADER_SLOTS + <usize>TALLY_HEADER_TYPES * TallySlot_SIZE;
export const TALLY_AFD: usize = TALLY_PROVIDER_SLOTS + <usize>MAX_PROVIDERS * TallySlot_SIZE;
export const TALLY_END: usize = TALLY_AFD + 65536 * 4;
/** Layouts found by event key (payload.ts findLayout): LAYOUT_MEMO_SLOTS pairs of u32 key, i32 layout. */
export const LAYOUT_MEMO_SLOTS: u32 = 1024;
export const LAYOUT_MEMO: usize = TALLY_END;
export const INPUT: usize = align(LAYOUT_MEMO + <usize>LAYOUT_MEMO_SLOTS * 8, PAGE);

let inputCapacity: usize = 0;

/** Grows memory so that [0, end) is addressable; false when the WASM memory limit is reached. */
export function ensureMemory(end: usize): bool {
	const have = <usize>memory.size() * PAGE;
	if (end <= have) return true;
	const pages = <i32>((end - have + PAGE - 1) / PAGE);
	return memory.grow(pages) >= 0;
}

/** The decompression area sits after the input; its size is checked per buffer. */
export function scratch(): usize {
	return INPUT + inputCapacity;
}

/** Makes room for `len` input bytes; returns false when it cannot. */
export function reserveInput(len: u32): bool {
	if (len > MAX_BUFFER_SIZE) return false;
	const want = align(<usize>len, PAGE);
	if (want > inputCapacity) {
		if (!ensureMemory(INPUT + want)) return false;
		inputCapacity = want;
	}
	return true;
}
