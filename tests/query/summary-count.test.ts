// Counts, selections, histograms and groups answered from chunk summaries must equal a scan of the
// columns, on traces of many chunks, for random filters and ranges; a summary that disagreed with
// its chunk (stale) or a chunk left out would show.
import { describe, expect, it } from 'vitest';
import { summarizeChunk, type ChunkSummary } from '../../web/src/columns/chunk-summary.ts';
import {
	allocateColumn,
	COLUMN_NAMES,
	FLAG_BYTES,
	FLAG_ERROR,
	FLAG_STATUS,
	makeColumns,
	narrowColumn,
	type Chunk,
	type ColumnName,
	type Columns,
	type EventType,
	type ReadColumns,
} from '../../web/src/columns/layout.ts';
import type { ChunkInfo, ChunkSource } from '../../web/src/query/column-cache.ts';
import { QueryEngine } from '../../web/src/query/engine.ts';
import type { FilterContext } from '../../web/src/query/filter-compile.ts';
import type { GroupKey, TimeRange } from '../../web/src/query/protocol.ts';
import { Prng } from '../builders/prng.ts';

const NAMES = ['AfdSend', 'AfdReceive', 'AfdConnect', 'AfdClose', 'TcpConnect', 'DnsQuery'];
const EVENT_TYPES: EventType[] = NAMES.map((name, k) => ({
	kind: 6,
	provider:
		k < 4 ? '{e53c6823-7bb8-44bb-90dc-3f86090d48a6}' : '{2f07e2ee-15db-40f1-90ef-9d7ba282188a}',
	providerName: k < 4 ? 'Microsoft-Windows-Winsock-AFD' : 'Microsoft-Windows-TCPIP',
	id: 1000 + k,
	version: 0,
	opcode: k,
	name,
	afd: k < 4,
	schema: -1,
}));
const PROCESSES = new Map([
	[100, 'chrome.exe'],
	[200, 'svchost.exe'],
	[300, 'curl.exe'],
]);
const STATUSES = [0, 0xc0000120, 0xc0000236, 0x103];

const context = (marked: ReadonlySet<number> = new Set()): FilterContext => ({
	strings: [''],
	eventTypes: EVENT_TYPES,
	startFiletime: 134179540135897932n,
	processNames: PROCESSES,
	marked,
});

/** Chunks of random events: `sizes` rows each, times rising, processes grouped in runs. */
function randomChunks(seed: number, sizes: readonly number[]): Chunk[] {
	const rng = new Prng(seed);
	const chunks: Chunk[] = [];
	let t = 1000;
	for (const [index, rows] of sizes.entries()) {
		const c = makeColumns(COLUMN_NAMES, (n) => allocateColumn(n, rows)) as Columns;
		// Some chunks hold one process only, or one event type only: summaries then match whole.
		const oneProcess = rng.chance(0.3) ? 100 * rng.int(1, 3) : 0;
		const oneType = rng.chance(0.2) ? rng.int(0, NAMES.length - 1) : -1;
		// Some hold only statuses below 2^16: their status column is stored narrow.
		const statuses = rng.chance(0.4) ? STATUSES.filter((s) => s < 0x10000) : STATUSES;
		for (let i = 0; i < rows; i++) {
			t += rng.int(0, 50);
			c.time[i] = t;
			// Ticks since the chunk's first event, as the chunk builder writes them.
			c.tick[i] = t - c.time[0]!;
			const e = oneType >= 0 ? oneType : rng.int(0, NAMES.length - 1);
			c.etype[i] = e;
			c.opcode[i] = e;
			c.kind[i] = 6;
			c.level[i] = rng.int(2, 5);
			c.process[i] = oneProcess || 100 * rng.int(1, 3);
			c.pid[i] = rng.chance(0.9) ? c.process[i]! : 4;
			c.tid[i] = rng.int(1, 5000);
			let flags = 0;
			if (rng.chance(0.4)) {
				flags |= FLAG_STATUS;
				c.status[i] = statuses[rng.int(0, statuses.length - 1)]!;
				if (c.status[i]! >= 0xc0000000) flags |= FLAG_ERROR;
			}
			if (e < 2) {
				flags |= FLAG_BYTES;
				c.bytes[i] = rng.int(0, 3000);
			}
			c.flags[i] = flags;
			c.cat[i] = flags & FLAG_ERROR ? 3 : e < 2 ? 1 : e === 2 ? 0 : 2;
		}
		chunks.push({
			index,
			rows,
			columns: c,
			tMin: c.time[0]!,
			tMax: c.time[rows - 1]!,
			summary: summarizeChunk(c, rows),
		});
		t += rng.int(0, 5000);
	}
	return chunks;
}

/** Chunks held in memory; counts the columns read. Columns read narrow, as stored, or wide. */
class Source implements ChunkSource {
	reads = 0;
	constructor(
		readonly list: readonly ChunkInfo[],
		readonly data: readonly Chunk[],
		readonly narrow = false,
	) {}
	chunks(): readonly ChunkInfo[] {
		return this.list;
	}
	async column<K extends ColumnName>(chunk: number, name: K): Promise<ReadColumns[K]> {
		this.reads++;
		const column = this.data[chunk]!.columns[name];
		return this.narrow ? narrowColumn(name, column) : column;
	}
}

