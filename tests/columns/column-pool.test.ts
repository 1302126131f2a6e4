// Columns given back are handed out again, zeroed; only full-size ones, and no more than asked.
import { describe, expect, it } from 'vitest';
import { withTransfer } from '../builders/transfer.ts';
import { ColumnPool } from '../../web/src/columns/column-pool.ts';
import { CHUNK_ROWS, FIRST_CHUNK_ROWS } from '../../web/src/columns/layout.ts';

describe('ColumnPool', () => {
	it('hands out a column given back, zeroed', () => {
		const pool = new ColumnPool();
		const bytes = pool.take('bytes', CHUNK_ROWS);
		expect(bytes).toBeInstanceOf(Uint32Array);
		expect(bytes.length).toBe(CHUNK_ROWS);
		bytes.fill(7);
		pool.give({ bytes });
		const again = pool.take('bytes', CHUNK_ROWS);
		expect(again).toBe(bytes);
		expect(again.every((v) => v === 0)).toBe(true);
		// Taken: a new one next.
		expect(pool.take('bytes', CHUNK_ROWS)).not.toBe(bytes);
	});

	it('keeps columns by name, and only those of a full chunk', () => {
		const pool = new ColumnPool();
		const time = new Float64Array(CHUNK_ROWS);
		const small = new Uint32Array(FIRST_CHUNK_ROWS);
		pool.give({ time, bytes: small });
		expect(pool.take('bytes', FIRST_CHUNK_ROWS)).not.toBe(small);
		expect(pool.take('bytes', CHUNK_ROWS)).not.toBe(small);
		expect(pool.take('tick', CHUNK_ROWS)).not.toBe(time);
		expect(pool.take('time', CHUNK_ROWS)).toBe(time);
	});

	it('keeps no more sets than it was made for, and each column once', () => {
		const pool = new ColumnPool(2);
		const sets: Uint8Array[] = [0, 1, 2].map(() => new Uint8Array(CHUNK_ROWS));
		for (const flags of sets) pool.give({ flags });
		pool.give({ flags: sets[1]! });
		const taken = [0, 1, 2].map(() => pool.take('flags', CHUNK_ROWS));
		expect(taken.filter((a) => sets.includes(a))).toHaveLength(2);
		expect(new Set(taken).size).toBe(3);
	});

	it('frees the sets it keeps when cleared, and hands out new ones after', () => {
		const remove = withTransfer();
		try {
			const pool = new ColumnPool();
			const bytes = new Uint32Array(CHUNK_ROWS);
			const time = new Float64Array(CHUNK_ROWS);
			pool.give({ bytes, time });
			pool.clear();
			expect(bytes.byteLength).toBe(0);
			expect(time.byteLength).toBe(0);
			const again = pool.take('bytes', CHUNK_ROWS);
			expect(again === bytes).toBe(false);
			expect(again.length).toBe(CHUNK_ROWS);
		} finally {
			remove();
		}
	});
});
