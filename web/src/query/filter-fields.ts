// The filter language's fields over the event columns: one entry each, with the help the UI's
// Syntax panel, the autocomplete and the README show. A new field is one more entry here.
import { msg } from '../i18n/render.ts';
import { NTSTATUS } from '../generated/codes.ts';
import { KIND_NAMES } from '../decoder/record-json.ts';
import { filetimeFromIso } from '../decoder/time.ts';
import { FLAG_BYTES, FLAG_ERROR, FLAG_STATUS, NO_PID, type ColumnName } from '../columns/layout.ts';
import { nearest } from '../lib/nearest.ts';
import { FilterError, type Op } from './filter-parser.ts';
import {
	ALWAYS,
	combine,
	flagged,
	lookup,
	markStrings,
	markTypes,
	not,
	numberOf,
	numeric,
	numericOp,
	present,
	compare,
	type FilterContext,
	type Node,
	type RowPredicate,
} from './filter-nodes.ts';
import type { RowOwners } from './owner-join.ts';
import { globMatcher } from './glob.ts';
import { ipMatches, parseIpPattern } from '../net/ip-range.ts';
import { canonicalAddress, parseIp } from '../net/ip.ts';
import { afdTitleZh } from '../decoder/afd-titles.ts';

/** One comparison as the compiler sees it: `field op value`. */
export interface Term {
	readonly field: string;
	readonly op: Op;
	readonly value: string;
	readonly at: number;
	readonly valueAt: number;
}

export interface FieldSpec {
	/** Whether `a..b` ranges apply (numbers and times). */
	readonly ordered?: boolean;
	/** `field op value`. */
	compile(t: Term, ctx: FilterContext): Node;
	/** The field alone: the event has it. */
	readonly has: Node;
	/** The field alone, when what it tests depends on the trace (`marked`). */
	bare?(ctx: FilterContext): Node;
}

const YES = new Set(['yes', 'true', '1', 'on']);
const NO = new Set(['no', 'false', '0', 'off']);

/** Events the user marked (or not): the page's marks, which the command line does not have. */
function markedNode(ctx: FilterContext, yes: boolean, at: number): Node {
	const marks = ctx.marked;
	if (!marks) throw new FilterError(msg('filter.marked-page'), at);
	return {
		cols: [],
		positional: true,
		make: (_c, _f, _o, base = 0) =>
			yes ? (i) => marks.has(base + i) : (i) => !marks.has(base + i),
	};
}

const LEVELS: Record<string, number> = {
	always: 0,
	critical: 1,
	error: 2,
	warning: 3,
	info: 4,
	informational: 4,
	verbose: 5,
};

/**
 * A test on names: `:`/`==` and `!=` take globs, `contains` a substring, `matches` a regular
 * expression; all case-insensitive. Returns the test and whether its result is negated.
 */
export function nameTest(t: Term): { match: (s: string) => boolean; negate: boolean } {
	switch (t.op) {
		case ':':
		case '==':
			return { match: globMatcher(t.value), negate: false };
		case '!=':
			return { match: globMatcher(t.value), negate: true };
		case 'contains': {
			const needle = t.value.toLowerCase();
			return { match: (s) => s.toLowerCase().includes(needle), negate: false };
		}
		case 'matches': {
			let re: RegExp;
			try {
				re = new RegExp(t.value, 'i');
			} catch {
				throw new FilterError(msg('filter.not-regex', { value: t.value }), t.valueAt);
			}
			return { match: (s) => re.test(s), negate: false };
		}
		default:
			throw new FilterError(
				msg('filter.text-ops', { field: t.field, op: t.op }),
				t.at + t.field.length,
			);
	}
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
	throw new FilterError(msg('filter.not-time', { value }), at);
}

/** A numeric field on one column. */
function numberField(col: ColumnName, has: Node = ALWAYS, need = 0): FieldSpec {
	return {
		ordered: true,
		has,
		compile: (t) =>
			numeric(col, numericOp(t.op, t.field, t.at), numberOf(t.value, t.valueAt), need),
	};
}

