// How a trace view and the URL fragment (state/view-hash.ts) follow each other: the view a
// trace opens with, and what to redo when the fragment changes from outside (Back, an edited
// URL, a pasted link).
import type { TimeRange } from '../../query/protocol.ts';
import type { Panel, ViewState } from '../../state/view-hash.ts';

/** A query to run: filter, time range, and the event (by index in the trace) to keep selected. */
export interface QueryRun {
	readonly filter: string;
	readonly range: TimeRange | null;
	readonly keep: number | null;
}

export interface Opening {
	readonly panel: Panel;
	readonly run: QueryRun;
	/** What the fragment is to say, and whether that is a new history entry. */
	readonly change: Partial<ViewState>;
	readonly history: 'push' | 'replace';
}

/**
 * A link to this trace brings its view; otherwise the trace starts afresh, in a new history
 * entry when another trace was shown (so Back returns to it).
 */
export function openingView(view: ViewState, key: string, name: string): Opening {
	if (view.trace === key)
		return {
			panel: view.panel,
			run: { filter: view.q, range: view.range, keep: view.sel },
			change: { name },
			history: 'replace',
		};
	return {
		panel: 'events',
		run: { filter: '', range: null, keep: null },
		change: { trace: key, name, q: '', range: null, sel: null, ref: null, panel: 'events' },
		history: view.trace ? 'push' : 'replace',
	};
}

export function sameRange(a: TimeRange | null, b: TimeRange | null): boolean {
	return a?.from === b?.from && a?.to === b?.to;
}

/** What the view shows now, as far as the fragment speaks of it. */
export interface Shown {
	readonly filter: string;
	readonly range: TimeRange | null;
	readonly selectedIndex: number | null;
	readonly panel: Panel;
	/** The time reference's event index, or null. */
	readonly reference: number | null;
}

export interface Following {
	/** The fragment's query, when it differs from the one shown. */
	readonly run: QueryRun | null;
	/** The fragment's panel, when another is shown. */
	readonly panel: Panel | null;
	/** The fragment's time reference (an event index, or none), when another is shown. */
	readonly reference: { readonly index: number | null } | null;
}

/**
 * What the view redoes to show a fragment that changed from outside; null when the fragment is
 * about another trace. A fragment without a selection leaves the selection alone.
 */
export function followView(view: ViewState, key: string, shown: Shown): Following | null {
	if (view.trace !== key) return null;
	const otherSelection = view.sel !== null && view.sel !== shown.selectedIndex;
	const differs = view.q !== shown.filter || !sameRange(view.range, shown.range) || otherSelection;
	return {
		run: differs ? { filter: view.q, range: view.range, keep: view.sel } : null,
		panel: view.panel !== shown.panel ? view.panel : null,
		reference: (view.ref ?? null) !== shown.reference ? { index: view.ref ?? null } : null,
	};
}
