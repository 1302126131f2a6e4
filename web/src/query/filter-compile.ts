// Compiles a parsed filter against one trace's tables into a row predicate over column chunks.
// Names (events, providers, processes, statuses, addresses) are resolved once per query into
// lookup arrays indexed by the columns' values, so the per-row work is array reads.
import { NTSTATUS } from '../generated/codes.ts';
import { KIND_NAMES } from '../decoder/record-json.ts';
import { explainStatus } from '../decoder/status.ts';
import { filetimeFromIso } from '../decoder/time.ts';
import {
	FLAG_BYTES,
	FLAG_ERROR,
	FLAG_STATUS,
	type ColumnName,
	type Columns,
	type EventType,
} from '../ingest/columns.ts';
import { FilterError, type FilterNode, type Op } from './filter-parser.ts';
import { globMatcher } from './glob.ts';
import { ipMatches, parseIp, parseIpPattern } from './ip.ts';
import { canonicalAddress } from '../sockets/names.ts';

export interface FilterContext {
	readonly strings: readonly string[];
	readonly eventTypes: readonly EventType[];
	readonly startFiletime: bigint;
	/** Process names by PID, when the trace names them. */
	readonly processNames: ReadonlyMap<number, string>;
	/** Host names by remote address (canonical text, sockets/names.ts), for `host:`. */
	readonly hostNames?: ReadonlyMap<string, readonly string[]>;
}

export type RowPredicate = (i: number) => boolean;

export interface CompiledFilter {
	/** Columns the predicate reads (to load only those). */
	readonly columns: ReadonlySet<ColumnName>;
	bind(c: Columns): RowPredicate;
}

export const FILTER_FIELDS = [
	'event',
	'id',
	'kind',
	'level',
	'provider',
	'opcode',
	'pid',
	'tid',
	'cpu',
	'process',
	'endpoint',
	'addr',
	'laddr',
	'raddr',
	'host',
	'port',
	'lport',
	'rport',
	'status',
	'bytes',
	'time',
] as const;

const LEVELS: Record<string, number> = {
	always: 0,
	critical: 1,
	error: 2,
	warning: 3,
	info: 4,
	informational: 4,
	verbose: 5,
};

type Node = { cols: ColumnName[]; make: (c: Columns) => RowPredicate };

function numberOf(value: string, at: number): number {
	const v = value.trim();
	const n = /^0x[0-9a-f]+$/i.test(v) ? parseInt(v, 16) : Number(v);
	if (!Number.isFinite(n) || v === '') throw new FilterError(`"${value}" is not a number`, at);
	return n;
}

function compare(op: Op, a: number, b: number): boolean {
	switch (op) {
		case ':':
			return a === b;
		case '!=':
			return a !== b;
		case '>':
			return a > b;
		case '>=':
			return a >= b;
		case '<':
			return a < b;
		case '<=':
			return a <= b;
	}
}

/** A numeric comparison on one column, specialised per operator for speed. */
function numeric(col: ColumnName, op: Op, n: number, need = 0): Node {
	return {
		cols: need ? [col, 'flags'] : [col],
		make: (c) => {
			const a = c[col];
			const f = c.flags;
			if (need)
				switch (op) {
					case ':':
						return (i) => a[i] === n && (f[i]! & need) !== 0;
					case '!=':
						return (i) => a[i] !== n && (f[i]! & need) !== 0;
					case '>':
						return (i) => a[i]! > n && (f[i]! & need) !== 0;
					case '>=':
						return (i) => a[i]! >= n && (f[i]! & need) !== 0;
					case '<':
						return (i) => a[i]! < n && (f[i]! & need) !== 0;
					case '<=':
						return (i) => a[i]! <= n && (f[i]! & need) !== 0;
				}
			switch (op) {
				case ':':
					return (i) => a[i] === n;
				case '!=':
					return (i) => a[i] !== n;
				case '>':
					return (i) => a[i]! > n;
				case '>=':
					return (i) => a[i]! >= n;
				case '<':
					return (i) => a[i]! < n;
				case '<=':
					return (i) => a[i]! <= n;
			}
		},
	};
}

/** Rows whose column value (an index into a table) is marked in `hit`. */
function lookup(cols: ColumnName[], hit: Uint8Array, negate: boolean): Node {
	return {
		cols,
		make: (c) => {
			const arrays = cols.map((n) => c[n]);
			if (arrays.length === 1) {
				const a = arrays[0]!;
				return negate ? (i) => hit[a[i]!] !== 1 : (i) => hit[a[i]!] === 1;
			}
			const [a, b] = arrays as [Columns[ColumnName], Columns[ColumnName]];
			return negate
				? (i) => hit[a[i]!] !== 1 && hit[b[i]!] !== 1
				: (i) => hit[a[i]!] === 1 || hit[b[i]!] === 1;
		},
	};
}

function markStrings(ctx: FilterContext, test: (s: string) => boolean): Uint8Array {
	const hit = new Uint8Array(ctx.strings.length + 1);
	ctx.strings.forEach((s, i) => {
		if (i > 0 && test(s)) hit[i] = 1;
	});
	return hit;
}

