// Slice memory given back by the sockets worker serves again: the smallest spare that holds a
// slice, new memory only when none does, and what comes back beyond the cap freed at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlicePool } from '../../web/src/sockets/slice-pool.ts';
import { withTransfer } from '../builders/transfer.ts';

const KB = 1024;

describe('SlicePool', () => {
	let remove = () => {};
	beforeAll(() => void (remove = withTransfer()));
	afterAll(() => remove());

	it('makes memory in 32 KiB steps, and counts what it made', () => {
		const pool = new SlicePool(1 << 20);
		expect(pool.take(130 * KB).byteLength).toBe(160 * KB);
		expect(pool.take(0).byteLength).toBe(32 * KB);
		expect(pool.made).toBe(192 * KB);
	});

	it('hands back the smallest spare that holds the slice', () => {
		const pool = new SlicePool(1 << 20);
		const [small, middle, large] = [100, 150, 200].map((k) => pool.take(k * KB));
		for (const b of [large!, small!, middle!]) pool.give(b);
		const made = pool.made;
		// 128, 160 and 224 KiB.
		expect(pool.take(140 * KB) === middle).toBe(true);
		expect(pool.take(90 * KB) === small).toBe(true);
		expect(pool.take(180 * KB) === large).toBe(true);
		expect(pool.made).toBe(made);
		expect(pool.bytes).toBe(0);
		// None left that holds it: new memory.
		pool.give(small!);
		expect(pool.take(150 * KB) === small).toBe(false);
		expect(pool.made).toBe(made + 160 * KB);
	});

	it('frees at once what comes back beyond its cap', () => {
		const pool = new SlicePool(256 * KB);
		const [a, b] = [pool.take(128 * KB), pool.take(160 * KB)];
		pool.give(a);
		pool.give(b);
		expect(pool.bytes).toBe(128 * KB);
		expect(b.byteLength).toBe(0);
		expect(pool.take(100 * KB) === a).toBe(true);
	});

	it('frees every spare when cleared', () => {
		const pool = new SlicePool(1 << 20);
		const spares = [64, 96].map((k) => pool.take(k * KB));
		for (const s of spares) pool.give(s);
		pool.clear();
		expect(pool.bytes).toBe(0);
		expect(spares.map((s) => s.byteLength)).toEqual([0, 0]);
	});
});