function addressField(cols: ColumnName[]): FieldSpec {
	return {
		has: present(cols),
		compile: (t, ctx) => {
			if (t.op === 'contains' || t.op === 'matches') {
				const { match } = nameTest(t);
				return lookup(
					cols,
					markStrings(ctx, (s) => parseIp(s) !== null && match(s)),
					false,
				);
			}
			if (t.op !== ':' && t.op !== '==' && t.op !== '!=')
				throw new FilterError(msg('filter.text-ops', { field: t.field, op: t.op }), t.at);
			const pattern = parseIpPattern(t.value);
			if (!pattern) throw new FilterError(msg('filter.not-ip', { value: t.value }), t.valueAt);
			const hit = markStrings(ctx, (s) => {
				const b = parseIp(s);
				return b !== null && ipMatches(pattern, b);
			});
			return lookup(cols, hit, t.op === '!=');
		},
	};
}

function statusNames(test: (name: string) => boolean): Set<number> {
	return new Set(
		Object.entries(NTSTATUS)
			.filter(
				([, s]) =>
					test(s.name) || test(s.name.replace(/^STATUS_/, '')) || (s.wsa !== null && test(s.wsa)),
			)
			.map(([code]) => Number(code) >>> 0),
	);
}

/** A term on the rows' owners (joined at read time: the engine hands them to the predicate). */
function ownerNode(make: (o: RowOwners) => RowPredicate): Node {
	return {
		cols: [],
		owners: true,
		make: (_c, _f, o) => {
			if (!o) throw new Error("owner: the rows' owners were not joined");
			return make(o);
		},
	};
}

