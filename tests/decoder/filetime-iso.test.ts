// filetimeToIso makes the text of a second once for the times that fall in it: it must say what
// working each time out alone says, in any order, at the edges of what has text.
import { describe, expect, it } from 'vitest';
import { Prng } from '../builders/prng.ts';
import { filetimeToIso } from '../../web/src/decoder/time.ts';

/** The text worked out alone, through Date, as the ISO format defines it. */
function reference(ft: bigint): string | null {
	if (ft < 0n) return null;
	const ms = ft / 10000n - 11644473600000n;
	if (ms > 8640000000000000n || ms < -8640000000000000n) return null;
	const iso = new Date(Number((ft / 10000000n) * 1000n - 11644473600000n)).toISOString();
	if (iso.length !== 24) return null;
	return `${iso.slice(0, 19)}.${(ft % 10000000n).toString().padStart(7, '0')}Z`;
}

describe('filetimeToIso', () => {
	it('says what each time worked out alone says, in time order and out of it', () => {
		const rng = new Prng(7);
		const rnd = () => rng.next();
		const start = 134179540135897932n;
		const times: bigint[] = [];
		// A trace's records: many in each second, seconds in order.
		let t = start;
		for (let k = 0; k < 5000; k++) times.push((t += BigInt(Math.floor(rnd() * 4_000_000))));
		// Then anywhere, in any order, within and far beyond the years that have text.
		for (let k = 0; k < 5000; k++)
			times.push(BigInt(Math.floor(rnd() * 2 ** 53)) * BigInt(1 + Math.floor(rnd() * 400)));
		let seen = 0;
		for (const ft of times) {
			const want = reference(ft);
			if (want !== null) seen++;
			expect(filetimeToIso(ft), String(ft)).toBe(want);
		}
		expect(seen).toBeGreaterThan(5000);
		expect(seen).toBeLessThan(times.length);
	});

	it('at the edges: the first seconds after 1601, the last second with four-digit years', () => {
		const year10000 = 2650467744000000000n; // 10000-01-01T00:00:00Z
		const edges = [
			0n,
			1n,
			9_999_999n,
			10_000_000n,
			year10000 - 10_000_001n,
			year10000 - 1n,
			year10000,
			year10000 + 1n,
			-1n,
		];
		// Each asked twice, after a time of another second and after one of the same.
		for (const ft of edges)
			for (const before of [ft, ft + 1n, 134179540135897932n]) {
				filetimeToIso(before);
				expect(filetimeToIso(ft), String(ft)).toBe(reference(ft));
			}
		expect(filetimeToIso(year10000 - 1n)).toBe('9999-12-31T23:59:59.9999999Z');
		expect(filetimeToIso(year10000)).toBeNull();
	});
});
