// Rows as the table shows them: the columns of each chunk read once for all of its rows asked for,
// each row's owner from the owners' join, strings and names from the trace's tables.
import {
	FLAG_BYTES,
	FLAG_ENTER,
	FLAG_ERROR,
	FLAG_EXIT,
	FLAG_STATUS,
	makeColumns,
	NO_PID,
	type ColumnName,
	type ReadColumns,
} from '../columns/layout.ts';
import { KIND_NAMES } from '../decoder/record-json.ts';
import type { ChunkRow, EventIndex } from '../decoder/units.ts';
import type { ChunkInfo, ColumnCache } from './column-cache.ts';
import { statusName, type FilterContext } from './filter-compile.ts';
import { OWNER_SOURCES, type RowOwners } from './owner-join.ts';
import type { RowView } from './protocol.ts';

const VIEW_COLUMNS = [
	'time',
	'etype',
	'level',
	'opcode',
	'pid',
	'tid',
	'cpu',
	'process',
	'endpoint',
	'laddr',
	'lport',
	'raddr',
	'rport',
	'status',
	'bytes',
	'flags',
] as const satisfies ColumnName[];
type ViewColumn = (typeof VIEW_COLUMNS)[number];

/** Row i of a chunk (global index `index`) as the table shows it. */
function rowView(
	c: Pick<ReadColumns, ViewColumn>,
	owners: RowOwners,
	i: ChunkRow,
	index: EventIndex,
	ctx: FilterContext,
): RowView {
	const t = ctx.eventTypes[c.etype[i]!];
	const f = c.flags[i]!;
	const addr = (a: number, port: number) => {
		if (!a) return null;
		const s = ctx.strings[a]!;
		return s.includes(':') ? `[${s}]:${port}` : `${s}:${port}`;
	};
	const p = c.pid[i]!;
	const proc = c.process[i]!;
	const source = owners.source[i]!;
	return {
		index,
		time: c.time[i]!,
		kind: KIND_NAMES[t?.kind ?? 8] ?? 'unknown',
		event: t?.name ?? '?',
		provider: t?.providerName ?? t?.provider ?? null,
		eventId: t?.id ?? 0,
		level: c.level[i]!,
		opcode: c.opcode[i]!,
		pid: p === NO_PID ? null : p,
		tid: c.tid[i] === NO_PID ? null : c.tid[i]!,
		cpu: c.cpu[i]!,
		process: proc === NO_PID ? null : proc,
		owner: source === 0 ? null : owners.pid[i]!,
		ownerSource: OWNER_SOURCES[source] ?? null,
		endpoint: c.endpoint[i] ? ctx.strings[c.endpoint[i]!]! : null,
		local: addr(c.laddr[i]!, c.lport[i]!),
		remote: addr(c.raddr[i]!, c.rport[i]!),
		bytes: f & FLAG_BYTES ? c.bytes[i]! : null,
		status: f & FLAG_STATUS ? c.status[i]! : null,
		statusName: f & FLAG_STATUS ? statusName(c.status[i]!) : null,
		error: (f & FLAG_ERROR) !== 0,
		phase: f & FLAG_ENTER ? 'enter' : f & FLAG_EXIT ? 'exit' : null,
	};
}

async function viewColumns(
	columns: ColumnCache,
	chunk: number,
): Promise<Pick<ReadColumns, ViewColumn>> {
	const loaded = await columns.columns(chunk, VIEW_COLUMNS);
	return makeColumns(VIEW_COLUMNS, (n) => loaded[VIEW_COLUMNS.indexOf(n)]!) as Pick<
		ReadColumns,
		ViewColumn
	>;
}

/** Display values of events, by index, in the order asked (an index past the end is left out). */
export async function rowViews(
	indexes: readonly EventIndex[],
	chunks: readonly ChunkInfo[],
	columns: ColumnCache,
	owners: (chunk: number) => Promise<RowOwners>,
	ctx: FilterContext,
): Promise<RowView[]> {
	let base = 0;
	let k = 0;
	const sorted = [...indexes].sort((a, b) => a - b);
	const views = new Map<EventIndex, RowView>();
	for (const info of chunks) {
		if (k < sorted.length && sorted[k]! < base + info.rows) {
			// The chunk's columns are read once for all its rows.
			const [c, rowOwners] = await Promise.all([
				viewColumns(columns, info.index),
				owners(info.index),
			]);
			while (k < sorted.length && sorted[k]! < base + info.rows) {
				const g = sorted[k++]!;
				views.set(g, rowView(c, rowOwners, g - base, g, ctx));
			}
		}
		base += info.rows;
		if (k >= sorted.length) break;
	}
	const out: RowView[] = [];
	for (const i of indexes) {
		const v = views.get(i);
		if (v) out.push(v);
	}
	return out;
}
