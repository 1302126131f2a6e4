// Group by, as WPA's tables do: a selection's rows grouped by columns chosen in order (process →
// socket → event by default) into a tree, each group with its count, bytes each way, errors and
// first and last time, and a filter that selects its rows. Pure TypeScript over the engine's
// columns, in one pass; payload fields (columns applied from the details pane) are decoded again
// only for the rows whose event types carry them.
//
// Bytes count as the Statistics panel's do (query/statistics.ts): completed transfers only, and
// not the sends the socket tracker judged counted already (`uncounted`).
import { FLAG_ERROR, FLAG_STATUS, NO_PID, type ColumnName } from '../columns/layout.ts';
import { KIND_NAMES } from '../decoder/record-json.ts';
import { payloadField } from '../decoder/payload-fields.ts';
import type { QueryEngine } from './engine.ts';
import type { Selection } from './protocol.ts';
import type { FilterContext } from './filter-compile.ts';
import { statusName } from './filter-compile.ts';
import { countsAsTransfer, transferDirection } from './statistics.ts';

/** The columns a pivot can group by, besides payload fields (`field:NAME`). */
export const PIVOT_COLUMNS = [
	'process',
	'owner',
	'socket',
	'event',
	'provider',
	'remote',
	'status',
	'kind',
	'level',
	'opcode',
	'pid',
	'tid',
	'cpu',
] as const;
export type BuiltInPivotColumn = (typeof PIVOT_COLUMNS)[number];
/** A column of the table or filter field, or a decoded payload field by name. */
export type PivotColumn = BuiltInPivotColumn | `field:${string}`;

export const DEFAULT_PIVOT: readonly PivotColumn[] = ['process', 'socket', 'event'];

/** Most levels a pivot nests. */
export const MAX_PIVOT_LEVELS = 5;

export interface PivotGroup {
	/** Unique among its siblings. */
	readonly key: string;
	readonly label: string;
	/** Selects this group's rows, with its parents' terms (ANDed). */
	readonly filter: string;
	readonly count: number;
	readonly bytesSent: number;
	readonly bytesReceived: number;
	readonly errors: number;
	/** Ticks since the trace start of its first and last row. */
	readonly first: number;
	readonly last: number;
	/** Its groups at the next level, largest first (null at the last level). */
	readonly children: PivotGroup[] | null;
	/** Groups left out of `children` past the limit. */
	readonly more: number;
}

export interface Pivot {
	readonly columns: readonly PivotColumn[];
	readonly matched: number;
	readonly groups: PivotGroup[];
	/** Top-level groups left out past the limit. */
	readonly more: number;
}

export interface PivotOptions {
	/** Socket (endpoint string index) → its peer (address string index × 65536 + port). */
	readonly remotes?: ReadonlyMap<number, number>;
	readonly uncounted?: ReadonlySet<number>;
	/** Most groups listed under one parent (the rest counted in `more`). */
	readonly limit?: number;
}

/** Whether a text names a pivot column (a built-in one, or a payload field the schemas know). */
export function isPivotColumn(c: string): c is PivotColumn {
	if ((PIVOT_COLUMNS as readonly string[]).includes(c)) return true;
	return c.startsWith('field:') && payloadField(c.slice(6)) !== undefined;
}

