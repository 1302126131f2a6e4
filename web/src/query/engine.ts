// Queries over a trace's column chunks: select rows matching a filter and a time range, then
// count them, page through them, bin them over time and group them. Pure TypeScript: runs in
// the worker over IndexedDB chunks and in Node over chunks held in memory. The pieces live beside
// it: the column cache, selection, row views, aggregation; what they answer is in protocol.ts.
import { msg } from '../i18n/render.ts';
import type { ColumnName, ReadColumns } from '../columns/layout.ts';
import type { EventOwners, OwnerLookup } from '../columns/event-owners.ts';
import type { EventIndex, RowPosition, Ticks } from '../decoder/units.ts';
import { countHistogram, groupsOf, histogramCounts, seriesOf } from './aggregate.ts';
import { ColumnCache, type ChunkInfo, type ChunkSource, type ColumnsOf } from './column-cache.ts';
import { compileFilter, type FilterContext, type RecordFields } from './filter-compile.ts';
import { FilterError, parseFilter } from './filter-parser.ts';
import { LruCache } from './lru.ts';
import { OWNER_INPUTS, OwnerJoin, type RowOwners } from './owner-join.ts';
import type { Group, GroupKey, Histogram, RowView, Selection, TimeRange } from './protocol.ts';
import { rowViews } from './row-view.ts';
import {
	countRows,
	listWindow,
	indexesAt,
	positionIn,
	selectRows,
	startsWith,
	type Count,
	type EarlierSelection,
	type SelectionInputs,
} from './selection.ts';
import { Generations } from './superseded.ts';

/**
 * The payload fields of rows of a chunk, decoded again from their records (null for a record that
 * no longer decodes): what a filter on a payload field by name tests.
 */
/** The payload fields of rows of a chunk; with `keys`, only those may be made (null: all). */
export type FieldsOfRows = (
	chunk: number,
	rows: readonly number[],
	keys?: ReadonlySet<string> | null,
) => Promise<(Readonly<Record<string, unknown>> | null)[]>;

export class QueryEngine {
	readonly #source: ChunkSource;
	readonly #ctx: () => FilterContext;
	readonly #columns: ColumnCache;
	readonly #generations = new Generations();
	#owners = new OwnerJoin(null);
	/** Owner columns per chunk, made by the join (dropped when the owners table changes). */
	readonly #ownerCache = new LruCache<RowOwners>(16 << 20);
	/** Bumped when the owners table changes what filters on owners find. */
	#ownersRevision = 0;
	/** Per selection made here: the chunks it read, and what its filter read besides them. */
	readonly #made = new WeakMap<Selection, { chunks: number; stamp: string }>();
	/** The latest timeline counted, which the next one over the same bins goes on from. */
	#histogram: CountedHistogram | null = null;
	/** Set by whoever can decode records (the worker, the CLI): filters on payload fields need it. */
	recordFields: FieldsOfRows | null = null;

	constructor(source: ChunkSource, context: () => FilterContext, cacheBytes = 192 << 20) {
		this.#source = source;
		this.#ctx = context;
		this.#columns = new ColumnCache(source, cacheBytes);
	}

	get cachedBytes(): number {
		return this.#columns.bytes;
	}

	/** Bounds the column cache to `bytes` (null: its own bound again). */
	limitCache(bytes: number | null): void {
		this.#columns.limit(bytes);
	}

	async column<K extends ColumnName>(chunk: number, name: K): Promise<ReadColumns[K]> {
		return this.#columns.column(chunk, name);
	}

	/** Several columns of one chunk, read together where they are not held. */
	columns<const N extends readonly ColumnName[]>(chunk: number, names: N): Promise<ColumnsOf<N>> {
		return this.#columns.columns(chunk, names);
	}

	/**
	 * The sockets' owners table (null: none yet): from now on each row's owner is its socket's or
	 * connection's where they know it.
	 */
	setOwners(owners: EventOwners | OwnerLookup | null): void {
		this.#owners = new OwnerJoin(owners);
		this.#ownerCache.clear();
		this.#ownersRevision++;
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
		const [etype, endpoint, process] = await this.columns(chunk, OWNER_INPUTS);
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
			{ etype: etype as ReadColumns['etype'], endpoint: endpoint!, process: process! },
			rows,
			base,
			ctx,
		);
		// A table set meanwhile made another join: this answer is not kept.
		if (join === this.#owners) this.#ownerCache.set(key, owners, rows * 5);
		return owners;
	}