/**
 * One engine over the chunks with their summaries and columns read as stored (narrow), one over
 * the same chunks without summaries, reading every column in its own type.
 */
function engines(chunks: readonly Chunk[], ctx = context()) {
	const summarised = new Source(chunks, chunks, true);
	const scanned = new Source(
		chunks.map(({ index, rows, tMin, tMax }) => ({ index, rows, tMin, tMax })),
		chunks,
	);
	return {
		summarised,
		withSummaries: new QueryEngine(summarised, () => ctx),
		scan: new QueryEngine(scanned, () => ctx),
	};
}

const TERMS = [
	'event:AfdReceive',
	'event:Afd*',
	'event!=AfdSend',
	'id:1002',
	'id>=1003',
	'provider:*TCPIP',
	'kind:manifest',
	'level:error',
	'level<=3',
	'opcode:2',
	'pid:4',
	'process:200',
	'process:curl.exe',
	'process!=chrome.exe',
	'status:error',
	'status:ok',
	'status:0x103',
	'status',
	'error',
	// Not summarised: these are scanned.
	'bytes>1000',
	'tid<100',
	'bytes',
];

function randomFilter(rng: Prng, depth = 0): string {
	if (depth > 1 || rng.chance(0.5)) return TERMS[rng.int(0, TERMS.length - 1)]!;
	const n = rng.int(2, 3);
	const items = Array.from({ length: n }, () => randomFilter(rng, depth + 1));
	const joined = items.join(rng.chance(0.5) ? ' and ' : ' or ');
	return rng.chance(0.2) ? `not (${joined})` : `(${joined})`;
}

function randomRange(rng: Prng, chunks: readonly Chunk[]): TimeRange | null {
	if (rng.chance(0.3)) return null;
	const first = chunks[0]!.tMin;
	const last = chunks.at(-1)!.tMax;
	const a = rng.int(first - 100, last + 100);
	const b = rng.int(first - 100, last + 100);
	// Now and then exactly a chunk's bounds, the edge cases of "wholly inside".
	if (rng.chance(0.3)) {
		const c = chunks[rng.int(0, chunks.length - 1)]!;
		const d = chunks[rng.int(0, chunks.length - 1)]!;
		return { from: Math.min(c.tMin, d.tMin), to: Math.max(c.tMax, d.tMax) + rng.int(0, 1) };
	}
	return { from: Math.min(a, b), to: Math.max(a, b) + 1 };
}

const SIZES = [1024, 4000, 700, 3000, 1, 2500, 1800, 900];

