// The events of a selection as one Parquet file, with the columns of `sockscope export`'s events
// table (the owner joined from the sockets, as the Owner column shows it). Each row group (65,536
// rows) is encoded and handed to `write` as it fills, so the worker holds one row group at a
// time; the page keeps the pieces as Blob parts.
import { EVENT_COLUMNS, eventRow } from '../export/tables.ts';
import { tableWriter } from '../export/table-writer.ts';
import { makeColumns, type ColumnName, type ReadColumns } from '../columns/layout.ts';
import type { QueryEngine } from '../query/engine.ts';
import type { Selection } from '../query/protocol.ts';
import type { FilterContext } from '../query/filter-nodes.ts';
import type { ExportProgress } from './export-selection.ts';
import type { RecordReader } from './record-reader.ts';

/** The columns eventRow reads besides the decoded record. */
const NEEDED: readonly ColumnName[] = [
	'flags',
	'process',
	'endpoint',
	'laddr',
	'lport',
	'raddr',
	'rport',
	'bytes',
	'status',
];

export async function exportParquet(
	sel: Selection,
	reader: RecordReader,
	engine: QueryEngine,
	ctx: FilterContext,
	write: (piece: Uint8Array, progress: ExportProgress) => Promise<boolean> | boolean,
): Promise<{ rows: number; complete: boolean }> {
	let rows = 0;
	let stopped = false;
	const table = tableWriter('parquet', EVENT_COLUMNS, async (piece) => {
		if (!(await write(piece, { rows, total: sel.matched }))) stopped = true;
	});
	for (const part of sel.parts) {
		const loaded = await Promise.all(NEEDED.map((n) => engine.column(part.chunk, n)));
		const c = makeColumns(NEEDED, (n) => loaded[NEEDED.indexOf(n)]!) as ReadColumns;
		const owners = await engine.owners(part.chunk);
		for (let k = 0; k < part.count; k++) {
			const row = part.rows ? part.rows[k]! : part.from + k;
			// Straight from the record's buffer, else from its record object.
			const at = { c, i: row, ctx, index: part.base + row, owners };
			let made = reader.tableRowNow(part.chunk, row, at);
			if (made === undefined) made = await reader.tableRow(part.chunk, row, at);
			if (!made) {
				const r = await reader.json(part.chunk, row);
				// A record that no longer decodes is skipped, as in the other exports.
				if (!r) continue;
				made = eventRow(c, row, ctx, r, part.base + row, owners);
			}
			const adding = table.add(made);
			if (adding) await adding;
			rows++;
			if (stopped) return { rows, complete: false };
		}
	}
	await table.close();
	return { rows, complete: !stopped };
}
