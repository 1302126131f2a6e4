// The events table's columns: what each shows, how wide it is, and the filter term a cell stands
// for ("filter on this" / "exclude this"). Users choose which to show; the order is fixed.
import type { RowView } from '../../query/protocol.ts';
import type { PayloadValues } from '../../worker/api.ts';
import { canonicalAddress } from '../../net/ip.ts';
import {
	formatDelta,
	formatFromReference,
	formatOwner,
	formatProcess,
	formatTime,
	LEVEL_NAMES,
	utcIso,
	type TimeMode,
	type TimeReference,
} from './row-format.ts';

export type ColumnId =
	| 'time'
	| 'delta'
	| 'process'
	| 'owner'
	| 'pid'
	| 'tid'
	| 'cpu'
	| 'event'
	| 'level'
	| 'endpoint'
	| 'local'
	| 'remote'
	| 'remoteName'
	| 'bytes'
	| 'status'
	/** A payload field applied as a column from the details pane. */
	| `field:${string}`;

export interface CellContext {
	readonly processNames: ReadonlyMap<number, string>;
	readonly timeMode: TimeMode;
	readonly startFiletime: string;
	/** Remote address (canonical) → host names from the trace's DNS answers. */
	readonly hostNames?: ReadonlyMap<string, readonly string[]>;
	/** The reader's words for names the table shows (the Chinese table); absent: the names. */
	readonly words?: CellWords;
	/** The event the Time column counts from, if one is set. */
	readonly reference?: TimeReference | null;
	/** Each row's previous match's time, by event index (the Δ time column). */
	readonly previousTime?: ReadonlyMap<number, number>;
	/** Payload fields applied as columns, of the rows read so far (by event index). */
	readonly payload?: ReadonlyMap<number, PayloadValues>;
}

/** What the table shows for an event's name, its level and its phase, in the reader's language. */
export interface CellWords {
	event(name: string): string;
	level(name: string): string;
	phase(phase: 'enter' | 'exit'): string;
	/** The name with its phase ("AfdSend (exit)", "发送（退出）"). */
	withPhase(name: string, phase: string): string;
}

export interface Column {
	readonly id: ColumnId;
	readonly label: string;
	/** Its narrowest, in em; it widens to the longest text drawn in it (header included). */
	readonly min: number;
	/** Its widest, in em: longer text is cut with an ellipsis (and shown whole in its title). */
	readonly max: number;
	readonly numeric?: boolean;
	readonly mono?: boolean;
	text(row: RowView, ctx: CellContext): string;
	/** The filter term that selects rows with this cell's value, or null when it is empty. */
	term(row: RowView, ctx: CellContext): string | null;
}

