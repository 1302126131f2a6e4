// The view state kept in the page's URL fragment (view-hash.ts). The page writes it as the user
// works; a reload, Back/Forward, an edited fragment or a pasted link change it from outside, and
// the views follow. Filter and time range changes add a history entry (Back undoes them);
// selection and panel changes replace the current one, so Back is not a walk through rows.
import { EMPTY_VIEW, formatHash, parseHash, type ViewState } from './view-hash.ts';

export class ViewLocation {
	view = $state.raw<ViewState>(EMPTY_VIEW);
	/**
	 * Counts views that came from outside the page (the URL it was loaded with, Back/Forward, an
	 * edited or pasted fragment), as opposed to ones the page wrote: only those may open a trace.
	 */
	arrivals = $state(0);
	readonly #window: Window;

	constructor(win: Window = window) {
		this.#window = win;
		this.view = parseHash(win.location.hash);
		if (this.view.trace) this.arrivals = 1;
		win.addEventListener('hashchange', () => {
			const next = parseHash(win.location.hash);
			if (formatHash(next) === formatHash(this.view)) return;
			this.view = next;
			this.arrivals++;
		});
	}

	/** Changes part of the view; `history: 'push'` makes it a step Back can undo. */
	update(change: Partial<ViewState>, history: 'push' | 'replace' = 'replace'): void {
		const next = { ...this.view, ...change };
		const hash = formatHash(next);
		this.view = next;
		const { pathname, search, hash: current } = this.#window.location;
		if (hash === (current === '#' ? '' : current)) return;
		const url = `${pathname}${search}${hash}`;
		// pushState/replaceState fire no hashchange: the page already shows this view.
		if (history === 'push') this.#window.history.pushState(null, '', url);
		else this.#window.history.replaceState(null, '', url);
	}

	/** Back to the start page: no trace, no view. */
	clear(): void {
		this.update(EMPTY_VIEW, 'push');
	}
}
