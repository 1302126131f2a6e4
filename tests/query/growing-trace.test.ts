// While a trace is imported its chunks arrive a few at a time and the page asks the same query
// again: the engine then reads only the chunks added since its last answer, for the count and the
// timeline. At every step the answer must be the one a fresh engine gives over all the chunks,
// and the one counted here row by row from the columns (so a chunk skipped or counted twice
// shows); and the steps must really read only the new chunks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { categoryOf, CATEGORIES } from '../../web/src/columns/categories.ts';
import {
	FLAG_ERROR,
	type Chunk,
	type ColumnName,
	type Columns,
} from '../../web/src/columns/layout.ts';
import type { ChunkInfo, ChunkSource } from '../../web/src/query/column-cache.ts';
import { QueryEngine } from '../../web/src/query/engine.ts';
import type { FilterContext } from '../../web/src/query/filter-compile.ts';
import {
	countIo,
	IO_INTERVALS,
	ioGraph,
	MAX_BUCKETS,
	type IoCount,
} from '../../web/src/query/io-graph.ts';
import type { Selection, TimeRange } from '../../web/src/query/protocol.ts';
import { ingestToMemory, type MemoryTrace } from '../builders/memory-chunks.ts';
import { open } from '../decoder/load.ts';
import { importingSpan } from '../../web/src/views/timeline/timeline-data.ts';

const root = join(import.meta.dirname, '../..');
const sample = new Uint8Array(readFileSync(join(root, 'public/sample.etl')));

/** Rows per chunk here: the sample's few thousand events make a dozen chunks. */
const ROWS = 200;
const BINS = 64;

/** The sample's chunks cut into chunks of `rows` rows (ticks counted from each one's start). */
function rechunk(chunks: readonly Chunk[], rows: number): Chunk[] {
	const out: Chunk[] = [];
	for (const c of chunks)
		for (let at = 0; at < c.rows; at += rows) {
			const n = Math.min(rows, c.rows - at);
			const columns = Object.fromEntries(
				Object.entries(c.columns).map(([name, a]) => [name, a.slice(at, at + n)]),
			) as unknown as Columns;
			const tMin = columns.time[0]!;
			const tMax = columns.time[n - 1]!;
			columns.tick = Uint32Array.from(columns.time, (t) => t - tMin);
			out.push({ index: out.length, rows: n, columns, tMin, tMax });
		}
	return out;
}

/** The first `shown` chunks of a list, as an import has stored them so far; counts its reads. */
class GrowingChunks implements ChunkSource {
	shown = 0;
	readonly reads = new Set<number>();
	constructor(readonly list: readonly Chunk[]) {}
	chunks(): readonly ChunkInfo[] {
		return this.list.slice(0, this.shown);
	}
	async column<K extends ColumnName>(chunk: number, name: K): Promise<Columns[K]> {
		this.reads.add(chunk);
		return this.list[chunk]!.columns[name];
	}
}

/** Matches and timeline counted row by row from the columns of the first `shown` chunks. */
function counted(list: readonly Chunk[], shown: number, test: Set<number>, range: TimeRange) {
	const series = Object.fromEntries(CATEGORIES.map((c) => [c, new Array(BINS).fill(0)]));
	let index = 0;
	let matched = 0;
	for (const c of list.slice(0, shown)) {
		const { time, etype, flags } = c.columns;
		for (let i = 0; i < c.rows; i++, index++) {
			if (!test.has(index)) continue;
			matched++;
			const t = time[i]!;
			if (t < range.from || t >= range.to) continue;
			const b = Math.min(BINS - 1, Math.floor(((t - range.from) * BINS) / (range.to - range.from)));
			const cat = flags[i]! & FLAG_ERROR ? 'errors' : categoryOf(eventTypes[etype[i]!]!);
			series[cat]![b]++;
		}
	}
	return { matched, series };
}

let mem: MemoryTrace;
let list: Chunk[];
let eventTypes: FilterContext['eventTypes'];
let span: TimeRange;
/** Per filter, the event indexes it matches over the whole trace (a fresh engine's answer). */
const matchesOf = new Map<string, Set<number>>();

const FILTERS = ['', 'status:error', 'event:Afd*', 'kind:event -provider:*AFD', 'bytes>100'];

