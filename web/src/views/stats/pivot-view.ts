// The Group by view's logic: which groups are on screen (the expanded ones' children, a page of
// them at a time) and the chosen columns, kept across reloads. The worker writes the tree's files
// (export/pivot-table.ts).
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
