// A chunk's summary, made when the chunk is built and stored beside it: the distinct
// combinations of its low-cardinality columns (event type, process, PID, status, flags, level,
// kind, opcode, timeline category) with how many rows hold each. A filter that reads only these
// columns gives the same answer for every row of a combination, so it is tested once per
// combination and counted without reading the chunk's columns (query/summary-count.ts).

/** The columns a summary's combinations are made of. */
export const SUMMARY_COLUMNS = [
	'etype',
	'process',
	'pid',
	'status',
	'flags',
	'level',
	'kind',
	'opcode',
	'cat',
] as const;

export type SummaryColumn = (typeof SUMMARY_COLUMNS)[number];

/** Those columns (as layout.ts types them, which imports this file). */
export interface SummaryColumns {
	etype: Uint32Array;
	process: Uint32Array;
	pid: Uint32Array;
	status: Uint32Array;
	flags: Uint8Array;
	level: Uint8Array;
	kind: Uint8Array;
	opcode: Uint8Array;
	cat: Uint8Array;
}

/**
 * Most combinations a summary holds: past them a chunk gets none (it is scanned), so that a trace
 * of many processes or statuses does not store a summary as large as its columns.
 */
export const MAX_COMBINATIONS = 4096;

export interface ChunkSummary {
	/** Rows summarised: the chunk's (a summary of another size is not its own). */
	readonly rows: number;
	/** One entry per combination, the same length each. */
	readonly columns: SummaryColumns;
	/** Rows holding each combination. */
	readonly counts: Uint32Array;
}

/** Slots of the hash table: a power of two, at least twice MAX_COMBINATIONS. */
const SLOTS = 8192;

/**
 * summarizeChunk's tables, made once: what it returns is copied out of them (a chunk's worth of
 * new tables each time was 150 KB of garbage per 65,536 events).
 */
const scratch = {
	slots: new Int32Array(SLOTS),
	e: new Uint32Array(MAX_COMBINATIONS),
	pr: new Uint32Array(MAX_COMBINATIONS),
	pd: new Uint32Array(MAX_COMBINATIONS),
	st: new Uint32Array(MAX_COMBINATIONS),
	// The five byte columns packed in one number (40 bits, exact in a double).
	small: new Float64Array(MAX_COMBINATIONS),
	counts: new Uint32Array(MAX_COMBINATIONS),
};

/**
 * The summary of a chunk's first `rows` rows, or null when they hold more than MAX_COMBINATIONS
 * combinations. One pass with an open-addressing table over the rows' values (a Map keyed by a
 * string per row cost several times more).
 */
export function summarizeChunk(c: SummaryColumns, rows: number): ChunkSummary | null {
	const { etype, process, pid, status, flags, level, kind, opcode, cat } = c;
	const { slots, e, pr, pd, st, small, counts } = scratch;
	slots.fill(-1);
	let n = 0;
	for (let i = 0; i < rows; i++) {
		const a = etype[i]!;
		const b = process[i]!;
		const d = pid[i]!;
		const s = status[i]!;
		const lo = flags[i]! | (level[i]! << 8) | (kind[i]! << 16) | (opcode[i]! << 24);
		const packed = (lo >>> 0) + cat[i]! * 0x100000000;
		let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(d, 0xc2b2ae3d);
		h = Math.imul(h ^ s ^ lo ^ cat[i]!, 0x27d4eb2f);
		let slot = (h ^ (h >>> 15)) & (SLOTS - 1);
		for (;;) {
			const k = slots[slot]!;
			if (k < 0) {
				if (n === MAX_COMBINATIONS) return null;
				slots[slot] = n;
				e[n] = a;
				pr[n] = b;
				pd[n] = d;
				st[n] = s;
				small[n] = packed;
				counts[n++] = 1;
				break;
			}
			if (e[k] === a && pr[k] === b && pd[k] === d && st[k] === s && small[k] === packed) {
				counts[k]!++;
				break;
			}
			slot = (slot + 1) & (SLOTS - 1);
		}
	}
	const bytes = (shift: number) => {
		const out = new Uint8Array(n);
		for (let k = 0; k < n; k++) out[k] = Math.floor(small[k]! / 2 ** shift) & 0xff;
		return out;
	};
	return {
		rows,
		columns: {
			etype: e.slice(0, n),
			process: pr.slice(0, n),
			pid: pd.slice(0, n),
			status: st.slice(0, n),
			flags: bytes(0),
			level: bytes(8),
			kind: bytes(16),
			opcode: bytes(24),
			cat: bytes(32),
		},
		counts: counts.slice(0, n),
	};
}
