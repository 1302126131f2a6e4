// The pieces a compiled filter is built of: a node names the columns it reads and makes a row
// predicate for a chunk, and most make a scan too (a column at a time over a selection vector,
// scan-kernels.ts). Names are resolved once per query into lookup arrays indexed by the columns'
// values, so the per-row work is array reads.
import { msg } from '../i18n/render.ts';
import type { ColumnName, EventType, ReadColumns } from '../columns/layout.ts';
import { FilterError, type Op } from './filter-parser.ts';
import {
	ALL_ROWS,
	allScan,
	anyScan,
	exceptScan,
	flagScan,
	inRangeScan,
	lookupScan,
	notEqualScan,
	predicateScan,
	type RowScan,
} from './scan-kernels.ts';
import type { RowOwners } from './owner-join.ts';

export interface FilterContext {
	readonly strings: readonly string[];
	readonly eventTypes: readonly EventType[];
	readonly startFiletime: bigint;
	/** Process names by PID, when the trace names them. */
	readonly processNames: ReadonlyMap<number, string>;
	/** Host names by remote address (canonical text, net/ip.ts), for `host:`. */
	readonly hostNames?: ReadonlyMap<string, readonly string[]>;
	/** Events the user marked, by index in the trace (the page's marks, for `marked:`). */
	readonly marked?: ReadonlySet<number>;
	/**
	 * Changes whenever what a filter reads besides the columns may have changed for rows already
	 * stored (names learned, the marks): an answer kept for those rows (an import's refreshes add
	 * only the chunks stored since) holds only while it is the same. Absent: it never changes.
	 */
	readonly revision?: number;
}

export type RowPredicate = (i: number) => boolean;
export type { RowScan };

/** A decoded record's payload fields, by row: only asked for by terms on payload fields. */
export type RecordFields = (i: number) => Readonly<Record<string, unknown>> | null;

export interface Node {
	readonly cols: readonly ColumnName[];
	/** Event types whose payload a term reads (marked by etype), when it reads any. */
	readonly payload?: Uint8Array;
	/** The payload keys those terms read (a field's name, and its meaning's). */
	readonly payloadKeys?: readonly string[];
	/** Whether a term reads the rows' owners (joined at read time, query/owner-join.ts). */
	readonly owners?: boolean;
	/**
	 * Whether a term reads which row it is (its index in the trace), not only the row's values:
	 * such a filter cannot be tested once per combination of values (query/summary-count.ts).
	 */
	readonly positional?: boolean;
	/** `base`: the index in the trace of the chunk's row 0 (terms on marked events read it). */
	make(c: ReadColumns, fields: RecordFields, owners?: RowOwners, base?: number): RowPredicate;
	/** The same test as a scan over a selection vector (absent: `make`'s predicate, row by row). */
	scan?(c: ReadColumns, fields: RecordFields, owners?: RowOwners, base?: number): RowScan;
}

/** A node's scan of a chunk: its own, else its predicate tested row by row. */
export function scanOf(
	node: Node,
	c: ReadColumns,
	fields: RecordFields,
	owners?: RowOwners,
	base?: number,
): RowScan {
	return node.scan
		? node.scan(c, fields, owners, base)
		: predicateScan(node.make(c, fields, owners, base));
}

/** The comparison operators a number takes (`:` and `==` are equality). */
export type NumericOp = ':' | '==' | '!=' | '>' | '>=' | '<' | '<=';

export const ALWAYS: Node = { cols: [], make: () => () => true, scan: () => ALL_ROWS };

export function numberOf(value: string, at: number): number {
	const v = value.trim();
	const n = /^0x[0-9a-f]+$/i.test(v) ? parseInt(v, 16) : Number(v);
	if (!Number.isFinite(n) || v === '')
		throw new FilterError(msg('filter.not-number', { value }), at);
	return n;
}

export function numericOp(op: Op, field: string, at: number): NumericOp {
	if (op === 'contains' || op === 'matches' || op === 'in')
		throw new FilterError(msg('filter.number-ops', { field, op }), at);
	return op;
}

export function compare(op: NumericOp, a: number, b: number): boolean {
	switch (op) {
		case ':':
		case '==':
			return a === b;
		case '!=':
			return a !== b;
		case '>':
			return a > b;
		case '>=':
			return a >= b;
		case '<':
			return a < b;
		case '<=':
			return a <= b;
	}
}

/**
 * An integer comparison as the closed range of values it keeps, or null for `!=`; [1, 0] when none
 * is kept. Column values are integers in [0, 2^32), so `> 2.5` keeps [3, …].
 */
function integerRange(op: NumericOp, n: number): [number, number] | null {
	const MAX = 0xffffffff;
	// Nothing compares with NaN (a process named by a word that is not a number).
	const none: [number, number] = [1, 0];
	let lo: number;
	let hi: number;
	switch (op) {
		case '!=':
			return null;
		case ':':
		case '==':
			if (!Number.isInteger(n)) return none;
			[lo, hi] = [n, n];
			break;
		case '>':
			[lo, hi] = [Math.floor(n) + 1, MAX];
			break;
		case '>=':
			[lo, hi] = [Math.ceil(n), MAX];
			break;
		case '<':
			[lo, hi] = [0, Math.ceil(n) - 1];
			break;
		case '<=':
			[lo, hi] = [0, Math.floor(n)];
			break;
	}
	if (Number.isNaN(lo) || Number.isNaN(hi)) return none;
	return [Math.max(lo, 0), Math.min(hi, MAX)];
}