/** The fields, by name (lower case). */
export const FIELDS: Readonly<Record<string, FieldSpec>> = {
	event: {
		has: ALWAYS,
		compile: (t, ctx) => {
			const id = /^\d+$/.test(t.value) && t.op !== 'contains' && t.op !== 'matches';
			const { match, negate } = nameTest(t);
			const n = id ? Number(t.value) : null;
			// The Chinese table shows the title: the filter takes what the reader sees too.
			const named = (name: string) => {
				const title = afdTitleZh(name);
				return match(name) || (title !== undefined && match(title));
			};
			return lookup(
				['etype'],
				markTypes(ctx, (x) => (n !== null ? x.id === n && x.kind === 6 : named(x.name))),
				negate,
			);
		},
	},
	id: {
		ordered: true,
		has: ALWAYS,
		compile: (t, ctx) => {
			const op = numericOp(t.op, t.field, t.at);
			const v = numberOf(t.value, t.valueAt);
			return lookup(
				['etype'],
				markTypes(ctx, (x) => compare(op, x.id, v)),
				false,
			);
		},
	},
	kind: {
		has: ALWAYS,
		compile: (t, ctx) => {
			const { match, negate } = nameTest(t);
			return lookup(
				['etype'],
				markTypes(ctx, (x) => match(KIND_NAMES[x.kind] ?? '')),
				negate,
			);
		},
	},
	provider: {
		has: ALWAYS,
		compile: (t, ctx) => {
			const { match, negate } = nameTest(t);
			return lookup(
				['etype'],
				markTypes(ctx, (x) => match(x.providerName ?? '') || match(x.provider ?? '')),
				negate,
			);
		},
	},
	level: {
		ordered: true,
		has: ALWAYS,
		compile: (t) =>
			numeric(
				'level',
				numericOp(t.op, t.field, t.at),
				LEVELS[t.value.toLowerCase()] ?? numberOf(t.value, t.valueAt),
			),
	},
	opcode: numberField('opcode'),
	pid: numberField('pid', present(['pid'], NO_PID)),
	tid: numberField('tid', present(['tid'], NO_PID)),
	cpu: numberField('cpu'),
	process: {
		ordered: true,
		has: present(['process'], NO_PID),
		compile: (t, ctx) => {
			if (/^\d+$/.test(t.value) && t.op !== 'contains' && t.op !== 'matches')
				return numeric('process', numericOp(t.op, t.field, t.at), Number(t.value));
			const { match, negate } = nameTest(t);
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
		},
	},
	owner: {
		ordered: true,
		has: ownerNode((o) => (i) => o.source[i] !== 0),
		compile: (t, ctx) => {
			if (/^\d+$/.test(t.value) && t.op !== 'contains' && t.op !== 'matches') {
				const op = numericOp(t.op, t.field, t.at);
				const v = Number(t.value);
				return ownerNode((o) => (i) => o.source[i] !== 0 && compare(op, o.pid[i]!, v));
			}
			const { match, negate } = nameTest(t);
			const pids = new Set(
				[...ctx.processNames].filter(([, name]) => match(name)).map(([pid]) => pid),
			);
			return ownerNode((o) =>
				negate ? (i) => !pids.has(o.pid[i]!) : (i) => o.source[i] !== 0 && pids.has(o.pid[i]!),
			);
		},
	},
	endpoint: {
		has: present(['endpoint']),
		compile: (t, ctx) => {
			const { match, negate } = nameTest({ ...t, value: t.value.toLowerCase() });
			return lookup(
				['endpoint'],
				markStrings(ctx, (s) => s.startsWith('0x') && match(s)),
				negate,
			);
		},
	},
	addr: addressField(['laddr', 'raddr']),
	laddr: addressField(['laddr']),
	raddr: addressField(['raddr']),
	host: {
		has: present(['raddr']),
		compile: (t, ctx) => {
			// The remote addresses the trace's DNS answers gave a name matching the test.
			const { match, negate } = nameTest(t);
			const names = ctx.hostNames ?? new Map<string, readonly string[]>();
			const hit = markStrings(ctx, (s) => {
				const a = canonicalAddress(s);
				return a !== null && (names.get(a) ?? []).some(match);
			});
			return lookup(['raddr'], hit, negate);
		},
	},
	port: {
		ordered: true,
		has: present(['lport', 'rport']),
		compile: (t) => {
			const op = numericOp(t.op, t.field, t.at);
			const v = numberOf(t.value, t.valueAt);
			const l = numeric('lport', op, v);
			const r = numeric('rport', op, v);
			// port != 80: neither port is 80.
			return combine(op === '!=' ? 'and' : 'or', [l, r]);
		},
	},
	lport: numberField('lport', present(['lport'])),
	rport: numberField('rport', present(['rport'])),
	status: {
		has: flagged(FLAG_STATUS),
		compile: (t) => {
			const v = t.value.toLowerCase();
			if (
				(v === 'error' || v === 'ok' || v === 'success') &&
				(t.op === ':' || t.op === '==' || t.op === '!=')
			) {
				const ne = t.op === '!=';
				const negate = ne !== (v !== 'error');
				return {
					cols: ['flags'],
					make: (c) => {
						const f = c.flags;
						// status:ok means a status was logged and it is not an error.
						if (v !== 'error' && !ne)
							return (i) => (f[i]! & (FLAG_STATUS | FLAG_ERROR)) === FLAG_STATUS;
						return negate ? (i) => (f[i]! & FLAG_ERROR) === 0 : (i) => (f[i]! & FLAG_ERROR) !== 0;
					},
				};
			}
			if (/^(0x[0-9a-f]+|\d+)$/i.test(t.value))
				return numeric(
					'status',
					numericOp(t.op, t.field, t.at),
					numberOf(t.value, t.valueAt) >>> 0,
					FLAG_STATUS,
				);
			const { match, negate } = nameTest(t);
			const values = statusNames(match);
			if (values.size === 0) {
				const near = nearest(
					t.value,
					Object.values(NTSTATUS).flatMap((s) => [s.name, s.name.replace(/^STATUS_/, '')]),
				);
				throw new FilterError(
					near
						? msg('filter.no-status-near', { value: t.value, near })
						: msg('filter.no-status', { value: t.value }),
					t.valueAt,
				);
			}
			const hit: Node = {
				cols: ['status', 'flags'],
				make: (c) => {
					const s = c.status;
					const f = c.flags;
					return (i) => (f[i]! & FLAG_STATUS) !== 0 && values.has(s[i]!);
				},
			};
			return negate ? not(hit) : hit;
		},
	},
	marked: {
		has: ALWAYS,
		bare: (ctx) => markedNode(ctx, true, 0),
		compile: (t, ctx) => {
			const v = t.value.toLowerCase();
			if ((t.op !== ':' && t.op !== '==' && t.op !== '!=') || (!YES.has(v) && !NO.has(v)))
				throw new FilterError(msg('filter.marked-values'), t.valueAt);
			return markedNode(ctx, YES.has(v) !== (t.op === '!='), t.at);
		},
	},
	bytes: numberField('bytes', flagged(FLAG_BYTES), FLAG_BYTES),
	time: {
		ordered: true,
		has: ALWAYS,
		compile: (t, ctx) => {
			const op = numericOp(t.op, t.field, t.at);
			// time:1.5s means from 1.5 s on.
			return numeric(
				'time',
				op === ':' || op === '==' ? '>=' : op,
				parseDuration(t.value, ctx, t.valueAt),
			);
		},
	},
};

export const FILTER_FIELDS = Object.keys(FIELDS);
