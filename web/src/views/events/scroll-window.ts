// Scaled virtual scrolling. Browsers cap an element's height (about 33.5 M px in Chromium), so
// 10 M rows × 26 px cannot be laid out. The spacer is at most MAX_HEIGHT tall and the scroll
// position is read as a fraction of the way through the rows, which keeps every row, the last
// one included, reachable; below the cap the mapping is the ordinary one (one pixel per pixel).

export const ROW_HEIGHT = 26;
export const MAX_HEIGHT = 8_000_000;

export interface ScrollGeometry {
	readonly count: number;
	readonly viewport: number;
	readonly rowHeight?: number;
	readonly maxHeight?: number;
}

const rowHeight = (g: ScrollGeometry) => g.rowHeight ?? ROW_HEIGHT;

export function spacerHeight(g: ScrollGeometry): number {
	return Math.min(g.count * rowHeight(g), g.maxHeight ?? MAX_HEIGHT);
}

/** Rows wholly inside the viewport (at least one). */
export function fullRows(g: ScrollGeometry): number {
	return Math.max(1, Math.floor(g.viewport / rowHeight(g)));
}

/** Rows to render from the first: the whole ones plus the one cut by the bottom edge. */
export function renderedRows(g: ScrollGeometry, first: number): number {
	return Math.max(0, Math.min(fullRows(g) + 1, g.count - first));
}

/** The first row shown at a scroll position; at the bottom, the last row is wholly in view. */
export function firstRow(g: ScrollGeometry, scrollTop: number): number {
	const full = fullRows(g);
	const room = spacerHeight(g) - g.viewport;
	if (room <= 0 || g.count <= full) return 0;
	const fraction = Math.min(1, Math.max(0, scrollTop / room));
	return Math.min(g.count - full, Math.round(fraction * (g.count - full)));
}

/** The scroll position that shows row `first` at the top (the inverse of firstRow). */
export function scrollTopFor(g: ScrollGeometry, first: number): number {
	const full = fullRows(g);
	const room = spacerHeight(g) - g.viewport;
	if (room <= 0 || g.count <= full) return 0;
	const clamped = Math.max(0, Math.min(g.count - full, first));
	return (clamped / (g.count - full)) * room;
}

/** The top row that brings `position` wholly into view with the least movement; null if it is. */
export function revealTarget(g: ScrollGeometry, first: number, position: number): number | null {
	const full = fullRows(g);
	if (position >= first && position < first + full) return null;
	if (position < first) return position;
	return Math.max(0, position - full + 1);
}
