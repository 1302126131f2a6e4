// Queries over a trace's column chunks: select rows matching a filter and a time range, then
// count them, page through them, bin them over time and group them. Pure TypeScript: runs in
// the worker over IndexedDB chunks and in Node over chunks held in memory.
import { msg } from '../i18n/render.ts';
import {
	FLAG_BYTES,
	FLAG_ENTER,
	FLAG_ERROR,
	FLAG_EXIT,
	FLAG_STATUS,
	makeColumns,
	NO_PID,
	ticksSaturate,
	type ColumnName,
	type Columns,
} from '../columns/layout.ts';
import { CATEGORIES, type HistogramCategory } from '../columns/categories.ts';
import { KIND_NAMES } from '../decoder/record-json.ts';
import {
	compileFilter,
	statusName,
	type FilterContext,
	type RecordFields,
} from './filter-compile.ts';
import { FilterError, parseFilter } from './filter-parser.ts';
import { CountTable } from '../lib/count-table.ts';
import { LruCache } from './lru.ts';
import {
	OWNER_INPUTS,
	OWNER_SOURCES,
	OwnerJoin,
	type OwnerSource,
	type RowOwners,
} from './owner-join.ts';
import type { EventOwners } from '../columns/event-owners.ts';

export interface ChunkInfo {
	readonly index: number;
	readonly rows: number;
	readonly tMin: number;
	readonly tMax: number;
}

/** Where the chunks come from: IndexedDB in the browser, memory in tests and the CLI. */
export interface ChunkSource {
	chunks(): readonly ChunkInfo[];
	column<K extends ColumnName>(chunk: number, name: K): Promise<Columns[K]>;
}

export interface TimeRange {
	/** Ticks since StartTime, inclusive. */
	readonly from: number;
	/** Exclusive. */
	readonly to: number;
}

interface ChunkSelection {
	readonly chunk: number;
	readonly first: number;
	/** Global row index of the chunk's row 0. */
	readonly base: number;
	/** Matching local rows, or null for every row in [from, to). */
	readonly rows: Uint16Array | null;
	readonly from: number;
	readonly to: number;
	readonly count: number;
}

export interface Selection {
	readonly filter: string;
	readonly range: TimeRange | null;
	readonly total: number;
	readonly matched: number;
	readonly parts: readonly ChunkSelection[];
}

export interface RowView {
	readonly index: number;
	readonly time: number;
	readonly kind: string;
	readonly event: string;
	readonly provider: string | null;
	readonly eventId: number;
	readonly level: number;
	readonly opcode: number;
	readonly pid: number | null;
	readonly tid: number | null;
	readonly cpu: number;
	readonly process: number | null;
	/**
	 * The process that owns the event: its socket's or TCP connection's once the sockets are
	 * known, else its own record's (the Process column); null when none is known.
	 */
	readonly owner: number | null;
	readonly ownerSource: OwnerSource | null;
	readonly endpoint: string | null;
	readonly local: string | null;
	readonly remote: string | null;
	readonly bytes: number | null;
	readonly status: number | null;
	readonly statusName: string | null;
	readonly error: boolean;
	readonly phase: 'enter' | 'exit' | null;
}

export interface Histogram {
	readonly from: number;
	readonly to: number;
	readonly bins: number;
	/** Counts per category (connect/accept, send/recv, other, errors), each `bins` long. */
	readonly series: Record<HistogramCategory, number[]>;
}

export type { HistogramCategory };
export type GroupKey = 'event' | 'process' | 'remote' | 'status' | 'provider' | 'endpoint';

export interface Group {
	readonly key: string;
	readonly label: string;
	readonly count: number;
	/** A filter expression selecting this group's rows. */
	readonly filter: string;
}

/**
 * The payload fields of rows of a chunk, decoded again from their records (null for a record that
 * no longer decodes): what a filter on a payload field by name tests.
 */
export type FieldsOfRows = (
	chunk: number,
	rows: readonly number[],
) => Promise<(Readonly<Record<string, unknown>> | null)[]>;

