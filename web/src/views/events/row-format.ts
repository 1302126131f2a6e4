import type { RowView } from '../../query/engine.ts';
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
