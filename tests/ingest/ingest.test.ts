import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { indexBuffers, type OpenTrace } from '../../web/src/decoder/etl-file.ts';
import type { BufferFeed } from '../../web/src/decoder/buffer-feed.ts';
import { CHUNK_ROWS, FIRST_CHUNK_ROWS, type Chunk } from '../../web/src/columns/layout.ts';
import { ColumnPool } from '../../web/src/columns/column-pool.ts';
import { filetimeFromIso } from '../builders/bytes.ts';
import { busyEvent } from '../builders/busy-event.ts';
import { EtlWriter } from '../builders/etl-writer.ts';
import { ingestTrace } from '../../web/src/ingest/ingest.ts';
import { WMI_BUFFER_HEADER } from '../../web/src/generated/layouts.ts';
import { TraceTables } from '../../web/src/ingest/trace-tables.ts';
import { open } from '../decoder/load.ts';
import { cpuTrace, lazyFeed } from '../decoder/merge-traces.ts';

/**
 * What a chunk holds, with each column as a digest of its bytes: a deep equality over every
 * element of every column costs seconds, and a differing column is still named.
 */
function digest(chunks: readonly Chunk[]) {
	return chunks.map(({ columns, ...rest }) => ({
		...rest,
		columns: Object.fromEntries(
			Object.entries(columns).map(([name, a]) => [
				name,
				createHash('sha1')
					.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength))
					.digest('hex'),
			]),
		),
	}));
}

/** The chunks a plain import stores, and the tables it ends with. */
async function plainImport(trace: OpenTrace): Promise<{ chunks: Chunk[]; tables: TraceTables }> {
	const chunks: Chunk[] = [];
	const tables = new TraceTables();
	await ingestTrace(trace, async (c) => void chunks.push(c), { tables });
	return { chunks, tables };
}

/** An import from a feed; a restart drops what was stored, as the library does. */
async function feedImport(trace: OpenTrace, feed: BufferFeed) {
	let chunks: Chunk[] = [];
	let tables = new TraceTables();
	let restarts = 0;
	/** Chunks stored when the import started again (dropped by the restart). */
	let storedAtRestart = 0;
	const result = await ingestTrace(trace, async (c) => void chunks.push(c), {
		tables,
		found: {
			feed,
			restart: async () => {
				restarts++;
				storedAtRestart = chunks.length;
				chunks = [];
				return (tables = new TraceTables());
			},
		},
	});
	return { chunks, tables, restarts, storedAtRestart, result };
}

// A few thousand events: more than the first chunk (FIRST_CHUNK_ROWS), so one chunk is committed
// while the merge runs and, for the late CPU, before it starts again; tens of buffers per CPU, so
// the lazy feed finds them a few at a time.
const EVENTS = 3000;

describe('importing while the index pass runs', () => {
	it('stores the chunks of a plain import, without starting again, when every CPU is busy', async () => {
		const trace = await open(cpuTrace(EVENTS, false));
		const plain = await plainImport(trace);
		expect(plain.chunks.length).toBeGreaterThan(1);
		const found = await feedImport(trace, lazyFeed(await indexBuffers(trace), 3));
		expect(found.restarts).toBe(0);
		expect(digest(found.chunks)).toEqual(digest(plain.chunks));
		expect(found.tables.strings).toEqual(plain.tables.strings);
		expect(found.result.records).toBe(EVENTS + 1);
	});

	it('starts again from the whole index when a late CPU breaks the order', async () => {
		const trace = await open(cpuTrace(EVENTS, true, 3));
		const plain = await plainImport(trace);
		expect(plain.chunks.length).toBeGreaterThan(1);
		const found = await feedImport(trace, lazyFeed(await indexBuffers(trace), 3));
		expect(found.restarts).toBe(1);
		expect(found.storedAtRestart).toBeGreaterThan(0);
		expect(digest(found.chunks)).toEqual(digest(plain.chunks));
		expect(found.tables.strings).toEqual(plain.tables.strings);
		expect(found.result.records).toBe(EVENTS + 2);
	});
});

/**
 * Full chunks of Winsock events (every socket column set) among events of another provider
 * (none set), in a pattern that does not repeat from one chunk to the next.
 */
function mixedTrace(events: number): Uint8Array {
	const w = new EtlWriter({ cpus: 2, bufferSize: 65536 });
	let t = filetimeFromIso('2026-03-14T09:26:53.5897932Z');
	for (let n = 0; n < events; n++) {
		t += 50n;
		if (n % 3 === 0)
			w.addEvent({ cpu: n % 2, time: t, pid: 7, tid: 8, provider: OTHER_PROVIDER, id: 1 });
		else w.addAfd(busyEvent(n, n % 2, t, 50));
	}
	return w.finish().bytes;
}
const OTHER_PROVIDER = '{6c1b6d1c-9d3e-4f0a-8e61-5d2f3c4b5a69}';

