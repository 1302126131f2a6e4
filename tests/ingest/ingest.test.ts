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
