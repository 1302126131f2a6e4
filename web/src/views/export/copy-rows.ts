// Selected rows as text for the clipboard, in the table's visible columns: tab-separated values
// (pastes into spreadsheets) or a Markdown table (pastes into tickets and chats).
import type { RowView } from '../../query/protocol.ts';
import type { CellContext, Column } from '../events/columns.ts';

function cells(rows: readonly RowView[], columns: readonly Column[], ctx: CellContext): string[][] {
	return rows.map((r) => columns.map((c) => c.text(r, ctx)));
}

export function rowsAsTsv(
	rows: readonly RowView[],
	columns: readonly Column[],
	ctx: CellContext,
): string {
	// A tab or line break inside a value would shift the cells after it.
	const clean = (s: string) => s.replace(/[\t\r\n]+/g, ' ');
	const lines = [columns.map((c) => c.label), ...cells(rows, columns, ctx)];
	return lines.map((l) => l.map(clean).join('\t')).join('\n') + '\n';
}

export function rowsAsMarkdown(
	rows: readonly RowView[],
	columns: readonly Column[],
	ctx: CellContext,
): string {
	const clean = (s: string) => s.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
	const line = (l: string[]) => `| ${l.map(clean).join(' | ')} |`;
	const rule = `| ${columns.map((c) => (c.numeric ? '---:' : '---')).join(' | ')} |`;
	return (
		[line(columns.map((c) => c.label)), rule, ...cells(rows, columns, ctx).map(line)].join('\n') +
		'\n'
	);
}
