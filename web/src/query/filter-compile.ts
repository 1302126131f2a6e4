// Compiles a parsed filter against one trace's tables into a row predicate over column chunks.
// Fields over columns are in filter-fields.ts; payload fields by name in filter-payload.ts.
import { msg } from '../i18n/render.ts';
import { explainStatus } from '../decoder/status.ts';
import { PAYLOAD_FIELDS, payloadField } from '../decoder/payload-fields.ts';
import { NTSTATUS } from '../generated/codes.ts';
import { FLAG_STATUS, type ColumnName, type ReadColumns } from '../columns/layout.ts';
import { nearest } from '../lib/nearest.ts';
import { FIELDS, FILTER_FIELDS, type Term } from './filter-fields.ts';
import {
	combine,
	markStrings,
	markTypes,
	not,
	scanOf,
	type FilterContext,
	type Node,
	type RecordFields,
	type RowPredicate,
	type RowScan,
} from './filter-nodes.ts';
import { FilterError, type FieldNode, type FilterNode } from './filter-parser.ts';
import { payloadTerm } from './filter-payload.ts';
import type { RowOwners } from './owner-join.ts';

export type { FilterContext, RecordFields, RowPredicate, RowScan };
export { FILTER_FIELDS };

export interface CompiledFilter {
	/** Columns the predicate reads (to load only those). */
	readonly columns: ReadonlySet<ColumnName>;
	/**
	 * Event types (by etype) whose records a term on a payload field reads, or null when no term
	 * does: only rows of these types need their record decoded and passed as `fields`.
	 */
	readonly payloadTypes: Uint8Array | null;
	/** The payload keys those terms read: the records' other fields need not be made. */
	readonly payloadKeys: ReadonlySet<string> | null;
	/** Whether the predicate reads the rows' owners: then bind() needs them. */
	readonly owners: boolean;
	/** Whether the predicate reads which row it tests (`marked`), not only its values. */
	readonly positional: boolean;
	/** `base`: the index in the trace of the chunk's row 0. */
	bind(c: ReadColumns, fields?: RecordFields, owners?: RowOwners, base?: number): RowPredicate;
	/** The same test as a scan over a selection vector of the chunk's rows (scan-kernels.ts). */
	scan(c: ReadColumns, fields?: RecordFields, owners?: RowOwners, base?: number): RowScan;
}

const NO_FIELDS: RecordFields = () => null;

/** Every name a field can be written with, for "did you mean". */
function knownNames(): string[] {
	return [...FILTER_FIELDS, ...[...PAYLOAD_FIELDS.values()].map((f) => f.name.replace(/\s+/g, ''))];
}

function unknownField(field: string, at: number): FilterError {
	const near = nearest(field, knownNames());
	return new FilterError(
		near
			? msg('filter.unknown-field-near', { field, near })
			: msg('filter.unknown-field', { field, fields: FILTER_FIELDS.join(', ') }),
		at,
	);
}

/** `a..b` in a value: the two ends, when both are there. */
function rangeOf(value: string): [string, string] | null {
	const m = /^(.+?)\.\.(.+)$/.exec(value);
	return m && !m[1]!.endsWith('.') ? [m[1]!, m[2]!] : null;
}

function fieldTerm(t: Term, ctx: FilterContext): Node {
	const key = t.field.toLowerCase();
	const spec = Object.hasOwn(FIELDS, key) ? FIELDS[key] : undefined;
	const payload = spec ? undefined : payloadField(t.field);
	if (!spec && !payload) throw unknownField(t.field, t.at);
	const one = (x: Term) => (spec ? spec.compile(x, ctx) : payloadTerm(payload!, x, ctx));
	const range = (t.op === ':' || t.op === '==' || t.op === '!=') && rangeOf(t.value);
	if (range && (spec?.ordered ?? true)) {
		const [lo, hi] = range;
		const inside = combine('and', [
			one({ ...t, op: '>=', value: lo }),
			one({ ...t, op: '<=', value: hi, valueAt: t.valueAt + lo.length + 2 }),
		]);
		return t.op === '!=' ? not(inside) : inside;
	}
	return one(t);
}

function setTerm(n: FieldNode, ctx: FilterContext): Node {
	let at = n.valueAt + 1;
	return combine(
		'or',
		n.items!.map((value) => {
			const valueAt = n.valueAt + Math.max(1, n.value.indexOf(value, at - n.valueAt));
			at = valueAt + value.length;
			return fieldTerm({ field: n.field, op: ':', value, at: n.at, valueAt }, ctx);
		}),
	);
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

/** A bare word that names a field tests that the event has it; any other is a text search. */
function word(n: Extract<FilterNode, { type: 'text' }>, ctx: FilterContext): Node {
	if (!n.quoted && /^[A-Za-z_]\w*$/.test(n.value)) {
		const key = n.value.toLowerCase();
		if (Object.hasOwn(FIELDS, key)) return FIELDS[key]!.bare?.(ctx) ?? FIELDS[key]!.has;
		const payload = payloadField(n.value);
		if (payload) return payloadTerm(payload, null, ctx);
	}
	return text(n.value, ctx);
}

function compileNode(n: FilterNode, ctx: FilterContext): Node {
	switch (n.type) {
		case 'field':
			return n.items ? setTerm(n, ctx) : fieldTerm(n, ctx);
		case 'text':
			return word(n, ctx);
		case 'not':
			return not(compileNode(n.item, ctx));
		case 'and':
		case 'or':
			return combine(
				n.type,
				n.items.map((x) => compileNode(x, ctx)),
			);
	}
}

/** Compiles a parsed filter; null (an empty expression) matches every row. */
export function compileFilter(node: FilterNode | null, ctx: FilterContext): CompiledFilter | null {
	if (!node) return null;
	const compiled = compileNode(node, ctx);
	return {
		columns: new Set(compiled.cols),
		payloadTypes: compiled.payload ?? null,
		payloadKeys: compiled.payload ? new Set(compiled.payloadKeys) : null,
		owners: compiled.owners ?? false,
		positional: compiled.positional ?? false,
		bind: (c, fields = NO_FIELDS, owners, base = 0) => compiled.make(c, fields, owners, base),
		scan: (c, fields = NO_FIELDS, owners, base = 0) => scanOf(compiled, c, fields, owners, base),
	};
}

/** Names already worked out, by status: a trace's rows repeat a few statuses millions of times. */
const STATUS_NAMES = new Map<number, string>();
/** Kept up to this many (a hostile trace may hold any number of statuses). */
const STATUS_NAMES_KEPT = 4096;

/** The status named for humans: NTSTATUS name (used by group-by, the table and the exports). */
export function statusName(value: number): string {
	let name = STATUS_NAMES.get(value);
	if (name === undefined) {
		name = explainStatus(value).name;
		if (STATUS_NAMES.size < STATUS_NAMES_KEPT) STATUS_NAMES.set(value, name);
	}
	return name;
}
