import type { RowView } from '../../query/protocol.ts';
import { filetimeToIso } from '../../decoder/time.ts';

export type TimeMode = 'relative' | 'utc';

/** Seconds since the trace start with microsecond precision, from 100 ns ticks. */
export function formatRelative(ticks: number): string {
	return (ticks / 1e7).toFixed(6);
}

/** The UTC instant of `ticks` after the trace start: ISO 8601 with 7 fractional digits. */
export function utcIso(startFiletime: string, ticks: number): string {
	return filetimeToIso(BigInt(startFiletime) + BigInt(Math.round(ticks))) ?? '';
}

/** UTC time of day with microseconds ("09:26:53.589793"); the date is in the column's title. */
export function formatUtcTime(startFiletime: string, ticks: number): string {
	const iso = utcIso(startFiletime, ticks);
	return iso ? iso.slice(11, 26) : '';
}

export function formatTime(mode: TimeMode, startFiletime: string, ticks: number): string {
	return mode === 'utc' ? formatUtcTime(startFiletime, ticks) : formatRelative(ticks);
}

/** The event the Time column counts from (Wireshark's time reference). */
export interface TimeReference {
	/** Its index in the trace. */
	readonly index: number;
	/** Ticks since the trace start. */
	readonly time: number;
}

/** What Wireshark writes for the reference itself. */
export const REFERENCE_MARK = '*REF*';

/** Seconds from the reference, signed ("-0.000120", "1.250000"); the reference is *REF*. */
export function formatFromReference(row: RowView, ref: TimeReference): string {
	if (row.index === ref.index) return REFERENCE_MARK;
	const d = row.time - ref.time;
	return `${d < 0 ? '-' : ''}${formatRelative(Math.abs(d))}`;
}

/**
 * Each row's previous row's time, by the row's event index, for rows in order of the matches
 * (`rows[k]` at position `first + k`): Wireshark's frame.time_delta_displayed. The first match
 * counts from itself; `before` is the time of the row before `rows[0]` when it is not the first.
 */
export function previousTimes(
	rows: readonly RowView[],
	first: number,
	before: number | null,
): Map<number, number> {
	const out = new Map<number, number>();
	let prev = first === 0 ? null : before;
	for (const r of rows) {
		if (first === 0 && prev === null) prev = r.time;
		if (prev !== null) out.set(r.index, prev);
		prev = r.time;
	}
	return out;
}

/** The previous times of the rows a table holds, by position (gaps where a row is not loaded). */
export function previousTimesAt(rows: ReadonlyMap<number, RowView>): Map<number, number> {
	const out = new Map<number, number>();
	for (const [p, r] of rows) {
		const prev = p === 0 ? r : rows.get(p - 1);
		if (prev) out.set(r.index, prev.time);
	}
	return out;
}

/** Seconds since the row before, or '' when that row is not known. */
export function formatDelta(
	row: RowView,
	previous: ReadonlyMap<number, number> | undefined,
): string {
	const prev = previous?.get(row.index);
	return prev === undefined ? '' : formatRelative(row.time - prev);
}

/** The process as users know it: its name when the trace tells, else its PID. */
export function formatProcess(row: RowView, names: ReadonlyMap<number, string>): string {
	if (row.process === null) return '';
	const name = names.get(row.process);
	return name ? `${name} (${row.process})` : `PID ${row.process}`;
}

/** The owner likewise: its socket's or connection's process, else the event's own. */
export function formatOwner(row: RowView, names: ReadonlyMap<number, string>): string {
	if (row.owner === null) return '';
	const name = names.get(row.owner);
	return name ? `${name} (${row.owner})` : `PID ${row.owner}`;
}

export const LEVEL_NAMES: Record<number, string> = {
	0: 'always',
	1: 'critical',
	2: 'error',
	3: 'warning',
	4: 'info',
	5: 'verbose',
};