/** A numeric comparison on one column, specialised per operator for speed. */
export function numeric(col: ColumnName, op: NumericOp, n: number, need = 0): Node {
	const range = integerRange(op, n);
	return {
		cols: need ? [col, 'flags'] : [col],
		// Times are fractional: their column is tested row by row.
		scan:
			col === 'time'
				? undefined
				: (c) => {
						const a = c[col] as Exclude<ReadColumns[ColumnName], Float64Array>;
						return range
							? inRangeScan(a, range[0], range[1], c.flags, need)
							: notEqualScan(a, n, c.flags, need);
					},
		make: (c) => {
			const a = c[col];
			const f = c.flags;
			if (need)
				switch (op) {
					case ':':
					case '==':
						return (i) => a[i] === n && (f[i]! & need) !== 0;
					case '!=':
						return (i) => a[i] !== n && (f[i]! & need) !== 0;
					case '>':
						return (i) => a[i]! > n && (f[i]! & need) !== 0;
					case '>=':
						return (i) => a[i]! >= n && (f[i]! & need) !== 0;
					case '<':
						return (i) => a[i]! < n && (f[i]! & need) !== 0;
					case '<=':
						return (i) => a[i]! <= n && (f[i]! & need) !== 0;
				}
			switch (op) {
				case ':':
				case '==':
					return (i) => a[i] === n;
				case '!=':
					return (i) => a[i] !== n;
				case '>':
					return (i) => a[i]! > n;
				case '>=':
					return (i) => a[i]! >= n;
				case '<':
					return (i) => a[i]! < n;
				case '<=':
					return (i) => a[i]! <= n;
			}
		},
	};
}

/** Rows whose column value (an index into a table) is marked in `hit`. */
export function lookup(cols: ColumnName[], hit: Uint8Array, negate: boolean): Node {
	return {
		cols,
		scan: (c) => {
			const arrays = cols.map((n) => c[n]) as Exclude<ReadColumns[ColumnName], Float64Array>[];
			return lookupScan(arrays[0]!, arrays[1] ?? null, hit, negate);
		},
		make: (c) => {
			const arrays = cols.map((n) => c[n]);
			if (arrays.length === 1) {
				const a = arrays[0]!;
				return negate ? (i) => hit[a[i]!] !== 1 : (i) => hit[a[i]!] === 1;
			}
			const [a, b] = arrays as [ReadColumns[ColumnName], ReadColumns[ColumnName]];
			return negate
				? (i) => hit[a[i]!] !== 1 && hit[b[i]!] !== 1
				: (i) => hit[a[i]!] === 1 || hit[b[i]!] === 1;
		},
	};
}

/** Rows where a flag is set (has a status, has a byte count). */
export function flagged(flag: number): Node {
	return {
		cols: ['flags'],
		scan: (c) => flagScan(c.flags, flag),
		make: (c) => {
			const f = c.flags;
			return (i) => (f[i]! & flag) !== 0;
		},
	};
}

/** Rows where any of the columns is not `none`. */
export function present(cols: ColumnName[], none = 0): Node {
	return {
		cols,
		scan:
			cols.length === 1
				? (c) => notEqualScan(c[cols[0]!] as Exclude<ReadColumns[ColumnName], Float64Array>, none)
				: undefined,
		make: (c) => {
			const arrays = cols.map((n) => c[n]);
			if (arrays.length === 1) {
				const a = arrays[0]!;
				return (i) => a[i] !== none;
			}
			return (i) => arrays.some((a) => a[i] !== none);
		},
	};
}

export function markStrings(ctx: FilterContext, test: (s: string) => boolean): Uint8Array {
	const hit = new Uint8Array(ctx.strings.length + 1);
	ctx.strings.forEach((s, i) => {
		if (i > 0 && test(s)) hit[i] = 1;
	});
	return hit;
}

export function markTypes(ctx: FilterContext, test: (t: EventType) => boolean): Uint8Array {
	const hit = new Uint8Array(ctx.eventTypes.length + 1);
	ctx.eventTypes.forEach((t, i) => {
		if (test(t)) hit[i] = 1;
	});
	return hit;
}

export function not(inner: Node): Node {
	const except = exceptScan();
	return {
		...inner,
		make: (c, f, o, b) => {
			const p = inner.make(c, f, o, b);
			return (i) => !p(i);
		},
		scan: (c, f, o, b) => except(scanOf(inner, c, f, o, b)),
	};
}

/** Marks of event types joined (either marks it). */
function joinMarks(a?: Uint8Array, b?: Uint8Array): Uint8Array | undefined {
	if (!a || !b) return a ?? b;
	const out = new Uint8Array(Math.max(a.length, b.length));
	for (let i = 0; i < out.length; i++) out[i] = a[i]! | b[i]!;
	return out;
}

export function combine(type: 'and' | 'or', items: readonly Node[]): Node {
	if (items.length === 1) return items[0]!;
	const and = type === 'and';
	const any = and ? null : anyScan();
	return {
		cols: items.flatMap((x) => x.cols),
		payload: items.reduce<Uint8Array | undefined>((m, x) => joinMarks(m, x.payload), undefined),
		payloadKeys: items.flatMap((x) => x.payloadKeys ?? []),
		owners: items.some((x) => x.owners),
		positional: items.some((x) => x.positional),
		make: (c, f, o, b) => {
			const ps = items.map((x) => x.make(c, f, o, b));
			if (ps.length === 2) {
				const [a, b] = ps as [RowPredicate, RowPredicate];
				return and ? (i) => a(i) && b(i) : (i) => a(i) || b(i);
			}
			return and ? (i) => ps.every((p) => p(i)) : (i) => ps.some((p) => p(i));
		},
		scan: (c, f, o, b) => {
			const scans = items.map((x) => scanOf(x, c, f, o, b));
			return any ? any(scans) : allScan(scans);
		},
	};
}
