// An import's share done: it only grows as its parts go on, whichever starts late, and is whole
// only when every part is.
import { describe, expect, it } from 'vitest';
import { importShare } from '../../web/src/worker/import-share.ts';

describe('importShare', () => {
	it('does not go back when the copy starts late', () => {
		const steps: [number, number][] = [
			// decoded, copied
			[0.1, 0],
			[0.2, 0],
			[0.25, 0.3],
			[0.3, 0.8],
			[0.6, 1],
			[1, 1],
		];
		const shares = steps.map(([d, c]) => importShare(d, c));
		for (let k = 1; k < shares.length; k++) expect(shares[k]).toBeGreaterThan(shares[k - 1]!);
		expect(shares.at(-1)).toBe(1);
	});

	it('is whole only when every part is', () => {
		expect(importShare(1, 0.99)).toBeLessThan(1);
		expect(importShare(0.99, 1)).toBeLessThan(1);
		expect(importShare(1, null)).toBe(1);
		expect(importShare(0, null)).toBe(0);
	});

	it('counts the decoding more than the copy, and keeps each part within 0..1', () => {
		expect(importShare(1, 0)).toBeGreaterThan(importShare(0, 1));
		expect(importShare(2, 1)).toBe(1);
		expect(importShare(-1, null)).toBe(0);
	});
});