describe('importing into the columns of chunks given back', () => {
	it('stores the same chunks as with every column new', async () => {
		const trace = await open(mixedTrace(FIRST_CHUNK_ROWS + 3 * CHUNK_ROWS + 500));
		const plain = digest((await plainImport(trace)).chunks);
		const pool = new ColumnPool(1);
		const pooled: ReturnType<typeof digest> = [];
		let reused = 0;
		const given = new Set<unknown>();
		await ingestTrace(
			trace,
			async (c) => {
				if (given.has(c.columns.endpoint)) reused++;
				// Kept as a digest, then the columns go back for the next chunk to fill.
				pooled.push(...digest([c]));
				pool.give(c.columns);
				given.add(c.columns.endpoint);
			},
			{ tables: new TraceTables(), columns: pool },
		);
		expect(reused).toBeGreaterThan(0);
		expect(pooled).toEqual(plain);
	});
});

describe('an import followed on another core', () => {
	/**
	 * A one-CPU trace of `events` Winsock events; `emptyLast`: its last buffer holds no record (a
	 * CPU's buffer flushed empty at the session's stop), so that the decoding reaches a checkpoint
	 * after the last record.
	 */
	function busyTrace(events: number, emptyLast = false): Uint8Array {
		const w = new EtlWriter({ cpus: 1 });
		let t = filetimeFromIso('2026-03-14T09:26:53.5897932Z');
		for (let n = 0; n < events; n++) w.addAfd(busyEvent(n, 0, (t += 100n), 8));
		if (emptyLast) {
			// The writer's own steps, by hand: the records placed, the last buffer written, an
			// empty one left open for the stop.
			const writer = w as unknown as {
				release(before: bigint): void;
				writeBuffer(b: unknown, last: boolean): void;
				open: Map<number, unknown>;
				nextSeq: number;
			};
			writer.release(t + 1n);
			writer.writeBuffer(writer.open.get(0), false);
			writer.open.set(0, {
				seq: writer.nextSeq++,
				cpu: 0,
				records: [],
				used: WMI_BUFFER_HEADER.size,
				flushRaw: 0n,
				atStop: false,
				eventsLost: false,
			});
		}
		return w.finish().bytes;
	}

	/**
	 * Imports with a follower that learns a process name only once caught up with (as a worker
	 * lagging behind learns the last ones): where that name is stored.
	 */
	async function lateName(bytes: Uint8Array) {
		let caughtUp = false;
		const committed: { rows: number; names: [number, string][] }[] = [];
		const late: [number, string][][] = [];
		const trace = await open(bytes);
		await ingestTrace(
			trace,
			async (chunk, additions) =>
				void committed.push({ rows: chunk.rows, names: additions.processNames }),
			{
				follower: {
					slice: () => {},
					checkpoint: async () => {},
					caughtUp: async () => void (caughtUp = true),
				},
				beforeCommit: (t) => {
					if (caughtUp && !t.processNames.has(4242)) t.processNames.set(4242, 'late.exe');
				},
				lateAdditions: async (a) => void late.push(a.processNames),
			},
		);
		return { committed, late };
	}

	it('stores a name learned after the last chunk with that chunk, when no rows were left', async () => {
		// The header's record and the events: exactly a first chunk.
		const { committed: probe } = await lateName(busyTrace(100, true));
		const extra = probe.reduce((n, c) => n + c.rows, 0) - 100;
		const { committed, late } = await lateName(busyTrace(FIRST_CHUNK_ROWS - extra, true));
		expect(committed.map((c) => c.rows)).toEqual([FIRST_CHUNK_ROWS]);
		expect(committed[0]!.names).toEqual([]);
		expect(late).toEqual([[[4242, 'late.exe']]]);
	});

	it('commits a last chunk the last record fills once caught up with, with the name', async () => {
		const { committed: probe } = await lateName(busyTrace(100));
		const extra = probe.reduce((n, c) => n + c.rows, 0) - 100;
		const { committed, late } = await lateName(busyTrace(FIRST_CHUNK_ROWS - extra));
		expect(committed.map((c) => c.rows)).toEqual([FIRST_CHUNK_ROWS]);
		expect(committed[0]!.names).toEqual([[4242, 'late.exe']]);
		expect(late).toEqual([]);
	});

	it('gives it to the last chunk when rows were left to commit', async () => {
		const { committed, late } = await lateName(busyTrace(FIRST_CHUNK_ROWS + 10));
		expect(committed.length).toBe(2);
		expect(committed.at(-1)!.names).toEqual([[4242, 'late.exe']]);
		expect(late).toEqual([]);
	});
});
