// The Sockets panel's exports: the sockets, conversations or findings of a trace as Parquet,
// NDJSON or CSV, with the tables (columns and rows) of `sockscope export` (export/tables.ts), in
// pieces handed to `write` one at a time (the page keeps them as Blob parts).
import {
	CONVERSATION_TABLE,
	conversationRow,
	FINDING_TABLE,
	findingRow,
	SOCKET_TABLE,
	socketTableRow,
} from '../export/tables.ts';
import {
	tableWriter,
	type Row,
	type TableColumn,
	type TableFormat,
} from '../export/table-writer.ts';
import { conversationsOf } from '../sockets/conversations.ts';
import { findingsOf } from '../sockets/findings.ts';
import type { TrackedTrace } from '../sockets/tracker.ts';
import type { ExportProgress } from './export-selection.ts';

export const SOCKET_TABLES = ['sockets', 'conversations', 'findings'] as const;
export type SocketTableName = (typeof SOCKET_TABLES)[number];

function tableOf(
	tracked: TrackedTrace,
	table: SocketTableName,
	only: readonly string[] | null,
): { columns: readonly TableColumn[]; rows: Row[] } {
	// The sockets the list shows (its filter or finding), in the trace's order.
	const keys = only ? new Set(only) : null;
	const sockets = keys ? tracked.sockets.filter((s) => keys.has(s.key)) : tracked.sockets;
	switch (table) {
		case 'sockets':
			return { columns: SOCKET_TABLE, rows: sockets.map(socketTableRow) };
		case 'conversations':
			return {
				columns: CONVERSATION_TABLE,
				rows: conversationsOf(sockets).map(conversationRow),
			};
		case 'findings':
			return { columns: FINDING_TABLE, rows: findingsOf(tracked).map(findingRow) };
	}
}

/**
 * Returns the rows written; `write` returns false to stop (the user cancelled). `only`: the keys of
 * the sockets the list shows, which the sockets and conversations are limited to (null: all).
 */
export async function exportSocketTable(
	tracked: TrackedTrace,
	table: SocketTableName,
	format: TableFormat,
	only: readonly string[] | null,
	write: (piece: Uint8Array, progress: ExportProgress) => Promise<boolean> | boolean,
): Promise<{ rows: number; complete: boolean }> {
	const { columns, rows } = tableOf(tracked, table, only);
	let written = 0;
	let stopped = false;
	const writer = tableWriter(format, columns, async (piece) => {
		if (!stopped && !(await write(piece, { rows: written, total: rows.length }))) stopped = true;
	});
	for (const row of rows) {
		if (stopped) return { rows: written, complete: false };
		await writer.add(row);
		written++;
	}
	await writer.close();
	return { rows: written, complete: !stopped };
}
