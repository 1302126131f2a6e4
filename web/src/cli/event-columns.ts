// `decode --columns`: record columns and payload fields (decoder/record-lines.ts), and the
// per-event values the filter language tests (process name, endpoint, addresses, status, bytes,
// host names), read from the same column chunks and under the names of the exported events
// table (export/tables.ts), with the filter's field names as aliases. Those need the column store:
// a decode that asks for them goes through it, as `--filter` does.
import { PAYLOAD_FIELDS } from '../decoder/payload-fields.ts';
import type { RecordJson } from '../decoder/record-json.ts';
import { CSV_COLUMNS, pickColumns, type PickedColumn } from '../decoder/record-lines.ts';
import type { Columns } from '../columns/layout.ts';
import { EVENT_COLUMNS, eventRow } from '../export/tables.ts';
import type { Row } from '../export/table-writer.ts';
import type { FilterContext } from '../query/filter-nodes.ts';
import { FILTER_FIELDS } from '../query/filter-fields.ts';
import { nearest } from '../lib/nearest.ts';

/** Filter fields by the events-table column holding the same value (record columns aside). */
const ALIASES: Readonly<Record<string, string>> = {
	event: 'name',
	raddr: 'remote_address',
	rport: 'remote_port',
	host: 'remote_name',
};

/** Values the exported table has not, computed here: the local address and port apart. */
const EXTRA = ['laddr', 'lport'] as const;

/** Filter fields that hold two values per event, and what to pick instead. */
const TWO_VALUED: Readonly<Record<string, string>> = {
	addr: 'laddr or raddr (or local, remote)',
	port: 'lport or rport',
};

const EVENT_NAMES: readonly string[] = [
	...EVENT_COLUMNS.map((c) => c.name).filter((n) => n !== 'payload'),
	...Object.keys(ALIASES),
	...EXTRA,
];

/** The row being printed, for the columns that read the column store. */
export class EventRowCursor {
	#row: Row = {};

	/** Called for each record before its line is made. */
	set(r: RecordJson, c: Columns, i: number, ctx: FilterContext, index: number): void {
		const row = eventRow(c, i, ctx, r, index);
		row['laddr'] = c.laddr[i] ? ctx.strings[c.laddr[i]!]! : null;
		row['lport'] = c.laddr[i] ? c.lport[i]! : null;
		this.#row = row;
	}

	get(name: string): unknown {
		return this.#row[name] ?? null;
	}
}

export interface DecodeColumns {
	readonly columns: PickedColumn[];
	/** Set when a column reads the column store (the cursor then must be fed each record). */
	readonly cursor: EventRowCursor | null;
}

/**
 * The columns named, in order: a record column (any case), an event column or filter field
 * written in lower case (`process` is the image name, `status` the NTSTATUS the filter tests), or
 * a payload field by its name (any other spelling: `Process` is the payload's EPROCESS pointer).
 */
export function pickDecodeColumns(names: readonly string[]): DecodeColumns | { error: string } {
	const out: PickedColumn[] = [];
	let cursor: EventRowCursor | null = null;
	for (const raw of names) {
		const recordColumn = CSV_COLUMNS.some((c) => c.toLowerCase() === raw.toLowerCase());
		if (!recordColumn && EVENT_NAMES.includes(raw)) {
			const key = ALIASES[raw] ?? raw;
			const rows = (cursor ??= new EventRowCursor());
			out.push({ header: raw, get: () => rows.get(key) });
			continue;
		}
		if (!recordColumn && TWO_VALUED[raw])
			return {
				error: `--columns: ${raw} is a filter field with two values per event; pick ${TWO_VALUED[raw]}`,
			};
		const picked = pickColumns([raw]);
		if ('error' in picked) {
			const near = nearest(raw.replace(/^fields\./i, ''), [
				...CSV_COLUMNS,
				...[...PAYLOAD_FIELDS.values()].map((f) => f.name),
				...EVENT_NAMES,
				...FILTER_FIELDS.filter((f) => !TWO_VALUED[f]),
			]);
			return {
				error: `--columns: no column, filter field or payload field is named "${raw}"${near ? `; did you mean ${near}?` : ''}`,
			};
		}
		out.push(...picked);
	}
	return { columns: out, cursor };
}
