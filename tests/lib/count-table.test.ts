import { describe, expect, it } from 'vitest';
import { CountTable } from '../../web/src/lib/count-table.ts';

describe('CountTable', () => {
	it('counts like a Map, for small keys, keys past 2^32 and many distinct keys', () => {
		const table = new CountTable();
		const expected = new Map<number, number>();
		let seed = 12345;
		const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
		for (let n = 0; n < 100_000; n++) {
			const r = next();
			// Few hot keys, many cold ones, and remote endpoints (address × 65536 + port).
			const key =
				r % 3 === 0
					? r % 7
					: r % 3 === 1
						? next() % 50_000
						: (next() % 4096) * 65536 * 65536 + (r % 65536);
			table.add(key);
			expected.set(key, (expected.get(key) ?? 0) + 1);
		}
		const got = new Map(table.entries());
		expect(got.size).toBe(expected.size);
		// Compared key by key, differences gathered: a deep equality of two Maps of tens of thousands of entries is slow.
		const wrong = [...expected].filter(([k, v]) => got.get(k) !== v);
		expect(wrong).toEqual([]);
		expect(Math.max(...got.keys())).toBeGreaterThan(2 ** 32);
	});
});
