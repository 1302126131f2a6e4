// Where the details pane sits: beside the table when the table keeps every column at its text's
// width with the pane there, else below it (a side pane must never squeeze the columns).
export type Dock = 'side' | 'bottom';

/** The pane's size bounds in pixels (its width beside the table, its height below it), and its first width. */
export const PANE_BOUNDS = {
	side: { min: 280, initial: 420, max: 720 },
	bottom: { min: 140, max: 640 },
} as const;

/** Pixels between the table and the pane (the splitter's room). */
export const SPLIT_GAP = 10;

/** The pane's place for a work area `room` pixels wide and a table that wants `table` pixels. */
export function dockOf(room: number, table: number, paneWidth: number): Dock {
	return room - paneWidth - SPLIT_GAP >= table ? 'side' : 'bottom';
}

/** A size kept within the dock's bounds and within `room` less `keep` for the table. */
export function clampPane(dock: Dock, size: number, room: number, keep: number): number {
	const { min, max } = PANE_BOUNDS[dock];
	return Math.round(Math.max(min, Math.min(max, room - keep, size)));
}
