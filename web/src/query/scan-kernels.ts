// Filters as scans: a chunk's candidate rows are a selection vector (ascending row numbers), and
// each term keeps those it matches, reading one column at a time in a tight loop. Several times
// faster than a predicate per row, whose closures call one another for every row; the columns
// come in whatever integer width they were stored in (ReadColumns), which these loops all read.
import {
	currentWasmScan,
	MAX_TERMS,
	type IntColumn,
	type ScanTerm,
	type WasmScan,
} from './wasm-scan.ts';

/** Keeps the rows of sel[0, n) that match, in order, at its start; returns how many. */
export interface RowScan {
	(sel: Uint16Array, n: number): number;
	/**
	 * The same test over every row in [from, to), its matches written to `sel`: a scan's first
	 * term, which need not read a selection of every row. Absent: `scanRange` lists the rows first.
	 */
	dense?: (sel: Uint16Array, from: number, to: number) => number;
	/** What `dense` costs per row, relatively (an `and` leads with its cheapest). */
	denseCost?: number;
	/**
	 * The same test as the WASM scan knows it, where it does: one term, or those of an `and` whose
	 * tests it all knows. Over a range of rows, such a scan runs there (scanRange).
	 */
	terms?: readonly ScanTerm[];
}

/** The WASM scan, if the browser runs it and knows every test of `scan`. */
function inWasm(scan: RowScan): WasmScan | null {
	const wasm = currentWasmScan();
	return wasm && scan.terms && scan.terms.length <= MAX_TERMS ? wasm : null;
}

/** The rows in [from, to) that `scan` keeps, written to the start of `sel`; how many. */
export function scanRange(scan: RowScan, sel: Uint16Array, from: number, to: number): number {
	const wasm = inWasm(scan);
	if (wasm) return wasm.all(scan.terms!, from, to, sel);
	return scan.dense ? scan.dense(sel, from, to) : scan(sel, rowsFrom(sel, from, to));
}

/** How many rows in [from, to) `scan` keeps (`sel`: room to list them, where it must). */
export function countRange(scan: RowScan, sel: Uint16Array, from: number, to: number): number {
	const wasm = inWasm(scan);
	return wasm ? wasm.all(scan.terms!, from, to, null) : scanRange(scan, sel, from, to);
}

/** Relative costs per row of tests over a range: a byte column read by the word, or a row at a time. */
const WORDWISE = 1;
const ROWWISE = 3;

/** `scan`, with its test over a range of rows (and as the WASM scan knows it). */
function withDense(
	scan: (sel: Uint16Array, n: number) => number,
	dense: (sel: Uint16Array, from: number, to: number) => number,
	denseCost = ROWWISE,
	term?: ScanTerm,
): RowScan {
	return Object.assign(scan, { dense, denseCost }, term ? { terms: [term] } : {});
}

export type { IntColumn };

/** Rows a chunk holds at most, so that a row number fits a selection vector's Uint16 entries. */
const MAX_ROWS = 1 << 16;

export const ALL_ROWS: RowScan = (_sel, n) => n;

/** 0, 1, 2, … : the rows of a whole chunk, copied rather than counted out (a tenth the time). */
let identity: Uint16Array | null = null;

/** Fills `sel` with the rows [from, to) and returns how many. */
export function rowsFrom(sel: Uint16Array, from: number, to: number): number {
	if (!identity) {
		identity = new Uint16Array(MAX_ROWS);
		for (let i = 0; i < MAX_ROWS; i++) identity[i] = i;
	}
	sel.set(identity.subarray(from, to));
	return to - from;
}

/** A predicate applied row by row: what a term with no scan of its own is. */
export function predicateScan(test: (i: number) => boolean): RowScan {
	return (sel, n) => {
		let m = 0;
		for (let k = 0; k < n; k++) {
			const i = sel[k]!;
			if (test(i)) sel[m++] = i;
		}
		return m;
	};
}

/** Rows whose value is in [lo, hi] (and, if `need`, with one of those flag bits set). */
export function inRangeScan(
	a: IntColumn,
	lo: number,
	hi: number,
	flags: Uint8Array,
	need: number,
): RowScan {
	if (lo > hi) return () => 0;
	// One unsigned comparison: below lo wraps around past hi - lo (values are below 2^32).
	const span = hi - lo;
	const term: ScanTerm = { kind: 'range', col: a, lo, span, flags, need };
	return need === 0
		? withDense(
				(sel, n) => inRange(a, lo, span, sel, n),
				(sel, from, to) => rowsInRange(a, lo, span, sel, from, to),
				ROWWISE,
				term,
			)
		: withDense(
				(sel, n) => inRangeFlagged(a, lo, span, flags, need, sel, n),
				(sel, from, to) => rowsInRangeFlagged(a, lo, span, flags, need, sel, from, to),
				ROWWISE,
				term,
			);
}