/** Whether a chunk holds times in the range. */
function overlaps(info: ChunkInfo, range: TimeRange): boolean {
	return info.tMax >= range.from && info.tMin < range.to;
}

/** Chunks whose columns a loop over chunks reads ahead of the one it is at. */
const READ_AHEAD = 16;

export class Superseded extends Error {
	constructor() {
		super('superseded by a newer query');
	}
}

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
	c: Pick<Columns, ViewColumn>,
	owners: RowOwners,
	i: number,
	index: number,
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

export class QueryEngine {
	readonly #source: ChunkSource;
	readonly #ctx: () => FilterContext;
	readonly #cache: LruCache<Columns[ColumnName]>;
	/** Columns being read, so that a read ahead and the read that needs it are one. */
	readonly #loading = new Map<string, Promise<Columns[ColumnName]>>();
	#generation = 0;
	#owners = new OwnerJoin(null);
	/** Owner columns per chunk, made by the join (dropped when the owners table changes). */
	readonly #ownerCache = new LruCache<RowOwners>(16 << 20);
	/** Set by whoever can decode records (the worker, the CLI): filters on payload fields need it. */
	recordFields: FieldsOfRows | null = null;

	constructor(source: ChunkSource, context: () => FilterContext, cacheBytes = 192 << 20) {
		this.#source = source;
		this.#ctx = context;
		this.#cache = new LruCache(cacheBytes);
	}

	get cachedBytes(): number {
		return this.#cache.bytes;
	}

