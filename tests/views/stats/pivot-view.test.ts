// The Group by view's logic: lines on screen, pages, and the chosen columns.
import { describe, expect, it } from 'vitest';
import type { Pivot, PivotGroup } from '../../../web/src/query/pivot.ts';
import {
	loadPivotColumns,
	PAGE,
	removeLevel,
	savePivotColumns,
	setLevel,
	visibleLines,
} from '../../../web/src/views/stats/pivot-view.ts';

const group = (key: string, count: number, children: PivotGroup[] | null = null): PivotGroup => ({
	key,
	label: `label ${key}`,
	filter: `f:${key}`,
	count,
	bytesSent: count * 2,
	bytesReceived: count * 3,
	errors: 0,
	first: 10_000_000,
	last: 20_000_000,
	children,
	more: 0,
});

const leaves = (n: number) => Array.from({ length: n }, (_, i) => group(`c${i}`, 1));
const pivot: Pivot = {
	columns: ['process', 'event'],
	matched: PAGE + 5 + 2,
	groups: [group('a', PAGE + 5, leaves(PAGE + 5)), group('b', 2, leaves(2))],
	more: 0,
};

describe('group by lines', () => {
	it('shows the top groups, and the children of the expanded ones a page at a time', () => {
		expect(visibleLines(pivot, new Set()).map((l) => l.path)).toEqual(['a', 'b']);
		const open = visibleLines(pivot, new Set(['a']));
		expect(open.filter((l) => l.kind === 'group')).toHaveLength(2 + PAGE);
		const more = open.find((l) => l.kind === 'more')!;
		expect(more).toMatchObject({ path: 'a', depth: 1, hidden: 5, omitted: 0 });
		const all = visibleLines(pivot, new Set(['a']), new Map([['a', 2]]));
		expect(all.filter((l) => l.kind === 'group')).toHaveLength(2 + PAGE + 5);
		expect(all.some((l) => l.kind === 'more')).toBe(false);
	});

	it('says how many groups the worker left out', () => {
		const lines = visibleLines({ ...pivot, more: 7 }, new Set());
		expect(lines.at(-1)).toMatchObject({ kind: 'more', hidden: 7, omitted: 7 });
	});
});

describe('group by columns', () => {
	it('changes, adds and removes levels, never one column twice', () => {
		expect(setLevel(['process', 'socket', 'event'], 1, 'remote')).toEqual([
			'process',
			'remote',
			'event',
		]);
		expect(setLevel(['process', 'socket'], 2, 'event')).toEqual(['process', 'socket', 'event']);
		expect(setLevel(['process', 'socket', 'event'], 0, 'event')).toEqual(['event', 'socket']);
		expect(removeLevel(['process', 'socket'], 0)).toEqual(['socket']);
		expect(removeLevel(['process'], 0)).toEqual(['process']);
	});

	it('keeps the choice, and drops what it does not know', () => {
		const store = new Map<string, string>();
		const storage = {
			getItem: (k: string) => store.get(k) ?? null,
			setItem: (k: string, v: string) => void store.set(k, v),
		};
		expect(loadPivotColumns(storage)).toEqual(['process', 'socket', 'event']);
		savePivotColumns(storage, ['remote', 'field:SocketType']);
		expect(loadPivotColumns(storage)).toEqual(['remote', 'field:SocketType']);
		store.set('sockscope.pivot', JSON.stringify(['nonsense', 'status', 'status', 'field:Nope']));
		expect(loadPivotColumns(storage)).toEqual(['status']);
		store.set('sockscope.pivot', '{broken');
		expect(loadPivotColumns(storage)).toEqual(['process', 'socket', 'event']);
	});
});
