// How the engine reads columns from its source: each at most once per query, even when a read
// ahead and the read that needs it overlap, and several chunks at a time (a source answers each
// read after a wait: IndexedDB in the browser).
import { describe, expect, it } from 'vitest';
import { allocateColumn, type ColumnName, type Columns } from '../../web/src/columns/layout.ts';
import { QueryEngine } from '../../web/src/query/engine.ts';
import type { ChunkInfo, ChunkSource } from '../../web/src/query/column-cache.ts';

const CHUNKS = 24;
const ROWS = 100;

class SlowSource implements ChunkSource {
	readonly reads = new Map<string, number>();
	inFlight = 0;
	maxInFlight = 0;
	readonly #infos: ChunkInfo[] = Array.from({ length: CHUNKS }, (_, index) => ({
		index,
		rows: ROWS,
		tMin: index * ROWS,
		tMax: index * ROWS + ROWS - 1,
	}));

	chunks(): readonly ChunkInfo[] {
		return this.#infos;
	}

	async column<K extends ColumnName>(chunk: number, name: K): Promise<Columns[K]> {
		const key = `${chunk}:${name}`;
		this.reads.set(key, (this.reads.get(key) ?? 0) + 1);
		this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
		await new Promise((resolve) => setTimeout(resolve, 2));
		this.inFlight--;
		const a = allocateColumn(name, ROWS) as Columns[K];
		// Rows alternate between 0 and 2000 bytes, all with a byte count.
		if (name === 'bytes') for (let i = 0; i < ROWS; i += 2) a[i] = 2000;
		if (name === 'flags') a.fill(0xff);
		if (name === 'tick') for (let i = 0; i < ROWS; i++) a[i] = i;
		return a;
	}
}

const context = () => ({
	strings: [''],
	eventTypes: [],
	startFiletime: 0n,
	processNames: new Map<number, string>(),
});

describe('column reads', () => {
	it('reads each column a query needs once, several chunks at a time', async () => {
		const source = new SlowSource();
		const engine = new QueryEngine(source, context);
		const sel = await engine.select('bytes>1000');
		expect(sel.matched).toBe((CHUNKS * ROWS) / 2);
		expect(source.reads.size).toBe(CHUNKS * 2);
		expect([...source.reads.values()].every((n) => n === 1)).toBe(true);
		// Chunk by chunk, two columns would be read at a time at most.
		expect(source.maxInFlight).toBeGreaterThan(2);

		// What is cached is not read again; the histogram and a group-by read theirs once each.
		await engine.select('bytes>1000');
		await engine.histogram(sel, 0, CHUNKS * ROWS, 10);
		await engine.groupBy(sel, 'process');
		expect([...source.reads.values()].every((n) => n === 1)).toBe(true);
		expect(source.reads.size).toBe(CHUNKS * 5);
	});

	it('counts groups of any key up to 2^53', async () => {
		const source = new SlowSource();
		const engine = new QueryEngine(source, context);
		const groups = await engine.groupBy(await engine.select(''), 'process');
		expect(groups).toEqual([expect.objectContaining({ count: CHUNKS * ROWS })]);
	});
});
