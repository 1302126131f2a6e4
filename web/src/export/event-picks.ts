// The events table (tables.ts) as ColumnWriter writes it straight from a record's buffer: its
// record columns, the columns read from the chunk, and the payload object.
import { FILETIME_INT64, type ColumnPick } from './column-writer.ts';
import { COLUMN_VALUES, EVENT_COLUMNS } from './tables.ts';

/** The record columns of the events table by their names there (ColumnWriter's names). */
const RECORD_COLUMNS: Readonly<Record<string, string>> = {
	filetime: FILETIME_INT64,
	time: 'time',
	kind: 'kind',
	provider: 'provider',
	provider_guid: 'providerGuid',
	id: 'id',
	version: 'version',
	name: 'name',
	level: 'level',
	opcode: 'opcode',
	pid: 'pid',
	tid: 'tid',
	cpu: 'cpu',
};

/** What ColumnWriter writes the events table's column `name` from. */
export function eventPick(name: string): ColumnPick {
	if (name === 'payload') return { header: name, payload: true };
	const fromColumns = COLUMN_VALUES[name];
	if (fromColumns) return { header: name, fromColumns };
	const column = RECORD_COLUMNS[name];
	if (column === undefined) throw new Error(`the events table has no column ${name}`);
	return { header: name, column };
}

/**
 * The events table as ColumnWriter writes it from a record's buffer, line for line what the
 * table writer makes of eventRow in NDJSON and CSV.
 */
export const EVENT_PICKS: readonly ColumnPick[] = EVENT_COLUMNS.map(({ name }) => eventPick(name));