describe('chunk summaries', () => {
	it('are what the chunk holds: every row counted once, by its combination', () => {
		const [chunk] = randomChunks(1, [5000]);
		const s = chunk!.summary!;
		expect(s.rows).toBe(5000);
		expect(s.counts.reduce((a, b) => a + b, 0)).toBe(5000);
		const key = (c: Pick<Columns, keyof ChunkSummary['columns']>, i: number) =>
			[c.etype, c.process, c.pid, c.status, c.flags, c.level, c.kind, c.opcode, c.cat]
				.map((a) => a[i])
				.join(',');
		const expected = new Map<string, number>();
		for (let i = 0; i < 5000; i++) {
			const k = key(chunk!.columns, i);
			expected.set(k, (expected.get(k) ?? 0) + 1);
		}
		const got = new Map<string, number>();
		for (let k = 0; k < s.counts.length; k++) got.set(key(s.columns, k), s.counts[k]!);
		expect(got).toEqual(expected);
	});

	it('are left out when a chunk holds too many combinations', () => {
		const [chunk] = randomChunks(2, [9000]);
		const c = chunk!.columns;
		for (let i = 0; i < 9000; i++) c.status[i] = i;
		expect(summarizeChunk(c, 9000)).toBeNull();
	});

	it('answer counts, selections, histograms and groups as a scan of wide columns does, for random filters and ranges', async () => {
		const rng = new Prng(27);
		for (let trace = 0; trace < 4; trace++) {
			const chunks = randomChunks(100 + trace, SIZES);
			const { withSummaries, scan } = engines(chunks);
			for (let q = 0; q < 60; q++) {
				const filter = randomFilter(rng);
				const range = randomRange(rng, chunks);
				const expected = await scan.select(filter, range);
				const what = `${filter} in ${JSON.stringify(range)}`;
				const count = await withSummaries.count(filter, range);
				expect({ total: count.total, matched: count.matched }, what).toEqual({
					total: expected.total,
					matched: expected.matched,
				});
				const got = await withSummaries.select(filter, range);
				expect(got.matched, what).toBe(expected.matched);
				expect(withSummaries.indexes(got, 0, got.matched), what).toEqual(
					scan.indexes(expected, 0, expected.matched),
				);
				// The rows at any position, from only the chunks the count says hold them.
				const n = expected.matched;
				for (const offset of [0, Math.floor(n / 3), Math.max(0, n - 7), n + 5])
					for (const limit of [1, 100, 70_000]) {
						const window = await withSummaries.window(count, filter, range, offset, limit);
						expect(window, what).not.toBeNull();
						expect(withSummaries.indexes(window!, offset, limit), `${what} at ${offset}`).toEqual(
							scan.indexes(expected, offset, limit),
						);
					}
				// The first rows from a prefix of the selection: the same as the listing's first.
				for (const n of [1, 50, 3000]) {
					const head = await withSummaries.head(filter, range, n);
					expect(head.parts.length, what).toBeLessThanOrEqual(got.parts.length);
					expect(withSummaries.indexes(head, 0, n), what).toEqual(scan.indexes(expected, 0, n));
				}
				const from = range?.from ?? chunks[0]!.tMin;
				const to = range?.to ?? chunks.at(-1)!.tMax + 1;
				// Many bins (chunks span several) and few (a chunk falls inside one).
				for (const bins of [800, 3])
					expect(await withSummaries.histogram(got, from, to, bins), what).toEqual(
						await scan.histogram(expected, from, to, bins),
					);
				const key: GroupKey = (['event', 'process', 'status', 'provider', 'endpoint'] as const)[
					q % 5
				]!;
				expect(await withSummaries.groupBy(got, key, 50), what).toEqual(
					await scan.groupBy(expected, key, 50),
				);
			}
		}
	});

	it('count chunks wholly in range from their summaries, without reading their columns', async () => {
		const chunks = randomChunks(5, SIZES);
		const { summarised, withSummaries, scan } = engines(chunks);
		for (const filter of ['', 'event:AfdReceive', 'process:curl.exe or status:error']) {
			summarised.reads = 0;
			const got = await withSummaries.count(filter, null);
			expect(summarised.reads).toBe(0);
			expect(got.matched).toBe((await scan.select(filter)).matched);
		}
		// A range reads the time column of its two edge chunks only.
		const range = { from: chunks[2]!.tMin + 1, to: chunks[5]!.tMax - 1 };
		summarised.reads = 0;
		const got = await withSummaries.count('event:AfdReceive', range);
		expect(got.matched).toBe((await scan.select('event:AfdReceive', range)).matched);
		expect(summarised.reads).toBe(4);
		// A filter on a column the summaries do not hold is scanned.
		summarised.reads = 0;
		await withSummaries.count('bytes>1000', null);
		expect(summarised.reads).toBe(2 * chunks.length);
	});

	it('are not used for a filter on marked events (it reads which row it tests)', async () => {
		const chunks = randomChunks(6, SIZES);
		const marked = new Set([0, 5, 1024, 5000, 9000]);
		const { withSummaries, scan } = engines(chunks, context(marked));
		for (const filter of ['marked', 'marked and event:AfdSend', 'not marked']) {
			const { total, matched } = await withSummaries.count(filter);
			expect({ total, matched }).toEqual({
				total: (await scan.select(filter)).total,
				matched: (await scan.select(filter)).matched,
			});
		}
	});

	it('find the rows at a position by reading only the chunks that hold them', async () => {
		const chunks = randomChunks(8, SIZES);
		const { withSummaries: counting, scan } = engines(chunks);
		const filter = 'bytes>1000';
		const count = await counting.count(filter);
		const expected = await scan.select(filter);
		const middle = count.chunks[Math.floor(count.chunks.length / 2)]!;
		// Another engine, whose cache holds nothing the count read.
		const { summarised, withSummaries } = engines(chunks);
		const window = await withSummaries.window(count, filter, null, middle.first, 10);
		expect(withSummaries.indexes(window!, middle.first, 10)).toEqual(
			scan.indexes(expected, middle.first, 10),
		);
		// One chunk's columns (the filter reads bytes and flags), not the trace's.
		expect(window!.parts.map((p) => p.chunk)).toEqual([middle.chunk]);
		expect(summarised.reads).toBe(2);
	});

	it('say a count no longer holds rather than list other rows at a position', async () => {
		const chunks = randomChunks(9, SIZES);
		const { withSummaries } = engines(chunks);
		const count = await withSummaries.count('bytes>1000');
		// A count of each chunk's matches one fewer than they are (as if the filter's inputs changed).
		const stale = { ...count, chunks: count.chunks.map((c) => ({ ...c, count: c.count - 1 })) };
		expect(await withSummaries.window(stale, 'bytes>1000', null, 0, 10)).toBeNull();
	});

	it('give a different answer when stale: the count is the summary’s, not a scan’s', async () => {
		const chunks = randomChunks(7, SIZES);
		const honest = engines(chunks);
		const before = await honest.withSummaries.count('event:AfdReceive');
		// Each summary says one more row of each combination than its chunk holds.
		const stale = chunks.map((c) =>
			c.summary
				? { ...c, summary: { ...c.summary, counts: c.summary.counts.map((n) => n + 1) } }
				: c,
		);
		const { withSummaries } = engines(stale);
		const after = await withSummaries.count('event:AfdReceive');
		expect(after.matched).not.toBe(before.matched);
		expect(before.matched).toBe((await honest.scan.select('event:AfdReceive')).matched);
	});
});