/** Rows whose value is not `v` (and, if `need`, with one of those flag bits set). */
export function notEqualScan(a: IntColumn, v: number, flags?: Uint8Array, need = 0): RowScan {
	// A value no column holds: every row differs.
	if (!Number.isInteger(v) || v < 0 || v > 0xffffffff)
		return need === 0 || !flags ? ALL_ROWS : flagScan(flags, need);
	const terms: ScanTerm[] = [
		{
			kind: 'range',
			col: a,
			lo: v,
			span: 0,
			flags: flags ?? null,
			need: flags ? need : 0,
			negate: true,
		},
	];
	return need === 0 || !flags
		? Object.assign((sel: Uint16Array, n: number) => notEqual(a, v, sel, n), { terms })
		: Object.assign((sel: Uint16Array, n: number) => notEqualFlagged(a, v, flags, need, sel, n), {
				terms,
			});
}

/** Rows with one of the flag bits set. */
export function flagScan(flags: Uint8Array, flag: number): RowScan {
	return Object.assign((sel: Uint16Array, n: number) => flagged(flags, flag, sel, n), {
		terms: [{ kind: 'flag', col: flags, need: flag } satisfies ScanTerm],
	});
}

// The loops take their arrays as arguments, not from a closure: read from a closure's context at
// every row, they ran up to twice as slow.
//
// They have no branch per row either: each writes the row whatever the test and adds the test's
// 0 or 1 to the count, computed with arithmetic. Events mix matches and misses with no pattern a
// branch predictor learns, and a branch per row (which Chromium compiles `if`, `? :` and `+(a < b)`
// to alike) ran these loops three to four times as long on such rows.
//
// The tests, each 1 or 0:
// - d ≤ span (unsigned 32-bit values): span - d lies in (-2^32, 2^32), so (span - d) · 2^-32 + 1
//   lies in (0, 2), at 1 or above exactly when span - d ≥ 0; truncated, 1 or 0. Exact in doubles.
// - x ≠ 0 (an int32): (x | -x) >>> 31, the sign bit, set for every x but 0 (-2^31 included).
// - a flag byte's bits & need ≠ 0: ((bits & need) + 255) >> 8, as (bits & need) ≤ 255.
// - a mark in a table of 0s and 1s: the mark itself.
const TWO_TO_MINUS_32 = 1 / 4294967296;
function inRange(a: IntColumn, lo: number, span: number, sel: Uint16Array, n: number): number {
	let m = 0;
	for (let k = 0; k < n; k++) {
		const i = sel[k]!;
		sel[m] = i;
		m += ((span - ((a[i]! - lo) >>> 0)) * TWO_TO_MINUS_32 + 1) | 0;
	}
	return m;
}
function inRangeFlagged(
	a: IntColumn,
	lo: number,
	span: number,
	flags: Uint8Array,
	need: number,
	sel: Uint16Array,
	n: number,
): number {
	let m = 0;
	for (let k = 0; k < n; k++) {
		const i = sel[k]!;
		sel[m] = i;
		m +=
			(((span - ((a[i]! - lo) >>> 0)) * TWO_TO_MINUS_32 + 1) | 0) &
			(((flags[i]! & need) + 255) >> 8);
	}
	return m;
}
function rowsInRange(
	a: IntColumn,
	lo: number,
	span: number,
	sel: Uint16Array,
	from: number,
	to: number,
): number {
	let m = 0;
	for (let i = from; i < to; i++) {
		sel[m] = i;
		m += ((span - ((a[i]! - lo) >>> 0)) * TWO_TO_MINUS_32 + 1) | 0;
	}
	return m;
}
function rowsInRangeFlagged(
	a: IntColumn,
	lo: number,
	span: number,
	flags: Uint8Array,
	need: number,
	sel: Uint16Array,
	from: number,
	to: number,
): number {
	let m = 0;
	for (let i = from; i < to; i++) {
		sel[m] = i;
		m +=
			(((span - ((a[i]! - lo) >>> 0)) * TWO_TO_MINUS_32 + 1) | 0) &
			(((flags[i]! & need) + 255) >> 8);
	}
	return m;
}
function notEqual(a: IntColumn, v: number, sel: Uint16Array, n: number): number {
	let m = 0;
	for (let k = 0; k < n; k++) {
		const i = sel[k]!;
		const x = a[i]! ^ v;
		sel[m] = i;
		m += (x | -x) >>> 31;
	}
	return m;
}
function notEqualFlagged(
	a: IntColumn,
	v: number,
	flags: Uint8Array,
	need: number,
	sel: Uint16Array,
	n: number,
): number {
	let m = 0;
	for (let k = 0; k < n; k++) {
		const i = sel[k]!;
		const x = a[i]! ^ v;
		sel[m] = i;
		m += ((x | -x) >>> 31) & (((flags[i]! & need) + 255) >> 8);
	}
	return m;
}
function flagged(flags: Uint8Array, flag: number, sel: Uint16Array, n: number): number {
	let m = 0;
	for (let k = 0; k < n; k++) {
		const i = sel[k]!;
		sel[m] = i;
		m += ((flags[i]! & flag) + 255) >> 8;
	}
	return m;
}

