// The Group by view's logic: which groups are on screen (the expanded ones' children, a page of
// them at a time), the chosen columns kept across reloads, and the whole tree as CSV or NDJSON
// (one line per group, its path in the chosen columns).
import {
	DEFAULT_PIVOT,
	isPivotColumn,
	MAX_PIVOT_LEVELS,
	PIVOT_COLUMNS,
	type Pivot,
	type PivotColumn,
	type PivotGroup,
} from '../../query/pivot.ts';

export { DEFAULT_PIVOT, MAX_PIVOT_LEVELS, PIVOT_COLUMNS };

/** Children shown under one group before "show more". */
export const PAGE = 100;

export interface PivotLine {
	/** The groups' keys from the top, joined: unique in the tree. */
	readonly path: string;
	readonly depth: number;
	readonly group: PivotGroup;
}

/** "show N more" under a parent (path '' for the top level). */
export interface MoreLine {
	readonly path: string;
	readonly depth: number;
	/** Groups not shown yet, loaded or not. */
	readonly hidden: number;
	/** Of them, how many the worker left out past its limit (not shown by asking for more pages). */
	readonly omitted: number;
}

export type Line = ({ kind: 'group' } & PivotLine) | ({ kind: 'more' } & MoreLine);

/**
 * The lines on screen: each top-level group, and the children of the expanded ones, `pages`
 * pages of them (path → pages shown; one by default).
 */
export function visibleLines(
	pivot: Pivot,
	expanded: ReadonlySet<string>,
	pages: ReadonlyMap<string, number> = new Map(),
): Line[] {
	const out: Line[] = [];
	const walk = (groups: readonly PivotGroup[], more: number, depth: number, parent: string) => {
		const shown = Math.min(groups.length, (pages.get(parent) ?? 1) * PAGE);
		for (const group of groups.slice(0, shown)) {
			const path = parent ? `${parent}/${group.key}` : group.key;
			out.push({ kind: 'group', path, depth, group });
			if (group.children && expanded.has(path)) walk(group.children, group.more, depth + 1, path);
		}
		if (shown < groups.length || more > 0)
			out.push({
				kind: 'more',
				path: parent,
				depth,
				hidden: groups.length - shown + more,
				omitted: more,
			});
	};
	walk(pivot.groups, pivot.more, 0, '');
	return out;
}

/** Every group of the tree, parents before their children. */
export function allGroups(pivot: Pivot): { path: PivotGroup[]; group: PivotGroup }[] {
	const out: { path: PivotGroup[]; group: PivotGroup }[] = [];
	const walk = (groups: readonly PivotGroup[], path: PivotGroup[]) => {
		for (const g of groups) {
			out.push({ path, group: g });
			if (g.children) walk(g.children, [...path, g]);
		}
	};
	walk(pivot.groups, []);
	return out;
}

const FIGURES = ['count', 'bytesSent', 'bytesReceived', 'errors', 'first', 'last'] as const;

/** A column's name in an exported file: `process`, `field:SocketType` → `SocketType`. */
export const fileColumn = (c: PivotColumn) => (c.startsWith('field:') ? c.slice(6) : c);

function csvCell(s: string): string {
	return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * The tree as CSV: one row per group, its labels in the chosen columns (empty below its level),
 * its level, figures (times in seconds since the trace start) and filter.
 */
export function pivotCsv(pivot: Pivot): string {
	const head = [...pivot.columns.map(fileColumn), 'level', ...FIGURES, 'filter'];
	let out = head.map(csvCell).join(',') + '\n';
	for (const { path, group } of allGroups(pivot)) {
		const labels = pivot.columns.map((_, k) =>
			k < path.length ? path[k]!.label : k === path.length ? group.label : '',
		);
		const figures = FIGURES.map((f) =>
			f === 'first' || f === 'last' ? (group[f] / 1e7).toFixed(7) : String(group[f]),
		);
		out += [...labels, String(path.length + 1), ...figures, group.filter].map(csvCell).join(',');
		out += '\n';
	}
	return out;
}

/** The same as NDJSON: one object per group, a column's key absent below its level. */
export function pivotNdjson(pivot: Pivot): string {
	let out = '';
	for (const { path, group } of allGroups(pivot)) {
		const o: Record<string, string | number> = {};
		[...path, group].forEach((g, k) => (o[fileColumn(pivot.columns[k]!)] = g.label));
		o.level = path.length + 1;
		for (const f of FIGURES) o[f] = f === 'first' || f === 'last' ? group[f] / 1e7 : group[f];
		o.filter = group.filter;
		out += JSON.stringify(o) + '\n';
	}
	return out;
}

const KEY = 'sockscope.pivot';

/** The chosen columns, kept in localStorage; unknown or repeated ones are dropped. */
export function loadPivotColumns(storage: Pick<Storage, 'getItem'> | null): PivotColumn[] {
	try {
		const v = JSON.parse(storage?.getItem(KEY) ?? 'null') as unknown;
		if (Array.isArray(v)) {
			const cols = [
				...new Set(v.filter((c): c is PivotColumn => typeof c === 'string' && isPivotColumn(c))),
			];
			if (cols.length > 0) return cols.slice(0, MAX_PIVOT_LEVELS);
		}
	} catch {
		// A damaged entry: the default.
	}
	return [...DEFAULT_PIVOT];
}

export function savePivotColumns(
	storage: Pick<Storage, 'setItem'> | null,
	columns: readonly PivotColumn[],
): void {
	try {
		storage?.setItem(KEY, JSON.stringify(columns));
	} catch {
		// Storage may be off: the choice then lasts until the page closes.
	}
}

/** The columns with `c` at level `at` (changed, or added at the end), no column twice. */
export function setLevel(
	columns: readonly PivotColumn[],
	at: number,
	c: PivotColumn,
): PivotColumn[] {
	const place = Math.min(at, columns.length);
	const next = [...columns];
	next[place] = c;
	return next.filter((x, k) => x !== c || k === place).slice(0, MAX_PIVOT_LEVELS);
}

/** The columns without level `at` (never none: the last one stays). */
export function removeLevel(columns: readonly PivotColumn[], at: number): PivotColumn[] {
	return columns.length <= 1 ? [...columns] : columns.filter((_, k) => k !== at);
}