beforeAll(async () => {
	mem = await ingestToMemory(await open(sample));
	list = rechunk(mem.chunks.list, ROWS);
	eventTypes = mem.context().eventTypes;
	span = { from: list[0]!.tMin, to: list.at(-1)!.tMax + 1 };
	const whole = new GrowingChunks(list);
	whole.shown = list.length;
	const engine = new QueryEngine(whole, mem.context);
	for (const f of FILTERS) {
		const sel = await engine.select(f);
		matchesOf.set(f, new Set(engine.indexes(sel, 0, sel.matched)));
	}
});

/** A fresh engine's answer over the first `shown` chunks. */
async function full(shown: number, filter: string, range: TimeRange | null) {
	const source = new GrowingChunks(list);
	source.shown = shown;
	const engine = new QueryEngine(source, mem.context);
	const sel = await engine.select(filter, range);
	return { sel, histogram: await engine.histogram(sel, span.from, span.to, BINS), engine };
}

const indexesOf = (engine: QueryEngine, sel: Selection) => engine.indexes(sel, 0, sel.matched);

describe('a query asked again as chunks are added', () => {
	it('has a dozen chunks to grow over', () => {
		expect(list.length).toBeGreaterThanOrEqual(12);
		expect(list.reduce((n, c) => n + c.rows, 0)).toBe(mem.result.records);
	});

	for (const filter of FILTERS)
		it(`"${filter}": each step reads only the new chunks and answers as a full count does`, async () => {
			const source = new GrowingChunks(list);
			// A one-byte cache: every column a step uses is read from the source.
			const engine = new QueryEngine(source, mem.context, 1);
			let earlier: Selection | undefined;
			let steps = 0;
			for (const shown of [1, 2, 5, 5, 9, list.length]) {
				const before = source.shown;
				source.shown = shown;
				source.reads.clear();
				const sel = await engine.select(filter, null, undefined, earlier);
				const histogram = await engine.histogram(sel, span.from, span.to, BINS);
				// Only chunks added since the last answer were read (none when none were added).
				if (earlier) expect([...source.reads].filter((c) => c < before)).toEqual([]);
				const whole = await full(shown, filter, null);
				expect(sel.total).toBe(whole.sel.total);
				expect(sel.matched).toBe(whole.sel.matched);
				expect(sel.parts).toEqual(whole.sel.parts);
				expect(indexesOf(engine, sel)).toEqual(indexesOf(whole.engine, whole.sel));
				expect(histogram).toEqual(whole.histogram);
				const want = counted(list, shown, matchesOf.get(filter)!, span);
				expect(sel.matched).toBe(want.matched);
				expect(histogram.series).toEqual(want.series);
				earlier = sel;
				steps++;
			}
			expect(steps).toBe(6);
		});

	it('with a time range: the new chunks are cut to it as a full count cuts them', async () => {
		const range = { from: list[3]!.tMin + 1, to: list[10]!.tMax };
		const source = new GrowingChunks(list);
		const engine = new QueryEngine(source, mem.context, 1);
		let earlier: Selection | undefined;
		for (const shown of [2, 4, 7, 11, list.length]) {
			source.shown = shown;
			const sel = await engine.select('event:Afd*', range, undefined, earlier);
			const histogram = await engine.histogram(sel, range.from, range.to, BINS);
			const whole = await full(shown, 'event:Afd*', range);
			expect(sel.parts).toEqual(whole.sel.parts);
			expect(sel.matched).toBe(whole.sel.matched);
			expect(histogram).toEqual(
				await whole.engine.histogram(whole.sel, range.from, range.to, BINS),
			);
			earlier = sel;
		}
	});

	for (const filter of ['', 'event:Afd*'])
		it(`"${filter}": the timeline of an import's growing span folds its counts, reads only the new chunks`, async () => {
			const source = new GrowingChunks(list);
			const engine = new QueryEngine(source, mem.context, 1);
			let earlier: Selection | undefined;
			const widths = new Set<number>();
			for (let shown = 1; shown <= list.length; shown++) {
				const before = source.shown;
				source.shown = shown;
				source.reads.clear();
				const chunks = source.chunks();
				const range = importingSpan({
					tMin: chunks[0]!.tMin,
					tMax: Math.max(...chunks.map((c) => c.tMax)),
				});
				widths.add(range.to - range.from);
				const sel = await engine.select(filter, null, undefined, earlier);
				const histogram = await engine.histogram(sel, range.from, range.to, BINS);
				if (earlier) expect([...source.reads].filter((c) => c < before)).toEqual([]);
				const whole = await full(shown, filter, null);
				expect(histogram).toEqual(
					await whole.engine.histogram(whole.sel, range.from, range.to, BINS),
				);
				expect(histogram.series).toEqual(
					counted(list, shown, matchesOf.get(filter)!, range).series,
				);
				earlier = sel;
			}
			// The span grew several times: the counts were folded, not counted again.
			expect(widths.size).toBeGreaterThan(2);
		});

	it('counts a growing span again when its earlier chunks hold events past the narrower one', async () => {
		const source = new GrowingChunks(list);
		const engine = new QueryEngine(source, mem.context, 1);
		source.shown = 6;
		const sel = await engine.select('');
		// A range that ends inside the sixth chunk: its last events are left out.
		const from = list[0]!.tMin;
		const narrow = list[5]!.tMin + 1 - from;
		await engine.histogram(sel, from, from + narrow, BINS);
		source.reads.clear();
		const wide = await engine.histogram(sel, from, from + 4 * narrow, BINS);
		expect(source.reads.has(5)).toBe(true);
		const whole = await full(6, '', null);
		expect(wide).toEqual(await whole.engine.histogram(whole.sel, from, from + 4 * narrow, BINS));
	});

	it('counts everything again when the filter, the range, the bins or the names change', async () => {
		const source = new GrowingChunks(list);
		const tables = { ...mem.context(), revision: 0 };
		let context: FilterContext = tables;
		const engine = new QueryEngine(source, () => context, 1);
		source.shown = 4;
		const first = await engine.select('event:Afd*');
		await engine.histogram(first, span.from, span.to, BINS);
		source.shown = 6;
		const again = async (filter: string, range: TimeRange | null = null) => {
			source.reads.clear();
			return engine.select(filter, range, undefined, first);
		};
		// Another filter, or a range: every chunk is read.
		await again('status:error');
		expect(source.reads.has(0)).toBe(true);
		await again('event:Afd*', { from: span.from, to: span.to - 1 });
		expect(source.reads.has(0)).toBe(true);
		// Names learned (the revision changes): the same filter is run over every chunk again.
		context = { ...tables, revision: 1 };
		const renamed = await again('event:Afd*');
		expect(source.reads.has(0)).toBe(true);
		expect(renamed.parts).toEqual((await full(6, 'event:Afd*', null)).sel.parts);
		// Other bins: the timeline is counted over every part again, and so equals a full count.
		source.reads.clear();
		const h = await engine.histogram(renamed, span.from, span.to, BINS / 2);
		expect(source.reads.has(0)).toBe(true);
		const whole = await full(6, 'event:Afd*', null);
		expect(h).toEqual(await whole.engine.histogram(whole.sel, span.from, span.to, BINS / 2));
	});

	it('the I/O graph of a growing span goes on from the last one, as a full count gives it', async () => {
		// An interval the whole span fits: each step keeps it, so only the new chunks are read.
		const interval = IO_INTERVALS.find((b) => (span.to - span.from) / b <= MAX_BUCKETS)!;
		const source = new GrowingChunks(list);
		const engine = new QueryEngine(source, mem.context, 1);
		const none = new Set<number>();
		let earlier: IoCount | null = null;
		for (const shown of [1, 3, 3, 8, list.length]) {
			const before = source.shown;
			source.shown = shown;
			source.reads.clear();
			const chunks = source.chunks();
			const whole = { from: chunks[0]!.tMin, to: chunks.at(-1)!.tMax + 1 };
			const sel = await engine.select('event:Afd*', null, undefined, earlier?.sel);
			const count: IoCount = await countIo(
				engine,
				eventTypes,
				sel,
				whole,
				interval,
				none,
				null,
				earlier,
			);
			if (earlier) expect([...source.reads].filter((c) => c < before)).toEqual([]);
			const fresh = await full(shown, 'event:Afd*', null);
			expect(count.graph).toEqual(
				await ioGraph(fresh.engine, eventTypes, fresh.sel, whole, interval, none),
			);
			earlier = count;
		}
		expect(earlier!.graph.totalSent + earlier!.graph.totalReceived).toBeGreaterThan(0);
	});
});
