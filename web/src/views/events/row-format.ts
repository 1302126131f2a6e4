import type { RowView } from '../../query/engine.ts';

/** Seconds since the trace start with microsecond precision, from 100 ns ticks. */
export function formatRelative(ticks: number): string {
	return (ticks / 1e7).toFixed(6);
}

/** The process as users know it: its name when the trace tells, else its PID. */
export function formatProcess(row: RowView, names: ReadonlyMap<number, string>): string {
	if (row.process === null) return '';
	const name = names.get(row.process);
	return name ? `${name} (${row.process})` : `PID ${row.process}`;
}

export const LEVEL_NAMES: Record<number, string> = {
	0: 'always',
	1: 'critical',
	2: 'error',
	3: 'warning',
	4: 'info',
	5: 'verbose',
};
