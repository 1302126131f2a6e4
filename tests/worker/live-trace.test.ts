// An opened trace reads its stored sockets once, not once per request (a large trace's take
// seconds to read), and reads them again after a failed read.
import { describe, expect, it } from 'vitest';
import { getSockets } from '../../web/src/store/trace-store.ts';
import type { TrackedTrace } from '../../web/src/sockets/tracker.ts';
import {
	allocateColumn,
	CHUNK_ROWS,
	COLUMN_NAMES,
	makeColumns,
	type Chunk,
	type Columns,
} from '../../web/src/columns/layout.ts';
import { ColumnPool } from '../../web/src/columns/column-pool.ts';
import type { LiveTrace } from '../../web/src/worker/live-trace.ts';
import { library, sampleFile } from './library-harness.ts';

async function imported() {
	const lib = library();
	const r = await lib.api.importFile(sampleFile(), () => {});
	if (!r.ok) throw new Error(r.error);
	const id = r.value.id;
	// A trace opened afresh, as after a reload: nothing kept from the import.
	lib.traces.forget(id);
	return { lib, id, live: await lib.traces.live(id) };
}

describe('LiveTrace.tracked', () => {
	it('reads the sockets once for requests at once and after, while they are held', async () => {
		const { lib, id, live } = await imported();
		let reads = 0;
		const read = async () => {
			reads++;
			return getSockets(await lib.db(), id);
		};
		const [a, b] = await Promise.all([live.tracked(read), live.tracked(read)]);
		expect(reads).toBe(1);
		expect(a).toBeDefined();
		expect(b).toBe(a);
		expect(await live.tracked(read)).toBe(a);
		expect(reads).toBe(1);
		// The page's requests are answered from what is held: not read again (gone from storage now).
		await (await lib.db()).delete('sockets', id);
		const sockets = await lib.api.sockets(id);
		expect(sockets.ok && sockets.value.sockets).toBe(a!.sockets);
		const findings = await lib.api.findings(id);
		expect(findings.ok).toBe(true);
	});

	it('reads again after a read that failed', async () => {
		const { lib, id, live } = await imported();
		await expect(
			live.tracked(async () => {
				throw new Error('storage went away');
			}),
		).rejects.toThrow('storage went away');
		let reads = 0;
		const again = await live.tracked(async (): Promise<TrackedTrace | undefined> => {
			reads++;
			return getSockets(await lib.db(), id);
		});
		expect(reads).toBe(1);
		expect(again?.sockets.length).toBeGreaterThan(0);
	});
});

/** Chunk `index`, with the columns of the trace's chunk 0 (a stand-in for a chunk being imported). */
async function chunkLike(live: LiveTrace, index: number): Promise<Chunk> {
	const columns = Object.fromEntries(
		await Promise.all(COLUMN_NAMES.map(async (n) => [n, await live.column(0, n)] as const)),
	) as unknown as Columns;
	const first = live.chunks()[0]!;
	return { index, rows: first.rows, columns, tMin: first.tMin, tMax: first.tMax };
}

const noAdditions = { eventTypes: [], strings: [], processes: [], processNames: [] };

describe('LiveTrace.added', () => {
	it('serves a chunk added before it is stored from memory until it is stored', async () => {
		const { live } = await imported();
		const n = live.chunks().length;
		let stored!: () => void;
		const writing = new Promise<void>((resolve) => (stored = resolve));
		const early = await chunkLike(live, n);
		live.added(early, noAdditions, [], writing);
		// Three more chunks: before, only the last two were kept in memory.
		for (let k = 1; k <= 3; k++) live.added(await chunkLike(live, n + k), noAdditions, []);
		expect(await live.column(n, 'etype')).toBe(early.columns.etype);
		stored();
		await writing;
		live.added(await chunkLike(live, n + 4), noAdditions, []);
		// Let go once stored: read from storage now, where this stand-in never was.
		await expect(live.column(n, 'etype')).rejects.toThrow(`has no chunk ${n}`);
	});
});

/** Chunk `index` of CHUNK_ROWS rows, every column new (as a chunk builder's). */
function fullChunk(index: number): Chunk {
	const columns = makeColumns(COLUMN_NAMES, (n) => allocateColumn(n, CHUNK_ROWS));
	columns.bytes.fill(1);
	return { index, rows: CHUNK_ROWS, columns, tMin: 0, tMax: 1 };
}

describe('LiveTrace.added, with the import’s column pool', () => {
	it('gives back the columns of a chunk let go, except those handed out as they are', async () => {
		const { live } = await imported();
		const pool = new ColumnPool(8);
		live.pool = pool;
		const n = live.chunks().length;
		const chunk = fullChunk(n);
		live.added(chunk, noAdditions, []);
		const read = await live.column(n, 'time');
		expect(read).toBe(chunk.columns.time);
		live.added(fullChunk(n + 1), noAdditions, []);
		// Still among the last two: nothing given back yet.
		expect(pool.take('bytes', CHUNK_ROWS)).not.toBe(chunk.columns.bytes);
		live.added(fullChunk(n + 2), noAdditions, []);
		const bytes = pool.take('bytes', CHUNK_ROWS);
		expect(bytes).toBe(chunk.columns.bytes);
		expect(bytes.every((v) => v === 0)).toBe(true);
		expect(pool.take('status', CHUNK_ROWS)).toBe(chunk.columns.status);
		// Read by a query, and kept by the cache as it is (a column of bytes is not narrowed).
		expect(pool.take('time', CHUNK_ROWS)).not.toBe(chunk.columns.time);
		expect(pool.take('cat', CHUNK_ROWS)).not.toBe(chunk.columns.cat);
		// Once the import ends, nothing more is given back.
		live.noMoreChunks();
		expect(live.pool).toBeNull();
	});
});
