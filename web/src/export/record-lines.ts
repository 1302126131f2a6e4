// Records as text: one NDJSON line or CSV row per record. `sockscope decode` prints these and the
// web app's export writes them (tests/worker/export.test.ts runs both and compares).
import type { RecordJson } from '../decoder/record-json.ts';
import { PAYLOAD_FIELDS, payloadField } from '../decoder/payload-fields.ts';
import { nearest } from '../lib/nearest.ts';

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

/**
 * Columns picked by name (`--columns`): a record column, or a payload field by its name (case and
 * spaces ignored, `fields.` in front allowed), with `<field>Name` for a value's named meaning.
 * Unknown words are errors, with the nearest known name when there is one.
 */
export interface PickedColumn {
	readonly header: string;
	/** Whether `header` names a key of the record's fields (else a record column). */
	readonly field: boolean;
	get(r: RecordJson): unknown;
}

export function pickColumns(names: readonly string[]): PickedColumn[] | { error: string } {
	const out: PickedColumn[] = [];
	for (const raw of names) {
		const standard = CSV_COLUMNS.find((c) => c.toLowerCase() === raw.toLowerCase());
		if (standard) {
			out.push({ header: standard, field: false, get: (r) => r[standard] });
			continue;
		}
		const word = raw.replace(/^fields\./i, '');
		const named = /Name$/i.test(word) ? payloadField(word.slice(0, -4)) : undefined;
		const field = payloadField(word) ?? (named?.named ? named : undefined);
		if (!field) {
			const near = nearest(word, [
				...CSV_COLUMNS,
				...[...PAYLOAD_FIELDS.values()].map((f) => f.name),
			]);
			return {
				error: `--columns: no column or payload field is named "${raw}"${near ? `; did you mean ${near}?` : ''}`,
			};
		}
		const key = field === named && !payloadField(word) ? `${field.name}Name` : field.name;
		out.push({ header: key, field: true, get: (r) => r.fields[key] });
	}
	return out;
}

export function pickedHeader(columns: readonly PickedColumn[]): string {
	return columns.map((c) => csvCell(c.header)).join(',');
}

export function pickedLine(
	r: RecordJson,
	columns: readonly PickedColumn[],
	format: ExportFormat,
): string {
	if (format === 'csv') return columns.map((c) => csvCell(c.get(r))).join(',');
	return JSON.stringify(Object.fromEntries(columns.map((c) => [c.header, c.get(r) ?? null])));
}
