// The view as a URL fragment, so that a reload restores it and a copied link reopens it:
//   #trace=<first 16 hex digits of the trace's fingerprint>&name=<file name>&q=<filter>
//    &from=<s>&to=<s>&sel=<event index>&ref=<event index>&panel=<events|stats|sockets|dns|packets>
// The fingerprint is a hash of the file's content (web/src/worker/fingerprint.ts), so the link
// finds the same trace in any browser that has imported it; nothing of the trace is in the URL
// but its name. Two traces compared: #compare=<baseline key>,<problem key> (and nothing else).
// Times are seconds since the trace start with 7 decimals: exact 100 ns ticks.

export type Panel = 'events' | 'stats' | 'sockets' | 'dns' | 'packets';
export const PANELS: readonly Panel[] = ['events', 'stats', 'sockets', 'dns', 'packets'];

export interface ViewState {
	readonly trace: string | null;
	/** The trace's file name, to say which file to open when this browser does not have it. */
	readonly name: string | null;
	readonly q: string;
	/** Ticks since the trace start: from inclusive, to exclusive. */
	readonly range: { readonly from: number; readonly to: number } | null;
	/** The selected event's index in the trace (not its position among the matches). */
	readonly sel: number | null;
	/** The time reference's event index in the trace (the Time column counts from it), or none. */
	readonly ref?: number | null;
	readonly panel: Panel;
	/** Two traces compared (baseline, problem), by their keys; then no trace is shown. */
	readonly compare?: readonly [string, string] | null;
}

export const EMPTY_VIEW: ViewState = {
	trace: null,
	name: null,
	q: '',
	range: null,
	sel: null,
	ref: null,
	panel: 'events',
};

/** How much of a fingerprint a link carries: 64 bits tell any two traces apart. */
export const TRACE_KEY_LENGTH = 16;

export function traceKey(fingerprint: string): string {
	return fingerprint.slice(0, TRACE_KEY_LENGTH).toLowerCase();
}

const TICKS_PER_SECOND = 1e7;

export function secondsText(ticks: number): string {
	return (ticks / TICKS_PER_SECOND).toFixed(7).replace(/\.?0+$/, '') || '0';
}

function ticksOf(text: string | null): number | null {
	if (text === null || !/^-?\d+(\.\d+)?$/.test(text)) return null;
	return Math.round(Number(text) * TICKS_PER_SECOND);
}

/** Reads a fragment (with or without its '#'); anything malformed falls back to the default. */
export function parseHash(hash: string): ViewState {
	const p = new URLSearchParams(hash.replace(/^#/, ''));
	const trace = p.get('trace');
	const from = ticksOf(p.get('from'));
	const to = ticksOf(p.get('to'));
	const sel = p.get('sel');
	const ref = p.get('ref');
	const panel = p.get('panel');
	const keys = (p.get('compare') ?? '').toLowerCase().split(',');
	const compare =
		keys.length === 2 && keys.every((k) => /^[0-9a-f]{8,64}$/.test(k))
			? ([keys[0]!, keys[1]!] as const)
			: null;
	if (compare) return { ...EMPTY_VIEW, compare };
	return {
		trace: trace && /^[0-9a-f]{8,64}$/i.test(trace) ? trace.toLowerCase() : null,
		name: p.get('name') || null,
		q: p.get('q') ?? '',
		range: from !== null && to !== null && to > from ? { from, to } : null,
		sel: sel !== null && /^\d+$/.test(sel) ? Number(sel) : null,
		ref: ref !== null && /^\d+$/.test(ref) ? Number(ref) : null,
		panel: PANELS.includes(panel as Panel) ? (panel as Panel) : 'events',
	};
}

/** The fragment for a view, '' for the start page. Parameters at their default are left out. */
export function formatHash(v: ViewState): string {
	if (v.compare) return `#compare=${v.compare[0]},${v.compare[1]}`;
	if (!v.trace) return '';
	const p = new URLSearchParams();
	p.set('trace', v.trace);
	if (v.name) p.set('name', v.name);
	if (v.q) p.set('q', v.q);
	if (v.range) {
		p.set('from', secondsText(v.range.from));
		p.set('to', secondsText(v.range.to));
	}
	if (v.sel !== null) p.set('sel', String(v.sel));
	if (v.ref != null) p.set('ref', String(v.ref));
	if (v.panel !== 'events') p.set('panel', v.panel);
	// URLSearchParams writes spaces as '+'; %20 reads the same and survives more chat clients.
	return `#${p.toString().replace(/\+/g, '%20')}`;
}