	async column<K extends ColumnName>(chunk: number, name: K): Promise<Columns[K]> {
		const key = `${chunk}:${name}`;
		const hit = this.#cache.get(key) as Columns[K] | undefined;
		if (hit) return hit;
		let loading = this.#loading.get(key);
		if (!loading) {
			loading = this.#source.column(chunk, name).then((a) => {
				this.#cache.set(key, a, a.byteLength);
				return a;
			});
			const settled = () => void this.#loading.delete(key);
			loading.then(settled, settled);
			this.#loading.set(key, loading);
		}
		return loading as Promise<Columns[K]>;
	}

	/**
	 * Starts reading the columns the next few chunks of a loop will need, while this one is
	 * worked on: a chunk's columns come from storage in a few milliseconds, most of it waiting,
	 * and one at a time that waiting added up to most of a first query over a large trace.
	 */
	#readAhead(
		chunks: readonly number[],
		at: number,
		names: readonly ColumnName[] | ((chunk: number) => readonly ColumnName[]),
	): void {
		for (let k = at + 1; k <= at + READ_AHEAD && k < chunks.length; k++) {
			const chunk = chunks[k]!;
			for (const name of typeof names === 'function' ? names(chunk) : names)
				// A failure is met, and reported, where the column is needed.
				this.column(chunk, name).catch(() => {});
		}
	}

	/**
	 * The sockets' owners table (null: none yet): from now on each row's owner is its socket's or
	 * connection's where they know it.
	 */
	setOwners(owners: EventOwners | null): void {
		this.#owners = new OwnerJoin(owners);
		this.#ownerCache.clear();
	}

	/** Whether the owners table has been set (the Owner column then reads the sockets). */
	get ownersKnown(): boolean {
		return this.#owners.known;
	}

	/** The owners of a chunk's rows (joined at read time, query/owner-join.ts). */
	async owners(chunk: number): Promise<RowOwners> {
		const join = this.#owners;
		const key = String(chunk);
		const hit = this.#ownerCache.get(key);
		if (hit) return hit;
		const [etype, endpoint, process] = await Promise.all(
			OWNER_INPUTS.map((n) => this.column(chunk, n)),
		);
		let base = 0;
		let rows = 0;
		for (const c of this.#source.chunks()) {
			if (c.index === chunk) {
				rows = c.rows;
				break;
			}
			base += c.rows;
		}
		const ctx = this.#ctx();
		const owners = join.columns(
			{ etype: etype as Columns['etype'], endpoint: endpoint!, process: process! },
			rows,
			base,
			ctx,
		);
		// A table set meanwhile made another join: this answer is not kept.
		if (join === this.#owners) this.#ownerCache.set(key, owners, rows * 5);
		return owners;
	}

	/** Caches a column an import has just written (the timeline reads it at the next refresh). */
	prime<K extends ColumnName>(chunk: number, name: K, column: Columns[K]): void {
		this.#cache.set(`${chunk}:${name}`, column, column.byteLength);
	}

	/** Marks every query before this one as superseded: their loops stop at the next chunk. */
	begin(): number {
		return ++this.#generation;
	}

	#check(generation: number | undefined): void {
		if (generation !== undefined && generation !== this.#generation) throw new Superseded();
	}

	/** Rows [from, to) of a chunk inside a time range (rows are in time order). */
	async #rowsInRange(info: ChunkInfo, range: TimeRange | null): Promise<[number, number]> {
		if (!range || (info.tMin >= range.from && info.tMax < range.to)) return [0, info.rows];
		if (!overlaps(info, range)) return [0, 0];
		const time = await this.column(info.index, 'time');
		const lowerBound = (x: number) => {
			let lo = 0;
			let hi = info.rows;
			while (lo < hi) {
				const mid = (lo + hi) >> 1;
				if (time[mid]! < x) lo = mid + 1;
				else hi = mid;
			}
			return lo;
		};
		return [lowerBound(range.from), lowerBound(range.to)];
	}

	/** Parses, compiles and runs a filter; throws FilterError for a bad expression. */
	async select(
		filter: string,
		range: TimeRange | null = null,
		generation?: number,
	): Promise<Selection> {
		const compiled = compileFilter(parseFilter(filter), this.#ctx());
		const parts: ChunkSelection[] = [];
		let total = 0;
		let matched = 0;
		const chunks = this.#source.chunks();
		const names = compiled ? [...compiled.columns] : [];
		const wanted = chunks.filter((c) => !range || overlaps(c, range)).map((c) => c.index);
		let next = 0;
		for (const info of chunks) {
			this.#check(generation);
			if (names.length > 0 && wanted[next] === info.index) this.#readAhead(wanted, next++, names);
			const base = total;
			total += info.rows;
			const [from, to] = await this.#rowsInRange(info, range);
			if (from >= to) continue;
			if (!compiled) {
				parts.push({
					chunk: info.index,
					first: matched,
					base,
					rows: null,
					from,
					to,
					count: to - from,
				});
				matched += to - from;
				continue;
			}
			const loaded = await Promise.all(names.map((name) => this.column(info.index, name)));
			const columns = makeColumns(names, (name) => loaded[names.indexOf(name)]!) as Columns;
			const test = compiled.bind(
				columns,
				compiled.payloadTypes
					? await this.#payloadOf(info.index, columns.etype, compiled.payloadTypes, from, to)
					: undefined,
				compiled.owners ? await this.owners(info.index) : undefined,
				base,
			);
			const hits = new Uint16Array(to - from);
			let n = 0;
			for (let i = from; i < to; i++) if (test(i)) hits[n++] = i;
			if (n === 0) continue;
			parts.push({
				chunk: info.index,
				first: matched,
				base,
				rows: hits.slice(0, n),
				from,
				to,
				count: n,
			});
			matched += n;
		}
		return { filter, range, total, matched, parts };
	}

	/** The payload fields of the rows in [from, to) whose event types a filter reads them of. */
	async #payloadOf(
		chunk: number,
		etype: Columns['etype'],
		types: Uint8Array,
		from: number,
		to: number,
	): Promise<RecordFields> {
		const rows: number[] = [];
		for (let i = from; i < to; i++) if (types[etype[i]!] === 1) rows.push(i);
		if (rows.length === 0) return () => null;
		if (!this.recordFields) throw new FilterError(msg('filter.payload-needs-file'), 0);
		const got = await this.recordFields(chunk, rows);
		const byRow = new Map(rows.map((r, k) => [r, got[k] ?? null]));
		return (i) => byRow.get(i) ?? null;
	}

	/** Global row indexes of matches [offset, offset + limit). */
	indexes(sel: Selection, offset: number, limit: number): number[] {
		const out: number[] = [];
		let lo = 0;
		let hi = sel.parts.length - 1;
		while (lo < hi) {
			const mid = (lo + hi + 1) >> 1;
			if (sel.parts[mid]!.first <= offset) lo = mid;
			else hi = mid - 1;
		}
		for (let p = lo; p < sel.parts.length && out.length < limit; p++) {
			const part = sel.parts[p]!;
			for (let k = Math.max(0, offset - part.first); k < part.count && out.length < limit; k++)
				out.push(part.base + (part.rows ? part.rows[k]! : part.from + k));
		}
		return out;
	}

	/** Position of a global row in the selection, or -1. */
	positionOf(sel: Selection, row: number): number {
		for (const part of sel.parts) {
			const local = row - part.base;
			if (local < part.from || local >= part.to) continue;
			if (!part.rows) return part.first + local - part.from;
			let lo = 0;
			let hi = part.count - 1;
			while (lo <= hi) {
				const mid = (lo + hi) >> 1;
				const v = part.rows[mid]!;
				if (v === local) return part.first + mid;
				if (v < local) lo = mid + 1;
				else hi = mid - 1;
			}
			return -1;
		}
		return -1;
	}

	/** Display values of rows, by global index. */
	async rows(indexes: readonly number[]): Promise<RowView[]> {
		const ctx = this.#ctx();
		const chunks = this.#source.chunks();
		let base = 0;
		let k = 0;
		const sorted = [...indexes].sort((a, b) => a - b);
		const views = new Map<number, RowView>();
		for (const info of chunks) {
			if (k < sorted.length && sorted[k]! < base + info.rows) {
				// The chunk's columns are read once for all its rows.
				const [c, owners] = await Promise.all([
					this.#viewColumns(info.index),
					this.owners(info.index),
				]);
				while (k < sorted.length && sorted[k]! < base + info.rows) {
					const g = sorted[k++]!;
					views.set(g, rowView(c, owners, g - base, g, ctx));
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

	async #viewColumns(chunk: number): Promise<Pick<Columns, ViewColumn>> {
		const loaded = await Promise.all(VIEW_COLUMNS.map((n) => this.column(chunk, n)));
		return makeColumns(VIEW_COLUMNS, (n) => loaded[VIEW_COLUMNS.indexOf(n)]!) as Pick<
			Columns,
			ViewColumn
		>;
	}

	async histogram(
		sel: Selection,
		from: number,
		to: number,
		bins: number,
		generation?: number,
	): Promise<Histogram> {
		// Counts go into one flat array, category-major; each event's category is stored with it
		// (the `cat` column) and its time as ticks since its chunk's start: five bytes per event.
		const counts = new Float64Array(CATEGORIES.length * bins);
		const scale = bins / (to - from || 1);
		const last = bins - 1;
		const infos = new Map(this.#source.chunks().map((c) => [c.index, c]));
		const chunks = sel.parts.map((p) => p.chunk);
		const timesOf = (chunk: number): ColumnName[] =>
			ticksSaturate(infos.get(chunk)!) ? ['time', 'cat'] : ['tick', 'cat'];
		for (const [k, part] of sel.parts.entries()) {
			this.#check(generation);
			const info = infos.get(part.chunk)!;
			this.#readAhead(chunks, k, timesOf);
			const wide = ticksSaturate(info);
			const [time, cat] = await Promise.all([
				wide ? this.column(part.chunk, 'time') : this.column(part.chunk, 'tick'),
				this.column(part.chunk, 'cat'),
			]);
			// Times as offsets from the chunk's start (0 when the column holds whole times).
			const base = wide ? 0 : info.tMin;
			const lo = from - base;
			const hi = to - base;
			const rows = part.rows;
			const n = rows ? part.count : part.to - part.from;
			for (let k = 0; k < n; k++) {
				const i = rows ? rows[k]! : part.from + k;
				const t = time[i]!;
				if (t < lo || t >= hi) continue;
				let b = ((t - lo) * scale) | 0;
				if (b > last) b = last;
				counts[cat[i]! * bins + b]!++;
			}
		}
		const series = Object.fromEntries(
			CATEGORIES.map((c, k) => [c, Array.from(counts.subarray(k * bins, (k + 1) * bins))]),
		) as Record<HistogramCategory, number[]>;

		return { from, to, bins, series };
	}

	async groupBy(sel: Selection, key: GroupKey, limit = 50, generation?: number): Promise<Group[]> {
		const ctx = this.#ctx();
		const counts = new CountTable();
		const column: ColumnName =
			key === 'event' || key === 'provider'
				? 'etype'
				: key === 'remote'
					? 'raddr'
					: key === 'status'
						? 'status'
						: key;
		const chunks = sel.parts.map((p) => p.chunk);
		const names: ColumnName[] = key === 'remote' ? [column, 'flags', 'rport'] : [column, 'flags'];
		for (const [k, part] of sel.parts.entries()) {
			this.#check(generation);
			this.#readAhead(chunks, k, names);
			const [a, flags, rport = null] = (await Promise.all(
				names.map((name) => this.column(part.chunk, name)),
			)) as [Columns[ColumnName], Columns[ColumnName], Columns[ColumnName]?];
			const add = (i: number) => {
				let v = a[i]!;
				if (key === 'status' && !(flags[i]! & FLAG_STATUS)) return;
				if (key === 'remote') {
					if (!v) return;
					v = v * 65536 + rport![i]!;
				}
				if (key === 'endpoint' && !v) return;
				counts.add(v);
			};
			if (part.rows) for (let k = 0; k < part.count; k++) add(part.rows[k]!);
			else for (let i = part.from; i < part.to; i++) add(i);
		}
		let groups: Group[] = counts.entries().map(([v, count]) => this.#group(key, v, count, ctx));
		if (key === 'provider') {
			const merged = new Map<string, Group>();
			for (const g of groups) {
				const m = merged.get(g.key);
				merged.set(g.key, m ? { ...m, count: m.count + g.count } : g);
			}
			groups = [...merged.values()];
		}
		return groups
			.sort((a, b) => b.count - a.count || a.label.localeCompare(b.label))
			.slice(0, limit);
	}

	#group(key: GroupKey, v: number, count: number, ctx: FilterContext): Group {
		const quote = (s: string) => (/[\s()"]/.test(s) ? `"${s}"` : s);
		switch (key) {
			case 'event': {
				const t = ctx.eventTypes[v];
				const name = t?.name ?? '?';
				return { key: String(v), label: name, count, filter: `event:${quote(name)}` };
			}
			case 'provider': {
				const t = ctx.eventTypes[v];
				const name = t?.providerName ?? t?.provider ?? 'kernel';
				return {
					key: name,
					label: name,
					count,
					filter: t?.provider
						? `provider:${quote(t.providerName ?? t.provider)}`
						: `kind:system or kind:perfinfo or kind:compact`,
				};
			}
			case 'process': {
				const name = ctx.processNames.get(v);
				return {
					key: String(v),
					label: name ? `${name} (PID ${v})` : v === NO_PID ? 'none' : `PID ${v}`,
					count,
					filter: `process:${v}`,
				};
			}
			case 'remote': {
				const addr = ctx.strings[Math.floor(v / 65536)]!;
				const port = v % 65536;
				const label = addr.includes(':') ? `[${addr}]:${port}` : `${addr}:${port}`;
				return { key: label, label, count, filter: `raddr:${addr} rport:${port}` };
			}
			case 'status': {
				const name = statusName(v);
				return { key: String(v), label: name, count, filter: `status:0x${v.toString(16)}` };
			}
			case 'endpoint': {
				const e = ctx.strings[v]!;
				return { key: e, label: e, count, filter: `endpoint:${e}` };
			}
		}
	}
}
