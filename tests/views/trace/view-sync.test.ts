// How a trace view and the URL fragment follow each other: the view a trace opens with, and what
// a fragment changed from outside (Back, an edited URL) makes it redo.
import { describe, expect, it } from 'vitest';
import {
	EMPTY_VIEW,
	formatHash,
	parseHash,
	type ViewState,
} from '../../../web/src/state/view-hash.ts';
import {
	followView,
	openingView,
	sameRange,
	type Shown,
} from '../../../web/src/views/trace/view-sync.ts';

const KEY = 'a3f9c2d1e0b4c6d8';
const linked: ViewState = {
	trace: KEY,
	name: 'old name.etl',
	q: 'status:error',
	range: { from: 10, to: 20 },
	sel: 42,
	ref: 40,
	panel: 'stats',
};
const showing = (view: ViewState): Shown => ({
	filter: view.q,
	range: view.range,
	selectedIndex: view.sel,
	panel: view.panel,
	reference: view.ref ?? null,
});

describe('the view a trace opens with', () => {
	it('is the link’s, when the link is to this trace (under the trace’s own name)', () => {
		const o = openingView(linked, KEY, 'trace.etl');
		expect(o.panel).toBe('stats');
		expect(o.run).toEqual({ filter: 'status:error', range: { from: 10, to: 20 }, keep: 42 });
		expect(o.history).toBe('replace');
		expect({ ...linked, ...o.change }).toEqual({ ...linked, name: 'trace.etl' });
	});

	it('is fresh otherwise, in a new history entry when another trace was shown', () => {
		const other = openingView({ ...linked, trace: 'ffffffffffffffff' }, KEY, 'trace.etl');
		expect(other.panel).toBe('events');
		expect(other.run).toEqual({ filter: '', range: null, keep: null });
		expect(other.history).toBe('push');
		const written = { ...linked, ...other.change };
		expect(parseHash(formatHash(written))).toEqual({
			...EMPTY_VIEW,
			trace: KEY,
			name: 'trace.etl',
		});

		expect(openingView(EMPTY_VIEW, KEY, 'trace.etl').history).toBe('replace');
	});

	it('follows a fragment as a reload reads it', () => {
		const read = parseHash(formatHash(linked));
		const o = openingView(read, KEY, 'old name.etl');
		expect(o.run).toEqual({ filter: linked.q, range: linked.range, keep: linked.sel });
		// What the view shows then matches the fragment: nothing left to follow.
		// The time reference is not part of the query: the view sets it from the fragment.
		const opened = { ...o.run, selectedIndex: o.run.keep, panel: o.panel, reference: null };
		expect(followView(read, KEY, opened)?.reference).toEqual({ index: 40 });
		expect(followView(read, KEY, { ...opened, reference: 40 })).toEqual({
			run: null,
			panel: null,
			reference: null,
		});
	});
});

describe('following the fragment', () => {
	it('ignores a fragment about another trace', () => {
		expect(followView({ ...linked, trace: 'ffffffffffffffff' }, KEY, showing(EMPTY_VIEW))).toBe(
			null,
		);
	});

	it('re-runs the query when the filter, the range or the selection differ', () => {
		const shown = showing(linked);
		const rerun = (change: Partial<ViewState>) => followView({ ...linked, ...change }, KEY, shown);
		expect(rerun({ q: '' })?.run).toEqual({ filter: '', range: linked.range, keep: 42 });
		expect(rerun({ range: null })?.run).toEqual({ filter: linked.q, range: null, keep: 42 });
		expect(rerun({ range: { from: 10, to: 21 } })?.run?.range).toEqual({ from: 10, to: 21 });
		expect(rerun({ sel: 7 })?.run?.keep).toBe(7);
	});

	it('keeps the selection of a fragment that names none (the page writes it after an answer)', () => {
		expect(followView({ ...linked, sel: null }, KEY, showing(linked))?.run).toBe(null);
	});

	it('switches panel without re-running the query', () => {
		expect(followView({ ...linked, panel: 'sockets' }, KEY, showing(linked))).toEqual({
			run: null,
			panel: 'sockets',
			reference: null,
		});
	});

	it('sets or clears the time reference without re-running the query', () => {
		const moved = followView({ ...linked, ref: 7 }, KEY, showing(linked));
		expect(moved).toEqual({ run: null, panel: null, reference: { index: 7 } });
		const cleared = followView({ ...linked, ref: null }, KEY, showing(linked));
		expect(cleared?.reference).toEqual({ index: null });
	});

	it('compares ranges by value', () => {
		expect(sameRange(null, null)).toBe(true);
		expect(sameRange({ from: 1, to: 2 }, { from: 1, to: 2 })).toBe(true);
		expect(sameRange({ from: 1, to: 2 }, null)).toBe(false);
		expect(sameRange({ from: 1, to: 2 }, { from: 1, to: 3 })).toBe(false);
	});
});