	/** Caches a column an import has just written (the timeline reads it at the next refresh). */
	prime<K extends ColumnName>(chunk: number, name: K, column: ReadColumns[K]): void {
		this.#columns.prime(chunk, name, column);
	}

	/** Marks every query before this one as superseded: their loops stop at the next chunk. */
	begin(): number {
		return this.#generations.begin();
	}

	/**
	 * Parses, compiles and runs a filter; throws FilterError for a bad expression. With `earlier`
	 * (a selection made here before, while chunks were being added), the answer goes on from it,
	 * reading only the chunks added since, when it holds still: the same filter and range, and
	 * nothing else its filter reads changed (names, marks, owners). Otherwise all are read.
	 */
	async select(
		filter: string,
		range: TimeRange | null = null,
		generation?: number,
		earlier?: Selection,
	): Promise<Selection> {
		const ctx = this.#ctx();
		const compiled = compileFilter(parseFilter(filter), ctx);
		const inputs = this.#inputs(generation);
		const stamp = `${ctx.revision ?? ''}|${this.#ownersRevision}`;
		const made = earlier && this.#made.get(earlier);
		const from: EarlierSelection | null =
			made &&
			earlier.filter === filter &&
			earlier.range?.from === range?.from &&
			earlier.range?.to === range?.to &&
			made.stamp === stamp &&
			made.chunks <= inputs.chunks.length
				? { selection: earlier, chunks: made.chunks }
				: null;
		const selection = await selectRows(filter, compiled, range, inputs, from);
		this.#made.set(selection, { chunks: inputs.chunks.length, stamp });
		return selection;
	}

