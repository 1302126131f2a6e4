// A chunk's columns read several at once come back as they do one by one, in fewer reads: those
// stored close together in one, whatever the order asked.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
	allocateColumn,
	columnPieces,
	COLUMN_NAMES,
	STORE_APART,
	STORE_ORDER,
	type Chunk,
	type ColumnName,
	type Columns,
} from '../../web/src/columns/layout.ts';
import type { ChunkAdditions } from '../../web/src/ingest/ingest.ts';
import {
	chunkRecord,
	columnsOf,
	loadColumn,
	loadColumns,
} from '../../web/src/store/trace-store.ts';

const ROWS = 65536;

function chunk(seed: number, rows = ROWS): Chunk {
	let s = seed;
	const next = () => (s = (s * 1103515245 + 12345) >>> 0);
	const columns = Object.fromEntries(
		COLUMN_NAMES.map((n) => [n, allocateColumn(n, rows)]),
	) as unknown as Columns;
	for (let i = 0; i < rows; i++) {
		columns.etype[i] = next() % 30;
		columns.flags[i] = next() % 64;
		columns.bytes[i] = next() % 100_000;
		columns.status[i] = i % 7 === 0 ? 0xc0000236 : 0;
		columns.process[i] = next() % 500;
		columns.endpoint[i] = next() % 3000;
		columns.pid[i] = next();
		columns.tid[i] = next() % 70_000;
		columns.tick[i] = i * 3;
		columns.cat[i] = next() % 4;
		columns.cpu[i] = next() % 8;
		columns.buffer[i] = i >> 6;
		columns.recOffset[i] = (i * 40) % 65536;
		// raddr, laddr, ports, family, level, opcode, kind and time stay zeros: not stored.
	}
	return { index: 3, rows, columns, tMin: 0, tMax: rows * 3 };
}

const NO_ADDITIONS = {} as ChunkAdditions;
const db = null as never;

afterEach(() => vi.restoreAllMocks());

describe('loadColumns', () => {
	it('stores every column in its order', () => {
		expect([...STORE_ORDER].sort()).toEqual([...COLUMN_NAMES].sort());
	});

	// A chunk of whole words, and one whose byte columns leave the next ones unaligned (copied).
	it.each([ROWS, 1001])(
		'gives each column as loadColumn does, whatever the set and order asked (%i rows)',
		async (rows) => {
			const { record } = chunkRecord(1, chunk(7, rows), NO_ADDITIONS);
			const where = columnsOf(record);
			const stored = record.parts!.map((p) => p.name);
			const sets: ColumnName[][] = [
				['etype', 'bytes', 'flags'],
				['flags', 'etype'],
				['recOffset', 'etype', 'tick', 'buffer'],
				[...stored].reverse(),
				['tid'],
			];
			for (const names of sets) {
				const together = await loadColumns(db, 1, 3, names, where);
				for (const [k, name] of names.entries()) {
					const alone = await loadColumn(db, 1, 3, name, where);
					expect(together[k]!.constructor, name).toBe(alone.constructor);
					expect(Array.from(together[k]!), name).toEqual(Array.from(alone));
				}
				// Columns share a read only where they fill it (but for the padding that aligns each):
				// what the query cache keeps of a chunk holds no bytes it does not count.
				const shared = new Map<ArrayBufferLike, ArrayBufferView[]>();
				for (const c of together) shared.set(c.buffer, [...(shared.get(c.buffer) ?? []), c]);
				for (const [buffer, views] of shared) {
					const counted = views.reduce((n, v) => n + v.byteLength, 0);
					expect(buffer.byteLength - counted, `${names}`).toBeLessThan(8 * views.length);
				}
			}
		},
	);

	it('hands out the columns stored side by side as views of their one read', async () => {
		const { record } = chunkRecord(1, chunk(5), NO_ADDITIONS);
		const [etype, flags, bytes] = await loadColumns(
			db,
			1,
			3,
			['etype', 'flags', 'bytes'],
			columnsOf(record),
		);
		expect(new Set([etype!.buffer, flags!.buffer, bytes!.buffer]).size).toBe(1);
	});

	it('reads the columns filters use most in one read', async () => {
		const { record } = chunkRecord(1, chunk(9), NO_ADDITIONS);
		const slice = vi.spyOn(Blob.prototype, 'slice');
		await loadColumns(db, 1, 3, ['bytes', 'etype', 'flags'], columnsOf(record));
		expect(slice).toHaveBeenCalledTimes(1);
		slice.mockClear();
		// The timeline's and the records' columns are far apart: two reads.
		await loadColumns(db, 1, 3, ['etype', 'recOffset'], columnsOf(record));
		expect(slice).toHaveBeenCalledTimes(2);
	});

	it('says which column is missing', async () => {
		const { record } = chunkRecord(1, chunk(3), NO_ADDITIONS);
		await expect(loadColumns(db, 1, 3, ['etype', 'laddr'], columnsOf(record))).rejects.toThrow(
			/chunk 3 has no column laddr/,
		);
	});

	it('stores the timeline’s columns in a Blob apart, read whole without a slice', async () => {
		const c = chunk(11);
		const { record, bytes } = chunkRecord(1, c, NO_ADDITIONS);
		const apart = STORE_APART.flat();
		expect(record.blobs).toHaveLength(STORE_APART.length);
		for (const p of record.parts!)
			expect(p.blob, p.name).toBe(apart.includes(p.name) ? 1 : undefined);
		expect(bytes).toBe(record.data!.size + record.blobs!.reduce((n, b) => n + b.size, 0));
		const slice = vi.spyOn(Blob.prototype, 'slice');
		const [tick, cat] = await loadColumns(db, 1, 3, ['tick', 'cat'], columnsOf(record));
		expect(slice).not.toHaveBeenCalled();
		expect(Array.from(tick!)).toEqual(Array.from(c.columns.tick));
		expect(Array.from(cat!)).toEqual(Array.from(c.columns.cat));
		// Columns of both Blobs asked together: a read of each.
		const [etype, tick2] = await loadColumns(db, 1, 3, ['etype', 'tick'], columnsOf(record));
		expect(Array.from(etype!)).toEqual(Array.from(c.columns.etype));
		expect(Array.from(tick2!)).toEqual(Array.from(c.columns.tick));
	});

	it('stores no Blob apart when its columns are all zeros', () => {
		const c = chunk(13);
		c.columns.cat.fill(0);
		c.columns.tick.fill(0);
		const { record, zeros } = chunkRecord(1, c, NO_ADDITIONS);
		expect(record.blobs).toBeUndefined();
		expect(zeros).toEqual(expect.arrayContaining(['cat', 'tick']));
	});

	it('reads chunks stored before, every column in one Blob, as it reads those stored now', async () => {
		const c = chunk(17);
		const { record } = chunkRecord(1, c, NO_ADDITIONS);
		const names = STORE_ORDER.filter((n) => n !== 'time');
		const old = columnPieces(c.columns, names);
		const before = { data: new Blob(old.pieces as BlobPart[]), parts: old.parts };
		for (const set of [
			['tick', 'cat', 'etype'],
			['recOffset', 'tick'],
			['cat'],
		] as ColumnName[][]) {
			const now = await loadColumns(db, 1, 3, set, columnsOf(record));
			const then = await loadColumns(db, 1, 3, set, before);
			for (const [k, name] of set.entries())
				expect(Array.from(then[k]!), name).toEqual(Array.from(now[k]!));
		}
	});
});
