import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { indexBuffers, type OpenTrace } from '../../web/src/decoder/etl-file.ts';
import type { BufferFeed } from '../../web/src/decoder/buffer-feed.ts';
import type { Chunk } from '../../web/src/columns/layout.ts';
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
