// A Group by tree as a table for Parquet, NDJSON or CSV (export/table-writer.ts): one row per
// group, parents before their children, its labels in the chosen columns (empty below its
// level), its level, figures (times in seconds since the trace start) and the filter of its rows.
import type { Pivot, PivotColumn, PivotGroup } from '../query/pivot.ts';
import type { Row, TableColumn } from './table-writer.ts';

/** A column's name in the file: `process`, `field:SocketType` → `SocketType`. */
export const pivotFileColumn = (c: PivotColumn): string =>
	c.startsWith('field:') ? c.slice(6) : c;

export function pivotTable(pivot: Pivot): { columns: TableColumn[]; rows: Row[] } {
	const names = pivot.columns.map(pivotFileColumn);
	const columns: TableColumn[] = [
		...names.map((name) => ({ name, type: 'STRING' as const })),
		{ name: 'level', type: 'INT32' },
		{ name: 'count', type: 'INT64' },
		{ name: 'bytesSent', type: 'INT64' },
		{ name: 'bytesReceived', type: 'INT64' },
		{ name: 'errors', type: 'INT64' },
		{ name: 'first', type: 'DOUBLE' },
		{ name: 'last', type: 'DOUBLE' },
		{ name: 'filter', type: 'STRING' },
	];
	const rows: Row[] = [];
	const walk = (groups: readonly PivotGroup[], path: readonly PivotGroup[]) => {
		for (const g of groups) {
			const row: Row = {};
			names.forEach((name, k) => {
				const at = k < path.length ? path[k] : k === path.length ? g : undefined;
				row[name] = at ? at.label : null;
			});
			row.level = path.length + 1;
			row.count = g.count;
			row.bytesSent = g.bytesSent;
			row.bytesReceived = g.bytesReceived;
			row.errors = g.errors;
			row.first = g.first / 1e7;
			row.last = g.last / 1e7;
			row.filter = g.filter;
			rows.push(row);
			if (g.children) walk(g.children, [...path, g]);
		}
	};
	walk(pivot.groups, []);
	return { columns, rows };
}