const quote = (s: string) => (/[\s()"]/.test(s) ? `"${s}"` : s);

/**
 * Remote endpoints in canonical form, each parsed once: the column asks for every row drawn, and
 * a trace's rows share few endpoints. Emptied when it grows large (a trace of many endpoints).
 */
const canonicalRemotes = new Map<string, string | null>();

function canonicalRemote(remote: string): string | null {
	let a = canonicalRemotes.get(remote);
	if (a === undefined) {
		if (canonicalRemotes.size >= 4096) canonicalRemotes.clear();
		canonicalRemotes.set(remote, (a = canonicalAddress(remote)));
	}
	return a;
}

/** The name the trace's DNS answers give the row's remote address (the first), or null. */
function remoteName(r: RowView, c: CellContext): string | null {
	if (!r.remote || !c.hostNames) return null;
	const a = canonicalRemote(r.remote);
	return (a !== null && c.hostNames.get(a)?.[0]) || null;
}

/** "[fe80::1]:53" or "10.0.0.5:8081" → address and port terms. */
function addressTerms(text: string | null, addr: string, port: string): string | null {
	if (!text) return null;
	const m = /^\[(.*)\]:(\d+)$/.exec(text) ?? /^(.*):(\d+)$/.exec(text);
	if (!m) return null;
	return `${addr}:${m[1]!.replace(/%.*$/, '')} ${port}:${m[2]}`;
}

/** A cell offered to "filter on this" / "exclude this". */
export interface CellEntry {
	readonly column: string;
	/** The column's id, for its name in the reader's language. */
	readonly id: ColumnId;
	readonly value: string;
	readonly term: string;
}

export function cellEntry(column: Column, row: RowView, ctx: CellContext): CellEntry | null {
	const term = column.term(row, ctx);
	return term === null
		? null
		: {
				column: column.label,
				id: column.id,
				value: column.text(row, ctx),
				term,
			};
}

export const COLUMNS: readonly Column[] = [
	{
		id: 'time',
		label: 'Time',
		min: 6,
		max: 16,
		numeric: true,
		text: (r, c) =>
			c.reference
				? formatFromReference(r, c.reference)
				: formatTime(c.timeMode, c.startFiletime, r.time),
		// The UTC instant is exact (seconds would go through floating point and miss the row).
		term: (r, c) => `time>=${utcIso(c.startFiletime, r.time)}`,
	},
	{
		id: 'delta',
		label: 'Δ time',
		min: 5,
		max: 10,
		numeric: true,
		text: (r, c) => formatDelta(r, c.previousTime),
		// No filter field holds it: it depends on the filter itself.
		term: () => null,
	},
	{
		id: 'process',
		label: 'Process',
		min: 7,
		max: 18,
		text: (r, c) => formatProcess(r, c.processNames),
		term: (r) => (r.process === null ? null : `process:${r.process}`),
	},
	{
		id: 'owner',
		label: 'Owner',
		max: 24,
		min: 8,
		text: (r, c) => formatOwner(r, c.processNames),
		term: (r) => (r.owner === null ? null : `owner:${r.owner}`),
	},
	{
		id: 'pid',
		label: 'PID',
		min: 3,
		max: 6,
		numeric: true,
		text: (r) => (r.pid === null ? '' : String(r.pid)),
		term: (r) => (r.pid === null ? null : `pid:${r.pid}`),
	},
	{
		id: 'tid',
		label: 'TID',
		min: 3,
		max: 6,
		numeric: true,
		text: (r) => (r.tid === null ? '' : String(r.tid)),
		term: (r) => (r.tid === null ? null : `tid:${r.tid}`),
	},
	{
		id: 'cpu',
		label: 'CPU',
		min: 2.5,
		max: 4,
		numeric: true,
		text: (r) => String(r.cpu),
		term: (r) => `cpu:${r.cpu}`,
	},
	{
		id: 'event',
		label: 'Event',
		min: 9,
		max: 26,
		text: (r, c) => {
			const name = c.words ? c.words.event(r.event) : r.event;
			const phase = r.phase && (c.words ? c.words.phase(r.phase) : r.phase);
			if (!phase) return name;
			return c.words ? c.words.withPhase(name, phase) : `${name} (${phase})`;
		},
		term: (r) => `event:${quote(r.event)}`,
	},
	{
		id: 'level',
		label: 'Level',
		min: 3.5,
		max: 6,
		text: (r, c) => {
			const name = LEVEL_NAMES[r.level];
			return name === undefined ? String(r.level) : c.words ? c.words.level(name) : name;
		},
		term: (r) => `level:${LEVEL_NAMES[r.level] ?? r.level}`,
	},
	{
		id: 'endpoint',
		label: 'Endpoint',
		min: 10,
		max: 12,
		mono: true,
		text: (r) => r.endpoint ?? '',
		term: (r) => (r.endpoint ? `endpoint:${r.endpoint}` : null),
	},
	{
		id: 'local',
		label: 'Local',
		min: 6,
		max: 20,
		mono: true,
		text: (r) => r.local ?? '',
		term: (r) => addressTerms(r.local, 'laddr', 'lport'),
	},
	{
		id: 'remote',
		label: 'Remote',
		min: 6,
		max: 24,
		mono: true,
		text: (r) => r.remote ?? '',
		term: (r) => addressTerms(r.remote, 'raddr', 'rport'),
	},
	{
		id: 'remoteName',
		// i18n: data (the header exports and copies write; the page's header is column.remoteName)
		label: 'Remote name',
		min: 6,
		max: 18,
		text: (r, c) => remoteName(r, c) ?? '',
		term: (r, c) => {
			const name = remoteName(r, c);
			return name === null ? null : `host:${quote(name)}`;
		},
	},
	{
		id: 'bytes',
		label: 'Bytes',
		min: 3.5,
		max: 8,
		numeric: true,
		text: (r) => (r.bytes === null ? '' : r.bytes.toLocaleString('en-US')),
		term: (r) => (r.bytes === null ? null : `bytes:${r.bytes}`),
	},
	{
		id: 'status',
		label: 'Status',
		min: 5,
		max: 22,
		text: (r) => r.statusName ?? '',
		term: (r) =>
			r.status === null
				? null
				: r.statusName && !r.statusName.startsWith('0x')
					? `status:${r.statusName}`
					: `status:0x${r.status.toString(16)}`,
	},
];

export const DEFAULT_COLUMNS: readonly ColumnId[] = [
	'time',
	'process',
	'owner',
	'tid',
	'event',
	'level',
	'endpoint',
	'remote',
	'bytes',
	'status',
];

/** The shown columns, in their fixed order, then the payload fields applied as columns. */
export function visibleColumns(ids: readonly ColumnId[], fields: readonly string[] = []): Column[] {
	return [...COLUMNS.filter((c) => ids.includes(c.id)), ...fields.map(payloadColumn)];
}

/** A payload field as a column: its named meaning where it has one, else its value. */
export function payloadColumn(name: string): Column {
	const key = name.replace(/\s+/g, '');
	return {
		id: `field:${name}`,
		label: name,
		min: 5,
		max: 20,
		text: (r, c) => {
			const v = c.payload?.get(r.index)?.[name];
			return v ? (v.meaning ?? v.value) : '';
		},
		term: (r, c) => {
			const v = c.payload?.get(r.index)?.[name];
			return v ? `${key} == ${quote(v.value)}` : null;
		},
	};
}

/** A column's heading: the catalogue's name, a payload field's own. */
export const isPayloadColumn = (id: ColumnId): id is `field:${string}` => id.startsWith('field:');

/** Pixels between two columns and at either end of a row (0.6em of the table's font). */
export const GAP_EM = 0.6;

/**
 * The grid's tracks: each column as wide as its longest text measured so far (`widths`, pixels),
 * within its bounds; the last takes what is left, so the rows reach the table's edge.
 */
export function gridTemplate(
	columns: readonly Column[],
	widths: ReadonlyMap<ColumnId, number>,
): string {
	return columns
		.map((c, k) => {
			const px = widths.get(c.id);
			const track = px === undefined ? `${c.min}em` : `clamp(${c.min}em, ${px}px, ${c.max}em)`;
			return k === columns.length - 1 ? `minmax(${track}, 1fr)` : track;
		})
		.join(' ');
}

/** The rows' width in pixels at font size `em`: the columns' tracks, the gaps and the padding. */
export function rowWidth(
	columns: readonly Column[],
	widths: ReadonlyMap<ColumnId, number>,
	em: number,
): number {
	const tracks = columns.reduce(
		(n, c) => n + Math.min(c.max * em, Math.max(c.min * em, widths.get(c.id) ?? 0)),
		0,
	);
	return Math.ceil(tracks + GAP_EM * em * (columns.length + 1));
}