	/**
	 * The selection's first chunks, up to the one that brings its `n`-th match (throws FilterError
	 * for a bad expression): its first rows, without listing every match. Its counts are those of
	 * the chunks it read.
	 */
	async head(
		filter: string,
		range: TimeRange | null,
		n: number,
		generation?: number,
	): Promise<Selection> {
		const compiled = compileFilter(parseFilter(filter), this.#ctx());
		return selectRows(filter, compiled, range, this.#inputs(generation), null, n);
	}

	/**
	 * Counts a filter's matches without listing them (throws FilterError for a bad expression):
	 * chunk summaries answer where they can, the rest is scanned (selection.ts countRows).
	 */
	async count(filter: string, range: TimeRange | null = null, generation?: number): Promise<Count> {
		const compiled = compileFilter(parseFilter(filter), this.#ctx());
		return countRows(compiled, range, this.#inputs(generation));
	}

	/**
	 * The matches [offset, offset + limit) of a count made here, listed from the chunks that hold
	 * them only (selection.ts listWindow); null when they are no longer as counted.
	 */
	async window(
		count: Count,
		filter: string,
		range: TimeRange | null,
		offset: RowPosition,
		limit: number,
	): Promise<Selection | null> {
		const compiled = compileFilter(parseFilter(filter), this.#ctx());
		return listWindow(filter, compiled, range, this.#inputs(), count, offset, limit);
	}

	#inputs(generation?: number): SelectionInputs {
		return {
			columns: this.#columns,
			chunks: this.#source.chunks(),
			check: () => this.#generations.check(generation),
			owners: (chunk) => this.owners(chunk),
			payloadOf: (chunk, etype, types, from, to, keys) =>
				this.#payloadOf(chunk, etype, types, from, to, keys),
		};
	}

	/** The payload fields (`keys` of them, null: all) of the rows in [from, to) of the types marked. */
	async #payloadOf(
		chunk: number,
		etype: ReadColumns['etype'],
		types: Uint8Array,
		from: number,
		to: number,
		keys: ReadonlySet<string> | null,
	): Promise<RecordFields> {
		const rows: number[] = [];
		for (let i = from; i < to; i++) if (types[etype[i]!] === 1) rows.push(i);
		if (rows.length === 0) return () => null;
		if (!this.recordFields) throw new FilterError(msg('filter.payload-needs-file'), 0);
		const got = await this.recordFields(chunk, rows, keys);
		const byRow = new Map(rows.map((r, k) => [r, got[k] ?? null]));
		return (i) => byRow.get(i) ?? null;
	}

	/** Event indexes of matches [offset, offset + limit). */
	indexes(sel: Selection, offset: RowPosition, limit: number): EventIndex[] {
		return indexesAt(sel, offset, limit);
	}

	/** Position of an event in the selection, or -1. */
	positionOf(sel: Selection, row: EventIndex): RowPosition {
		return positionIn(sel, row);
	}

	/** Display values of events, by index. */
	async rows(indexes: readonly EventIndex[]): Promise<RowView[]> {
		const ctx = this.#ctx();
		return rowViews(indexes, this.#source.chunks(), this.#columns, (c) => this.owners(c), ctx);
	}

	/**
	 * Events per time bin and category. Over the same bins as the timeline counted last, and a
	 * selection whose first parts are that one's (one made from it, as an import's refreshes are),
	 * only the parts after those are counted, added to its counts. Over a range from the same
	 * start 2^k times as wide (an import's timeline as it grows: importingSpan), its counts are
	 * folded into the wider bins first: exactly the bins they would count into.
	 */
	async histogram(
		sel: Selection,
		from: Ticks,
		to: Ticks,
		bins: number,
		generation?: number,
	): Promise<Histogram> {
		const last = this.#histogram;
		const kept =
			last && last.from === from && last.bins === bins && startsWith(sel, last.sel) ? last : null;
		let fold = kept ? foldShift(kept.to - kept.from, to - from) : null;
		// Events the narrower range left out would be missing from its folded counts.
		if (kept && fold && !within(kept.sel, this.#source.chunks(), kept.from, kept.to)) fold = null;
		const counts =
			kept && fold !== null ? foldCounts(kept.counts, bins, fold) : histogramCounts(bins);
		const parts = kept && fold !== null ? sel.parts.slice(kept.sel.parts.length) : sel.parts;
		await countHistogram(this.#columns, this.#source.chunks(), parts, from, to, bins, counts, () =>
			this.#generations.check(generation),
		);
		this.#histogram = { sel, from, to, bins, counts };
		return { from, to, bins, series: seriesOf(counts, bins) };
	}

	async groupBy(sel: Selection, key: GroupKey, limit = 50, generation?: number): Promise<Group[]> {
		const ctx = this.#ctx();
		return groupsOf(this.#columns, this.#source.chunks(), ctx, sel, key, limit, () =>
			this.#generations.check(generation),
		);
	}
}

/**
 * k when `width` is `was` times 2^k (k ≥ 0), else null. An event's bin over the wider range is
 * then its bin over the narrower one shifted right by k: bins × t / (2^k × was) is the narrower
 * product halved k times, which floating point does exactly.
 */
export function foldShift(was: number, width: number): number | null {
	if (!(was > 0) || width < was) return null;
	let k = 0;
	for (let w = was; w < width; w *= 2) k++;
	return was * 2 ** k === width ? k : null;
}

/** Whether every chunk the selection reads holds events in [from, to) only. */
function within(sel: Selection, chunks: readonly ChunkInfo[], from: Ticks, to: Ticks): boolean {
	const byIndex = new Map(chunks.map((c) => [c.index, c]));
	return sel.parts.every((p) => {
		const c = byIndex.get(p.chunk);
		return c !== undefined && c.tMin >= from && c.tMax < to;
	});
}

/** Timeline counts of `bins` bins per category, each bin b added into bin b >> shift. */
export function foldCounts(counts: Float64Array, bins: number, shift: number): Float64Array {
	if (shift === 0) return counts.slice();
	const out = histogramCounts(bins);
	for (let at = 0; at < counts.length; at += bins)
		for (let b = 0; b < bins; b++) out[at + (b >> shift)]! += counts[at + b]!;
	return out;
}

interface CountedHistogram {
	readonly sel: Selection;
	readonly from: Ticks;
	readonly to: Ticks;
	readonly bins: number;
	readonly counts: Float64Array;
}