function markTypes(ctx: FilterContext, test: (t: EventType) => boolean): Uint8Array {
	const hit = new Uint8Array(ctx.eventTypes.length + 1);
	ctx.eventTypes.forEach((t, i) => {
		if (test(t)) hit[i] = 1;
	});
	return hit;
}

function onlyEquality(op: Op, field: string, at: number): boolean {
	if (op !== ':' && op !== '!=')
		throw new FilterError(`${field} takes ":" or "!=", not "${op}"`, at);
	return op === '!=';
}

function parseDuration(value: string, ctx: FilterContext, at: number): number {
	const m = /^(-?[\d.]+)\s*(us|µs|ms|s|m|h)?$/.exec(value);
	if (m) {
		const scale = { us: 10, µs: 10, ms: 1e4, s: 1e7, m: 6e8, h: 3.6e10 }[m[2] ?? 's']!;
		const n = Number(m[1]);
		if (Number.isFinite(n)) return n * scale;
	}
	if (/^\d{4}-\d\d-\d\dT/.test(value)) {
		try {
			const iso = value.endsWith('Z') ? value : `${value}Z`;
			return Number(filetimeFromIso(iso) - ctx.startFiletime);
		} catch {
			// fall through to the error below
		}
	}
	throw new FilterError(`"${value}" is not a time: use 1.5s, 200ms, 30us or an ISO UTC time`, at);
}

function field(n: Extract<FilterNode, { type: 'field' }>, ctx: FilterContext): Node {
	const { op, value, at } = n;
	const valueAt = at + n.field.length + op.length;
	switch (n.field) {
		case 'event': {
			const negate = onlyEquality(op, 'event', at);
			const id = /^\d+$/.test(value) ? Number(value) : null;
			const match = globMatcher(value);
			return lookup(
				['etype'],
				markTypes(ctx, (t) => (id !== null ? t.id === id && t.kind === 6 : match(t.name))),
				negate,
			);
		}
		case 'id': {
			const v = numberOf(value, valueAt);
			return lookup(
				['etype'],
				markTypes(ctx, (t) => compare(op, t.id, v)),
				false,
			);
		}
		case 'kind': {
			const negate = onlyEquality(op, 'kind', at);
			const match = globMatcher(value);
			return lookup(
				['etype'],
				markTypes(ctx, (t) => match(KIND_NAMES[t.kind] ?? '')),
				negate,
			);
		}
		case 'provider': {
			const negate = onlyEquality(op, 'provider', at);
			const match = globMatcher(value);
			return lookup(
				['etype'],
				markTypes(ctx, (t) => match(t.providerName ?? '') || match(t.provider ?? '')),
				negate,
			);
		}
		case 'level': {
			const v = LEVELS[value.toLowerCase()] ?? numberOf(value, valueAt);
			return numeric('level', op, v);
		}
		case 'opcode':
			return numeric('opcode', op, numberOf(value, valueAt));
		case 'pid':
		case 'tid':
		case 'cpu':
			return numeric(n.field, op, numberOf(value, valueAt));
		case 'process': {
			if (/^\d+$/.test(value)) return numeric('process', op, Number(value));
			const negate = onlyEquality(op, 'process', at);
			const match = globMatcher(value);
			const pids = new Set(
				[...ctx.processNames].filter(([, name]) => match(name)).map(([pid]) => pid),
			);
			return {
				cols: ['process'],
				make: (c) => {
					const a = c.process;
					return negate ? (i) => !pids.has(a[i]!) : (i) => pids.has(a[i]!);
				},
			};
		}
		case 'endpoint': {
			const negate = onlyEquality(op, 'endpoint', at);
			const match = globMatcher(value.toLowerCase());
			return lookup(
				['endpoint'],
				markStrings(ctx, (s) => s.startsWith('0x') && match(s)),
				negate,
			);
		}
		case 'addr':
		case 'laddr':
		case 'raddr': {
			const negate = onlyEquality(op, n.field, at);
			const pattern = parseIpPattern(value);
			if (!pattern) throw new FilterError(`"${value}" is not an IP address or CIDR block`, valueAt);
			const hit = markStrings(ctx, (s) => {
				const b = parseIp(s);
				return b !== null && ipMatches(pattern, b);
			});
			const cols: ColumnName[] = n.field === 'addr' ? ['laddr', 'raddr'] : [n.field];
			return lookup(cols, hit, negate);
		}
		case 'host': {
			// The remote addresses the trace's DNS answers gave a name matching the glob.
			const negate = onlyEquality(op, 'host', at);
			const match = globMatcher(value);
			const names = ctx.hostNames ?? new Map<string, readonly string[]>();
			const hit = markStrings(ctx, (s) => {
				const a = canonicalAddress(s);
				return a !== null && (names.get(a) ?? []).some(match);
			});
			return lookup(['raddr'], hit, negate);
		}
		case 'port':
		case 'lport':
		case 'rport': {
			const v = numberOf(value, valueAt);
			if (n.field !== 'port') return numeric(n.field, op, v);
			const l = numeric('lport', op, v);
			const r = numeric('rport', op, v);
			const both = op === '!=';
			return {
				cols: ['lport', 'rport'],
				make: (c) => {
					const a = l.make(c);
					const b = r.make(c);
					return both ? (i) => a(i) && b(i) : (i) => a(i) || b(i);
				},
			};
		}
		case 'status': {
			const v = value.toLowerCase();
			if (v === 'error' || v === 'ok' || v === 'success') {
				const negate = onlyEquality(op, 'status', at) !== (v !== 'error');
				return {
					cols: ['flags'],
					make: (c) => {
						const f = c.flags;
						// status:ok means a status was logged and it is not an error.
						if (v !== 'error' && op === ':')
							return (i) => (f[i]! & (FLAG_STATUS | FLAG_ERROR)) === FLAG_STATUS;
						return negate ? (i) => (f[i]! & FLAG_ERROR) === 0 : (i) => (f[i]! & FLAG_ERROR) !== 0;
					},
				};
			}
			if (/^(0x[0-9a-f]+|\d+)$/i.test(value))
				return numeric('status', op, numberOf(value, valueAt) >>> 0, FLAG_STATUS);
			const negate = onlyEquality(op, 'status', at);
			const match = globMatcher(value);
			const values = new Set(
				Object.entries(NTSTATUS)
					.filter(
						([, s]) =>
							match(s.name) ||
							match(s.name.replace(/^STATUS_/, '')) ||
							(s.wsa !== null && match(s.wsa)),
					)
					.map(([code]) => Number(code) >>> 0),
			);
			if (values.size === 0) throw new FilterError(`no NTSTATUS is named "${value}"`, valueAt);
			return {
				cols: ['status', 'flags'],
				make: (c) => {
					const s = c.status;
					const f = c.flags;
					const hit = (i: number) => (f[i]! & FLAG_STATUS) !== 0 && values.has(s[i]!);
					return negate ? (i) => !hit(i) : hit;
				},
			};
		}
		case 'bytes':
			return numeric('bytes', op, numberOf(value, valueAt), FLAG_BYTES);
		case 'time':
			return numeric('time', op === ':' ? '>=' : op, parseDuration(value, ctx, valueAt));
		default:
			throw new FilterError(`unknown field "${n.field}"; fields: ${FILTER_FIELDS.join(', ')}`, at);
	}
}

