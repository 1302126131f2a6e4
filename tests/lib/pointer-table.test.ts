// The builder's pointer table must answer exactly as a Map keyed by the whole 64-bit value,
// through growth and colliding slots.
import { describe, expect, it } from 'vitest';
import { PointerTable } from '../../web/src/lib/pointer-table.ts';
import { Prng } from '../builders/prng.ts';

describe('PointerTable', () => {
	it('keeps every pair apart and finds each again', () => {
		const rng = new Prng(7);
		const table = new PointerTable();
		const reference = new Map<string, number>();
		// Differences are gathered and compared once: an expect per lookup costs more than the lookups.
		const wrong: string[] = [];
		// Each pointer as the decoder's field table holds it: two words, low half first.
		const words = new Uint32Array(2);
		const check = (hi: number, lo: number, want: number) => {
			words[0] = lo;
			words[1] = hi;
			const got = table.getAt(words, 0);
			if (got !== want) wrong.push(`${hi}:${lo} gave ${got}, not ${want}`);
		};
		// Kernel-like pointers: a few high halves, aligned low halves, and some extremes.
		const his = [0, 0xffff8a5c, 0xffffc000, 0x7ff6, -1];
		for (let n = 0; n < 50_000; n++) {
			const hi = his[rng.int(0, his.length - 1)]! | 0;
			const lo = rng.chance(0.01)
				? [0, -1, 0x80000000 | 0][rng.int(0, 2)]!
				: (rng.int(0, 1 << 20) * 16) | 0;
			const key = `${hi}:${lo}`;
			const known = reference.get(key);
			check(hi, lo, known ?? -1);
			if (known === undefined) {
				reference.set(key, n);
				table.set(hi, lo, n);
			}
		}
		expect(reference.size).toBeGreaterThan(30_000);
		for (const [key, value] of reference) {
			const [hi, lo] = key.split(':').map(Number) as [number, number];
			check(hi, lo, value);
			// The decoder hands out halves as unsigned numbers: the same keys.
			check(hi >>> 0, lo >>> 0, value);
		}
		expect(wrong).toEqual([]);
	});

	it('finds a pointer stored as two words (low half first) as by its halves', () => {
		const table = new PointerTable();
		const words = Uint32Array.of(0xdeadbeef, 0xffff8a5c, 0x10, 0, 0x80000000, 0xffffffff);
		table.set(0xffff8a5c, 0xdeadbeef, 1);
		table.set(0, 0x10, 2);
		expect([table.getAt(words, 0), table.getAt(words, 2), table.getAt(words, 4)]).toEqual([
			1, 2, -1,
		]);
		table.set(0xffffffff, 0x80000000, 3);
		expect(table.getAt(words, 4)).toBe(3);
	});
});
