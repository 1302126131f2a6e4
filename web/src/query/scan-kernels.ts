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
function inRange(a: IntColumn, lo: number, span: number, sel: Uint16Array, n: number): number {
	let m = 0;
	for (let k = 0; k < n; k++) {
		const i = sel[k]!;
		if ((a[i]! - lo) >>> 0 <= span) sel[m++] = i;
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
		if ((a[i]! - lo) >>> 0 <= span && (flags[i]! & need) !== 0) sel[m++] = i;
	}
	return m;
}
function notEqual(a: IntColumn, v: number, sel: Uint16Array, n: number): number {
	let m = 0;
	for (let k = 0; k < n; k++) {
		const i = sel[k]!;
		if (a[i] !== v) sel[m++] = i;
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
		if (a[i] !== v && (flags[i]! & need) !== 0) sel[m++] = i;
	}
	return m;
}
function flagged(flags: Uint8Array, flag: number, sel: Uint16Array, n: number): number {
	let m = 0;
	for (let k = 0; k < n; k++) {
		const i = sel[k]!;
		if ((flags[i]! & flag) !== 0) sel[m++] = i;
	}
	return m;
}

/**
 * Rows whose value (an index into a table) is marked in `hit`; with `b`, either column's. Negated:
 * neither is marked.
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
	// Written whatever the test: no branch to mispredict on rows that mix.
	for (let k = 0; k < n; k++) {
		const i = sel[k]!;
		sel[m] = i;
		m += hit[a[i]!] === 1 ? 1 : 0;
	}
	return m;
}
function lookupNot(a: IntColumn, hit: Uint8Array, sel: Uint16Array, n: number): number {
	let m = 0;
	for (let k = 0; k < n; k++) {
		const i = sel[k]!;
		if (hit[a[i]!] !== 1) sel[m++] = i;
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
		if (hit[a[i]!] === 1 || hit[b[i]!] === 1) sel[m++] = i;
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
		if (hit[a[i]!] !== 1 && hit[b[i]!] !== 1) sel[m++] = i;
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
					if (kept[i] === 0) rest[r++] = i;
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
			if (kept[i] === 1) {
				sel[m++] = i;
				kept[i] = 0;
			}
		}
		return m;
	};
}

/** Rows the scan does not keep. */
export function exceptScan(): (inner: RowScan) => RowScan {
	let work: Uint16Array | null = null;
	return (inner) => (sel, n) => {
		work ??= new Uint16Array(MAX_ROWS);
		work.set(sel.subarray(0, n));
		const got = inner(work, n);
		// Both are ascending: walk them side by side.
		let m = 0;
		let j = 0;
		for (let k = 0; k < n; k++) {
			const i = sel[k]!;
			if (j < got && work[j] === i) j++;
			else sel[m++] = i;
		}
		return m;
	};
}