/**
 * Rows whose value (an index into a table) is marked in `hit` (1; 0 where not marked); with `b`,
 * either column's. Negated: neither is marked.
 */
export function lookupScan(
	a: IntColumn,
	b: IntColumn | null,
	hit: Uint8Array,
	negate: boolean,
): RowScan {
	const terms: ScanTerm[] | undefined =
		a instanceof Uint8Array && !b ? [{ kind: 'lookup', col: a, hit, negate }] : undefined;
	if (!b)
		return negate
			? Object.assign((sel: Uint16Array, n: number) => lookupNot(a, hit, sel, n), { terms })
			: withDense((sel, n) => lookupIn(a, hit, sel, n), ...lookupInRange(a, hit), terms?.[0]);
	return negate
		? (sel, n) => lookupNeither(a, b, hit, sel, n)
		: (sel, n) => lookupEither(a, b, hit, sel, n);
}

function lookupIn(a: IntColumn, hit: Uint8Array, sel: Uint16Array, n: number): number {
	let m = 0;
	for (let k = 0; k < n; k++) {
		const i = sel[k]!;
		sel[m] = i;
		m += hit[a[i]!]!;
	}
	return m;
}
/** Whether a Uint32 read of four bytes holds the first in its low byte (every platform we run on). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * lookupIn over a range of rows. A byte column (event types) is read four rows to a 32-bit word,
 * where its bytes are aligned for it: a third of the time of one read per row.
 */
function lookupInRange(
	a: IntColumn,
	hit: Uint8Array,
): [(sel: Uint16Array, from: number, to: number) => number, number] {
	if (a instanceof Uint8Array && LITTLE_ENDIAN && a.byteOffset % 4 === 0) {
		const words = new Uint32Array(a.buffer, a.byteOffset, a.length >> 2);
		return [(sel, from, to) => lookupBytesIn(a, words, hit, sel, from, to), WORDWISE];
	}
	return [(sel, from, to) => lookupRowsAt(a, hit, sel, 0, from, to), ROWWISE];
}
/** lookupIn over the rows [from, to), writing from `sel[m]` on: the new count. */
function lookupRowsAt(
	a: IntColumn,
	hit: Uint8Array,
	sel: Uint16Array,
	m: number,
	from: number,
	to: number,
): number {
	for (let i = from; i < to; i++) {
		sel[m] = i;
		m += hit[a[i]!]!;
	}
	return m;
}
function lookupBytesIn(
	a: Uint8Array,
	words: Uint32Array,
	hit: Uint8Array,
	sel: Uint16Array,
	from: number,
	to: number,
): number {
	// Up to a word boundary, then word by word, then the rows past the last whole word.
	const start = Math.min(to, (from + 3) & ~3);
	let m = lookupRowsAt(a, hit, sel, 0, from, start);
	let i = start;
	for (const end = to & ~3; i < end; i += 4) {
		const w = words[i >> 2]!;
		sel[m] = i;
		m += hit[w & 0xff]!;
		sel[m] = i + 1;
		m += hit[(w >>> 8) & 0xff]!;
		sel[m] = i + 2;
		m += hit[(w >>> 16) & 0xff]!;
		sel[m] = i + 3;
		m += hit[w >>> 24]!;
	}
	return lookupRowsAt(a, hit, sel, m, i, to);
}
function lookupNot(a: IntColumn, hit: Uint8Array, sel: Uint16Array, n: number): number {
	let m = 0;
	for (let k = 0; k < n; k++) {
		const i = sel[k]!;
		sel[m] = i;
		m += hit[a[i]!]! ^ 1;
	}
	return m;
}
function lookupEither(
	a: IntColumn,
	b: IntColumn,
	hit: Uint8Array,
	sel: Uint16Array,
	n: number,
): number {
	let m = 0;
	for (let k = 0; k < n; k++) {
		const i = sel[k]!;
		sel[m] = i;
		m += hit[a[i]!]! | hit[b[i]!]!;
	}
	return m;
}
function lookupNeither(
	a: IntColumn,
	b: IntColumn,
	hit: Uint8Array,
	sel: Uint16Array,
	n: number,
): number {
	let m = 0;
	for (let k = 0; k < n; k++) {
		const i = sel[k]!;
		sel[m] = i;
		m += (hit[a[i]!]! | hit[b[i]!]!) ^ 1;
	}
	return m;
}

