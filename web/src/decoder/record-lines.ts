// Records as text: one NDJSON line or CSV row per record. `sockscope decode` prints these and the
// web app's export writes them (tests/worker/export.test.ts runs both and compares).
import type { RecordJson } from './record-json.ts';

export type ExportFormat = 'csv' | 'ndjson';

export const CSV_COLUMNS: readonly (keyof RecordJson)[] = [
	'kind',
	'time',
	'filetime',
	'providerGuid',
	'provider',
	'id',
	'version',
	'level',
	'opcode',
	'task',
	'keyword',
	'pid',
	'tid',
	'cpu',
	'name',
	'fields',
];

/** One CSV cell: quoted when it holds a comma, quote or line break. */
export function csvCell(v: unknown): string {
	if (v === null || v === undefined) return '';
	const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
	return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The first line of a file in this format, or null when it has none. */
export function headerLine(format: ExportFormat): string | null {
	return format === 'csv' ? CSV_COLUMNS.join(',') : null;
}

export function recordLine(r: RecordJson, format: ExportFormat): string {
	return format === 'csv' ? CSV_COLUMNS.map((c) => csvCell(r[c])).join(',') : JSON.stringify(r);
}