function text(value: string, ctx: FilterContext): Node {
	const needle = value.toLowerCase();
	const has = (s: string | null) => s !== null && s.toLowerCase().includes(needle);
	const types = markTypes(ctx, (t) => has(t.name) || has(t.providerName) || has(t.provider));
	const strings = markStrings(ctx, has);
	const pids = new Set([...ctx.processNames].filter(([, name]) => has(name)).map(([pid]) => pid));
	const statuses = new Set(
		Object.entries(NTSTATUS)
			.filter(([, s]) => has(s.name))
			.map(([code]) => Number(code) >>> 0),
	);
	return {
		cols: ['etype', 'endpoint', 'laddr', 'raddr', 'process', 'status', 'flags'],
		make: (c) => (i) =>
			types[c.etype[i]!] === 1 ||
			strings[c.endpoint[i]!] === 1 ||
			strings[c.laddr[i]!] === 1 ||
			strings[c.raddr[i]!] === 1 ||
			pids.has(c.process[i]!) ||
			((c.flags[i]! & FLAG_STATUS) !== 0 && statuses.has(c.status[i]!)),
	};
}

function compileNode(n: FilterNode, ctx: FilterContext): Node {
	switch (n.type) {
		case 'field':
			return field(n, ctx);
		case 'text':
			return text(n.value, ctx);
		case 'not': {
			const inner = compileNode(n.item, ctx);
			return {
				cols: inner.cols,
				make: (c) => {
					const p = inner.make(c);
					return (i) => !p(i);
				},
			};
		}
		case 'and':
		case 'or': {
			const items = n.items.map((x) => compileNode(x, ctx));
			const and = n.type === 'and';
			return {
				cols: items.flatMap((x) => x.cols),
				make: (c) => {
					const ps = items.map((x) => x.make(c));
					if (ps.length === 2) {
						const [a, b] = ps as [RowPredicate, RowPredicate];
						return and ? (i) => a(i) && b(i) : (i) => a(i) || b(i);
					}
					return and ? (i) => ps.every((p) => p(i)) : (i) => ps.some((p) => p(i));
				},
			};
		}
	}
}

/** Compiles a parsed filter; null (an empty expression) matches every row. */
export function compileFilter(node: FilterNode | null, ctx: FilterContext): CompiledFilter | null {
	if (!node) return null;
	const compiled = compileNode(node, ctx);
	return { columns: new Set(compiled.cols), bind: compiled.make };
}

/** The status named for humans: NTSTATUS name (used by group-by and the table). */
export function statusName(value: number): string {
	return explainStatus(value).name;
}
