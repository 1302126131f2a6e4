// Columns read together come back as views of one read (loadColumns): the cache must never hold
// more memory than it counts, so when one of them goes, those left get bytes of their own.
import { describe, expect, it } from 'vitest';
import type { ColumnName, ReadColumns } from '../../web/src/columns/layout.ts';
import { ColumnCache, type ChunkInfo, type ChunkSource } from '../../web/src/query/column-cache.ts';

const ROWS = 1024;
const NAMES = ['etype', 'flags', 'bytes'] as const;
type Name = (typeof NAMES)[number];
/** Where each column sits in its chunk's read: byte columns, then the 32-bit one. */
const AT: Record<Name, number> = { etype: 0, flags: ROWS, bytes: 2 * ROWS };

const value = (chunk: number, name: Name, i: number) => (chunk * 7 + i + AT[name]) % 251;

function fill(a: Uint8Array | Uint32Array, chunk: number, name: Name) {
	for (let i = 0; i < ROWS; i++) a[i] = value(chunk, name, i);
	return a;
}

/** Reads alone give a column its own bytes; reads together, views of one read, as storage does. */
class SharedReads implements ChunkSource {
	reads = 0;

	chunks(): readonly ChunkInfo[] {
		return Array.from({ length: 4 }, (_, index) => ({ index, rows: ROWS, tMin: 0, tMax: 1 }));
	}

	async column<K extends ColumnName>(chunk: number, name: K): Promise<ReadColumns[K]> {
		this.reads++;
		const n = name as Name;
		return fill(
			n === 'bytes' ? new Uint32Array(ROWS) : new Uint8Array(ROWS),
			chunk,
			n,
		) as ReadColumns[K];
	}

	async columns<K extends ColumnName>(
		chunk: number,
		names: readonly K[],
	): Promise<ReadColumns[K][]> {
		this.reads++;
		const read = new ArrayBuffer(6 * ROWS);
		return names.map((name) => {
			const n = name as Name;
			const view =
				n === 'bytes' ? new Uint32Array(read, AT[n], ROWS) : new Uint8Array(read, AT[n], ROWS);
			return fill(view, chunk, n) as ReadColumns[K];
		});
	}
}

describe('ColumnCache', () => {
	/** Reads chunk 0's columns together, then chunk 1's, in a cache with room for 11 KiB. */
	async function pushedOut(wanted: readonly Name[]) {
		const source = new SharedReads();
		const cache = new ColumnCache(source, 11 * ROWS);
		const first = await cache.columns(0, NAMES);
		expect(new Set(first.map((a) => a.buffer)).size).toBe(1);
		// A loop over chunk 0's `wanted` columns says so before it reads them.
		cache.readAhead([0], 0, wanted);
		// A second chunk's read (6 KiB) pushes chunk 0's event types out (1 KiB).
		await cache.columns(1, NAMES);
		expect(cache.bytes).toBeLessThanOrEqual(11 * ROWS);
		const held: Name[] = [];
		// Those held first: reading one that went again may push out another.
		for (const name of [...NAMES].reverse()) {
			const reads = source.reads;
			const a = await cache.column(0, name);
			expect(Array.from(a), name).toEqual(
				Array.from({ length: ROWS }, (_, i) => value(0, name, i)),
			);
			if (source.reads !== reads) continue;
			held.push(name);
			// Held since the first read: no longer a view of it.
			expect(a.buffer, name).not.toBe(first[0]!.buffer);
			expect(a.buffer.byteLength, name).toBe(a.byteLength);
		}
		return held.sort();
	}

	it('lets the columns of a shared read go together when one of them goes', async () => {
		expect(await pushedOut([])).toEqual([]);
	});

	it('gives those a loop will read bytes of their own instead', async () => {
		expect(await pushedOut(['flags', 'bytes'])).toEqual(['bytes', 'flags']);
	});
	it('counts a column among those sharing its read before holding it pushes one of them out', async () => {
		const source = new SharedReads();
		// Room for 5 KiB: holding the last of the three (4 KiB) pushes the first out.
		const cache = new ColumnCache(source, 5 * ROWS);
		const read = await cache.columns(0, NAMES);
		expect(cache.bytes).toBeLessThanOrEqual(5 * ROWS);
		for (const name of [...NAMES].reverse()) {
			const reads = source.reads;
			const a = await cache.column(0, name);
			if (source.reads !== reads) continue;
			// Held since that read: not a view of it, holding bytes the cache does not count.
			expect(a.buffer, name).not.toBe(read[0]!.buffer);
		}
	});
});