const quote = (s: string) => (/[\s()"{},]/.test(s) || s === '' ? `"${s.replace(/"/g, '')}"` : s);

/** No value at this level (the row has no socket, status, remote…): one group of its own. */
const NONE = -1;

interface Acc {
	count: number;
	sent: number;
	received: number;
	errors: number;
	first: number;
	last: number;
	children: Map<number | string, Acc> | null;
}

const newAcc = (leaf: boolean): Acc => ({
	count: 0,
	sent: 0,
	received: 0,
	errors: 0,
	first: Infinity,
	last: -Infinity,
	children: leaf ? null : new Map(),
});

/** The columns each pivot column reads. */
function columnsOf(c: PivotColumn): ColumnName[] {
	switch (c) {
		case 'process':
			return ['process'];
		case 'owner':
			return ['etype', 'endpoint', 'process'];
		case 'socket':
			return ['endpoint'];
		case 'event':
		case 'provider':
		case 'kind':
			return ['etype'];
		case 'remote':
			return ['raddr', 'rport', 'endpoint', 'etype'];
		case 'status':
			return ['status', 'flags'];
		case 'level':
		case 'opcode':
		case 'pid':
		case 'tid':
		case 'cpu':
			return [c];
		default:
			return ['etype'];
	}
}

const BASE_COLUMNS: ColumnName[] = ['time', 'etype', 'flags', 'bytes'];

/** An accept or connect indication names the peer of a new socket, not of the listener's. */
const listenerType = (name: string, afd: boolean) => afd && /Accept|ConnectIndication/.test(name);

/**
 * Groups the rows of `sel` by `columns` (in order). Each group's label and filter name its value;
 * event names group across providers' ids and versions as `event:NAME` selects them.
 */
export async function buildPivot(
	engine: QueryEngine,
	ctx: FilterContext,
	sel: Selection,
	columns: readonly PivotColumn[],
	options: PivotOptions = {},
): Promise<Pivot> {
	const levels = columns.slice(0, MAX_PIVOT_LEVELS);
	const remotes = options.remotes ?? new Map<number, number>();
	const uncounted = options.uncounted ?? new Set<number>();
	const limit = options.limit ?? 500;
	const types = ctx.eventTypes;
	const direction = types.map(transferDirection);
	const listener = types.map((t) => listenerType(t.name, t.afd));
	// Event names and providers are grouped by their text: a name logged under several ids.
	const eventName = new Map<string, number>();
	const eventOf = types.map((t) => {
		const n = t.name;
		if (!eventName.has(n)) eventName.set(n, eventName.size);
		return eventName.get(n)!;
	});
	const eventNames = [...eventName.keys()];
	const providerName = new Map<string, number>();
	const providerOf = types.map((t) => {
		const p = t.providerName ?? t.provider ?? '';
		if (!providerName.has(p)) providerName.set(p, providerName.size);
		return providerName.get(p)!;
	});
	const providerNames = [...providerName.keys()];
	// Kernel records name no provider: their kinds select them.
	const kernelKinds = [
		...new Set(types.filter((t) => !(t.providerName ?? t.provider)).map((t) => t.kind)),
	].map((k) => `kind:${KIND_NAMES[k] ?? 'unknown'}`);
	const fieldLevels = levels.flatMap((c, k) => (c.startsWith('field:') ? [k] : []));
	const fieldTypes = fieldLevels.map((k) => {
		const field = payloadField(levels[k]!.slice(6));
		const schemas = new Set(field?.schemas ?? []);
		return types.map((t) => schemas.has(t.schema));
	});

	const names = [...new Set([...BASE_COLUMNS, ...levels.flatMap(columnsOf)])];
	const root = newAcc(levels.length === 0);
	for (const part of sel.parts) {
		const loaded = await engine.columns(part.chunk, names);
		const col = (n: ColumnName) => loaded[names.indexOf(n)]! as ArrayLike<number>;
		const time = col('time');
		const etype = col('etype');
		const flags = col('flags');
		const bytes = col('bytes');
		const owners = levels.includes('owner') ? await engine.owners(part.chunk) : null;
		const rows: number[] = [];
		if (part.rows) for (let k = 0; k < part.count; k++) rows.push(part.rows[k]!);
		else for (let i = part.from; i < part.to; i++) rows.push(i);
		// Payload values of the rows that carry each field level's field.
		const fieldValues: Map<number, string>[] = [];
		for (const [n, k] of fieldLevels.entries()) {
			const carries = fieldTypes[n]!;
			const wanted = rows.filter((i) => carries[etype[i]!]);
			const values = new Map<number, string>();
			if (wanted.length > 0 && engine.recordFields) {
				const got = await engine.recordFields(part.chunk, wanted);
				const name = payloadField(levels[k]!.slice(6))!.name;
				wanted.forEach((i, j) => {
					const v = got[j]?.[name];
					if (v !== undefined && v !== null) values.set(i, String(v));
				});
			}
			fieldValues.push(values);
		}

		const valueAt = (c: PivotColumn, level: number, i: number): number | string => {
			switch (c) {
				case 'process': {
					const p = col('process')[i]!;
					return p === NO_PID ? NONE : p;
				}
				case 'owner':
					return owners!.source[i] === 0 || owners!.pid[i] === NO_PID ? NONE : owners!.pid[i]!;
				case 'socket':
					return col('endpoint')[i] || NONE;
				case 'event':
					return eventOf[etype[i]!] ?? NONE;
				case 'provider':
					return providerOf[etype[i]!] ?? NONE;
				case 'kind':
					return types[etype[i]!]?.kind ?? NONE;
				case 'remote': {
					const a = col('raddr')[i]!;
					const own = a ? a * 65536 + col('rport')[i]! : 0;
					const e = col('endpoint')[i]!;
					const peer = own !== 0 && !listener[etype[i]!] ? own : (e && remotes.get(e)) || own;
					return peer || NONE;
				}
				case 'status':
					return flags[i]! & FLAG_STATUS ? col('status')[i]! : NONE;
				case 'pid':
				case 'tid': {
					const v = col(c)[i]!;
					return v === NO_PID ? NONE : v;
				}
				case 'level':
				case 'opcode':
				case 'cpu':
					return col(c)[i]!;
				default:
					return fieldValues[fieldLevels.indexOf(level)]!.get(i) ?? NONE;
			}
		};

		for (const i of rows) {
			const t = etype[i]!;
			const f = flags[i]!;
			const dir = direction[t];
			const moved = dir && countsAsTransfer(f) && !uncounted.has(part.base + i) ? bytes[i]! : 0;
			const error = (f & FLAG_ERROR) !== 0;
			const at = time[i]!;
			let acc = root;
			for (let level = 0; ; level++) {
				acc.count++;
				if (dir === 'send') acc.sent += moved;
				else if (dir === 'recv') acc.received += moved;
				if (error) acc.errors++;
				if (at < acc.first) acc.first = at;
				if (at > acc.last) acc.last = at;
				if (level === levels.length) break;
				const v = valueAt(levels[level]!, level, i);
				let next = acc.children!.get(v);
				if (!next) acc.children!.set(v, (next = newAcc(level + 1 === levels.length)));
				acc = next;
			}
		}
	}

	const describe = (c: PivotColumn, v: number | string): { label: string; term: string } => {
		const none = v === NONE;
		switch (c) {
			case 'process':
			case 'owner': {
				if (none) return { label: '—', term: `!${c}` };
				const name = ctx.processNames.get(v as number);
				return {
					label: name ? `${name} (PID ${v})` : `PID ${v}`,
					term: `${c}:${v}`,
				};
			}
			case 'socket':
				if (none) return { label: '—', term: '!endpoint' };
				return { label: ctx.strings[v as number]!, term: `endpoint:${ctx.strings[v as number]}` };
			case 'event':
				return {
					label: eventNames[v as number]!,
					term: `event:${quote(eventNames[v as number]!)}`,
				};
			case 'provider': {
				const p = providerNames[v as number]!;
				return p
					? { label: p, term: `provider:${quote(p)}` }
					: { label: 'kernel', term: `(${kernelKinds.join(' or ')})` };
			}
			case 'kind': {
				const k = KIND_NAMES[v as number] ?? 'unknown';
				return { label: k, term: `kind:${k}` };
			}
			case 'remote': {
				if (none) return { label: '—', term: '!raddr' };
				const ip = ctx.strings[Math.floor((v as number) / 65536)] ?? '?';
				const port = (v as number) % 65536;
				const label = ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
				const sockets = [...remotes].filter(([, r]) => r === v).map(([e]) => ctx.strings[e]!);
				// A stream's sends carry no address: its sockets name them, when few enough.
				const term =
					sockets.length > 0 && sockets.length <= 12
						? `(raddr:${ip} rport:${port} or ${sockets.map((s) => `endpoint:${s}`).join(' or ')})`
						: `raddr:${ip} rport:${port}`;
				return { label, term };
			}
			case 'status':
				if (none) return { label: '—', term: '!status' };
				return {
					label: statusName(v as number),
					term: `status:0x${(v as number).toString(16)}`,
				};
			case 'pid':
			case 'tid':
				if (none) return { label: '—', term: `!${c}` };
				return { label: String(v), term: `${c}:${v}` };
			case 'level':
			case 'opcode':
			case 'cpu':
				return { label: String(v), term: `${c}:${v}` };
			default: {
				const name = payloadField(c.slice(6))!.name.replace(/\s+/g, '');
				if (none) return { label: '—', term: `!${name}` };
				return { label: String(v), term: `${name} == ${quote(String(v))}` };
			}
		}
	};

	const out = (acc: Acc, level: number, parent: string): [PivotGroup[], number] => {
		if (!acc.children) return [[], 0];
		const c = levels[level]!;
		const sorted = [...acc.children].sort(
			(a, b) => b[1].count - a[1].count || String(a[0]).localeCompare(String(b[0])),
		);
		const groups = sorted.slice(0, limit).map(([v, a]) => {
			const { label, term } = describe(c, v);
			const filter = parent ? `${parent} ${term}` : term;
			const [children, more] = out(a, level + 1, filter);
			return {
				key: `${typeof v}:${v}`,
				label,
				filter,
				count: a.count,
				bytesSent: a.sent,
				bytesReceived: a.received,
				errors: a.errors,
				first: a.first,
				last: a.last,
				children: a.children ? children : null,
				more,
			};
		});
		return [groups, Math.max(0, sorted.length - limit)];
	};
	const [groups, more] = out(root, 0, '');
	return { columns: levels, matched: sel.matched, groups, more };
}
