// Columns picked by name for `sockscope decode --columns`: a record column or a payload field, as
// before (record-lines.ts, whose names keep their meaning), else a column of the events table
// (tables.ts: the values the page's table shows and the filter tests, such as remote, owner,
// status_name), also by the filter field that names it (raddr, rport, host, event).
import {
	CSV_COLUMNS,
	csvCell,
	pickColumns,
	type ExportFormat,
	type PickedColumn,
} from './record-lines.ts';
import type { RecordJson } from '../decoder/record-json.ts';
import { PAYLOAD_FIELDS } from '../decoder/payload-fields.ts';
import { nearest } from '../lib/nearest.ts';
import type { Row } from './table-writer.ts';
import { EVENT_COLUMNS } from './tables.ts';
import type { ColumnPick } from './column-writer.ts';
import { eventPick } from './event-picks.ts';

export interface EventColumn {
	readonly header: string;
	/** Read from the events table's row (eventRow), not from the record alone. */
	readonly row: boolean;
	/** Needs the sockets' owners: a first pass of the tracker. */
	readonly owners: boolean;
	/**
	 * What ColumnWriter writes it from, straight from the record's buffer: a record column or a
	 * key of the record's fields (record-lines.ts) when not `row`, else the events table's.
	 */
	readonly written: ColumnPick;
	get(r: RecordJson, row: Row | null): unknown;
}

/** Filter field names that name a column of the events table by another name. */
const ALIASES: Readonly<Record<string, string>> = {
	raddr: 'remote_address',
	rport: 'remote_port',
	host: 'remote_name',
	event: 'name',
	process_name: 'process',
};

const OWNER_COLUMNS = new Set(['owner_pid', 'owner', 'owner_source']);

function recordColumn(c: PickedColumn): EventColumn {
	return {
		header: c.header,
		row: false,
		owners: false,
		written: c,
		get: (r) => c.get(r),
	};
}

export function pickEventColumns(names: readonly string[]): EventColumn[] | { error: string } {
	const out: EventColumn[] = [];
	for (const raw of names) {
		const picked = pickColumns([raw]);
		if (!('error' in picked)) {
			out.push(recordColumn(picked[0]!));
			continue;
		}
		const key = raw.toLowerCase();
		const name = ALIASES[key] ?? EVENT_COLUMNS.find((c) => c.name === key)?.name;
		if (name === undefined) {
			const near = nearest(raw, [
				...CSV_COLUMNS,
				...[...PAYLOAD_FIELDS.values()].map((f) => f.name),
				...EVENT_COLUMNS.map((c) => c.name),
				...Object.keys(ALIASES),
			]);
			return {
				error: `--columns: no column or payload field is named "${raw}"${near ? `; did you mean ${near}?` : ''}`,
			};
		}
		out.push({
			header: name,
			row: true,
			owners: OWNER_COLUMNS.has(name),
			written: eventPick(name),
			get: (_r, row) => row?.[name] ?? null,
		});
	}
	return out;
}

/** A value as JSON holds it (the events table's INT64 filetime is a bigint). */
const plain = (v: unknown) => (typeof v === 'bigint' ? v.toString() : v);

/** One record's picked columns as a CSV row or an NDJSON line (as record-lines.ts pickedLine). */
export function pickedEventLine(
	r: RecordJson,
	row: Row | null,
	columns: readonly EventColumn[],
	format: ExportFormat,
): string {
	if (format === 'csv') return columns.map((c) => csvCell(plain(c.get(r, row)))).join(',');
	return JSON.stringify(
		Object.fromEntries(columns.map((c) => [c.header, plain(c.get(r, row)) ?? null])),
	);
}
