// The events as the table shows them, as CSV: its visible columns in its order, headed as on
// screen, each cell the text the table draws (process and owner names, level and status names,
// the time in the chosen mode). The same cells as copying rows (copy-rows.ts).
import type { RowView } from '../../query/protocol.ts';
import { t } from '../../i18n/locale.svelte.ts';
import { previousTimes } from '../events/row-format.ts';
import { isPayloadColumn, type CellContext, type Column } from '../events/columns.ts';

export interface ScreenTable {
	readonly columns: readonly Column[];
	readonly ctx: CellContext;
}

/** One CSV cell: quoted when it holds a comma, quote or line break. */
function cell(s: string): string {
	return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A column's heading as the table shows it. */
function heading(c: Column, ctx: CellContext): string {
	if (c.id === 'delta') return t('table.delta-s');
	if (isPayloadColumn(c.id)) return c.label;
	if (c.id !== 'time') return t(`column.${c.id}`);
	if (ctx.reference) return t('table.time-ref');
	return ctx.timeMode === 'utc' ? t('table.time-utc') : t('table.time-s');
}

export function screenHeader({ columns, ctx }: ScreenTable): string {
	return columns.map((c) => cell(heading(c, ctx))).join(',') + '\n';
}

/**
 * The lines of rows at positions `first`… of the matches; `before` is the time of the row before
 * them (for the Δ time column), null at the first match.
 */
export function screenLines(
	rows: readonly RowView[],
	{ columns, ctx }: ScreenTable,
	first = 0,
	before: number | null = null,
): string {
	const c = columns.some((k) => k.id === 'delta')
		? { ...ctx, previousTime: previousTimes(rows, first, before) }
		: ctx;
	let out = '';
	for (const r of rows) out += columns.map((k) => cell(k.text(r, c))).join(',') + '\n';
	return out;
}
