// Filters as scans: a chunk's candidate rows are a selection vector (ascending row numbers), and
// each term keeps those it matches, reading one column at a time in a tight loop. Several times
// faster than a predicate per row, whose closures call one another for every row; the columns
// come in whatever integer width they were stored in (ReadColumns), which these loops all read.

/** Keeps the rows of sel[0, n) that match, in order, at its start; returns how many. */
export type RowScan = (sel: Uint16Array, n: number) => number;

/** An integer column as read: its own type or a narrower one. */
export type IntColumn = Uint8Array | Uint16Array | Uint32Array;

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
	return need === 0
		? (sel, n) => inRange(a, lo, span, sel, n)
		: (sel, n) => inRangeFlagged(a, lo, span, flags, need, sel, n);
}

/** Rows whose value is not `v` (and, if `need`, with one of those flag bits set). */
export function notEqualScan(a: IntColumn, v: number, flags?: Uint8Array, need = 0): RowScan {
	// A value no column holds: every row differs.
	if (!Number.isInteger(v) || v < 0 || v > 0xffffffff)
		return need === 0 || !flags ? ALL_ROWS : flagScan(flags, need);
	return need === 0 || !flags
		? (sel, n) => notEqual(a, v, sel, n)
		: (sel, n) => notEqualFlagged(a, v, flags, need, sel, n);
}

/** Rows with one of the flag bits set. */
export function flagScan(flags: Uint8Array, flag: number): RowScan {
	return (sel, n) => flagged(flags, flag, sel, n);
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
	if (!b)
		return negate ? (sel, n) => lookupNot(a, hit, sel, n) : (sel, n) => lookupIn(a, hit, sel, n);
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
	return (sel, n) => {
		for (const scan of scans) {
			if (n === 0) break;
			n = scan(sel, n);
		}
		return n;
	};
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
