import { describe, expect, it } from 'vitest';
import { indexBuffers, type OpenTrace } from '../../web/src/decoder/etl-file.ts';
import type { BufferFeed } from '../../web/src/decoder/buffer-feed.ts';
import type { Chunk } from '../../web/src/ingest/columns.ts';
import { ingestTrace } from '../../web/src/ingest/ingest.ts';
import { TraceTables } from '../../web/src/ingest/trace-tables.ts';
import { open } from '../decoder/load.ts';
import { cpuTrace, lazyFeed } from '../decoder/merge-traces.ts';

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
	const result = await ingestTrace(trace, async (c) => void chunks.push(c), {
		tables,
		found: {
			feed,
			restart: async () => {
				restarts++;
				chunks = [];
				return (tables = new TraceTables());
			},
		},
	});
	return { chunks, tables, restarts, result };
}

describe('importing while the index pass runs', () => {
	it('stores the chunks of a plain import, without starting again, when every CPU is busy', async () => {
		const trace = await open(cpuTrace(70_000, false));
		const plain = await plainImport(trace);
		expect(plain.chunks.length).toBeGreaterThan(1);
		const found = await feedImport(trace, lazyFeed(await indexBuffers(trace), 3));
		expect(found.restarts).toBe(0);
		expect(found.chunks).toEqual(plain.chunks);
		expect(found.tables.strings).toEqual(plain.tables.strings);
		expect(found.result.records).toBe(70_001);
	});

	it('starts again from the whole index when a late CPU breaks the order', async () => {
		const trace = await open(cpuTrace(70_000, true, 3));
		const plain = await plainImport(trace);
		const found = await feedImport(trace, lazyFeed(await indexBuffers(trace), 3));
		expect(found.restarts).toBe(1);
		expect(found.chunks).toEqual(plain.chunks);
		expect(found.tables.strings).toEqual(plain.tables.strings);
		expect(found.result.records).toBe(70_002);
	});
});
