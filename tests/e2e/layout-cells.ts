// Which table cells are cut (text wider than the cell) or reach outside their box or the window:
// the layout checks of the Chromium workbench test and of the Firefox one share this measure. It
// runs in the page (each driver's evaluate), so it holds everything it needs.
import { DEFAULT_COLUMNS } from '../../web/src/views/events/columns.ts';

export interface CellsIn {
	/** The cells to measure (a selector). */
	readonly cells: string;
	/** The box they must stay inside (a selector). */
	readonly box: string;
}

/** In the page: a line for every cell of `cells` that is cut or outside `box` or the window. */
export function cutCellsIn({ cells, box }: CellsIn): string[] {
	const frame = document.querySelector(box)!.getBoundingClientRect();
	const out: string[] = [];
	for (const c of document.querySelectorAll<HTMLElement>(cells)) {
		const r = c.getBoundingClientRect();
		const name = `${c.dataset.column ?? c.dataset.head ?? c.dataset.col ?? c.tagName} "${c.textContent?.trim()}"`;
		if (c.scrollWidth > c.clientWidth) out.push(`${name} cut: ${c.scrollWidth} > ${c.clientWidth}`);
		if (r.right > Math.min(innerWidth, frame.right) + 0.5 || r.left < frame.left - 0.5)
			out.push(`${name} outside: ${r.left}–${r.right} of ${frame.left}–${frame.right}`);
	}
	return out;
}

/** The events table's cells and headings of the default set of columns. */
export const DEFAULT_EVENT_CELLS: CellsIn = {
	cells: DEFAULT_COLUMNS.map(
		(id) => `[data-testid="event-scroller"] .row [data-column="${id}"], [data-head="${id}"]`,
	).join(', '),
	box: '[data-testid="event-scroller"]',
};

/** The socket list's cells and headings. */
export const SOCKET_LIST_CELLS: CellsIn = {
	cells: '[data-testid="socket-table"] th, [data-testid="socket-table"] td',
	box: '[data-testid="sockets"]',
};