/** Rows every scan keeps: each narrows what the one before kept. */
export function allScan(scans: readonly RowScan[]): RowScan {
	const narrow = (rest: readonly RowScan[], sel: Uint16Array, n: number) => {
		for (const scan of rest) {
			if (n === 0) break;
			n = scan(sel, n);
		}
		return n;
	};
	// Every test one the WASM scan knows: over a range it scans them all at once (scanRange).
	const terms = scans.every((s) => s.terms) ? { terms: scans.flatMap((s) => s.terms!) } : {};
	const all: RowScan = Object.assign((sel: Uint16Array, n: number) => narrow(scans, sel, n), terms);
	// Over a range, the cheapest test of a range of rows goes first (the order of an `and` changes
	// which rows each term reads, not which are kept).
	let lead = -1;
	scans.forEach((scan, k) => {
		if (scan.dense && (lead < 0 || scan.denseCost! < scans[lead]!.denseCost!)) lead = k;
	});
	if (lead < 0) return all;
	const dense = scans[lead]!.dense!;
	const rest = scans.filter((_, k) => k !== lead);
	return Object.assign(all, {
		dense: (sel: Uint16Array, from: number, to: number) => narrow(rest, sel, dense(sel, from, to)),
		denseCost: ROWWISE,
	});
}

/**
 * Rows any of the scans keeps: each is tried on the rows none before it kept. The working arrays
 * are made once per filter and reused for every chunk (a scan runs to its end without yielding).
 */
export function anyScan(): (scans: readonly RowScan[]) => RowScan {
	let rest: Uint16Array | null = null;
	let work: Uint16Array | null = null;
	let kept: Uint8Array | null = null;
	return (scans) => (sel, n) => {
		rest ??= new Uint16Array(MAX_ROWS);
		work ??= new Uint16Array(MAX_ROWS);
		kept ??= new Uint8Array(MAX_ROWS);
		rest.set(sel.subarray(0, n));
		let left = n;
		try {
			for (const scan of scans) {
				if (left === 0) break;
				work.set(rest.subarray(0, left));
				const got = scan(work, left);
				for (let k = 0; k < got; k++) kept[work[k]!] = 1;
				let r = 0;
				for (let k = 0; k < left; k++) {
					const i = rest[k]!;
					rest[r] = i;
					r += kept[i]! ^ 1;
				}
				left = r;
			}
		} catch (e) {
			// The marks must be clear for the next chunk.
			kept.fill(0);
			throw e;
		}
		let m = 0;
		for (let k = 0; k < n; k++) {
			const i = sel[k]!;
			sel[m] = i;
			m += kept[i]!;
			kept[i] = 0;
		}
		return m;
	};
}

/** Rows the scan does not keep. */
export function exceptScan(): (inner: RowScan) => RowScan {
	let work: Uint16Array | null = null;
	let kept: Uint8Array | null = null;
	return (inner) => (sel, n) => {
		work ??= new Uint16Array(MAX_ROWS);
		kept ??= new Uint8Array(MAX_ROWS);
		work.set(sel.subarray(0, n));
		const got = inner(work, n);
		for (let k = 0; k < got; k++) kept[work[k]!] = 1;
		let m = 0;
		for (let k = 0; k < n; k++) {
			const i = sel[k]!;
			sel[m] = i;
			m += kept[i]! ^ 1;
			kept[i] = 0;
		}
		return m;
	};
}
