// TickClock works out FILETIME text in doubles: it must say exactly what bigint says.
import { describe, expect, it } from 'vitest';
import { Prng } from '../builders/prng.ts';
import { TickClock, filetimeToIso } from '../../web/src/decoder/time.ts';

const bigintText = (origin: bigint, ticks: number) => ({
	filetime: String(origin + BigInt(ticks)),
	iso: filetimeToIso(origin + BigInt(ticks)),
});

describe('TickClock', () => {
	it('gives the text bigint gives, at any offset from real and edge origins', () => {
		const rng = new Prng(27);
		const rnd = () => rng.next();
		const origins = [
			134179540135897932n, // a real trace's StartTime (2026)
			134179540130000000n, // on a whole second
			134179540139999999n, // a tick before one
			0n,
			9_999_999n, // within the first second after 1601
			10_000_000n,
			2650467743999999999n, // 9999-12-31T23:59:59.9999999Z, the last time with an ISO text
			2650467744000000000n, // a year past ISO's four digits: no ISO text
			-5n,
		];
		const offsets = [0, 1, -1, 9_999_999, 10_000_000, -10_000_000, 2 ** 53 - 1, -(2 ** 53)];
		for (let k = 0; k < 2000; k++)
			offsets.push(Math.floor((rnd() - 0.3) * 10 ** Math.floor(rnd() * 16)));
		for (const origin of origins) {
			const clock = new TickClock(origin);
			for (const ticks of offsets)
				expect(
					{ filetime: clock.filetime(ticks), iso: clock.iso(ticks) },
					`${origin} + ${ticks}`,
				).toEqual(bigintText(origin, ticks));
		}
	});

	it('tells each second by its own date when marks go back and forth between seconds', () => {
		const clock = new TickClock(134179540135897932n);
		for (const ticks of [0, 5_000_000, 0, 86_400 * 10_000_000, 3, -20_000_000, 4])
			expect(clock.iso(ticks)).toBe(filetimeToIso(134179540135897932n + BigInt(ticks)));
	});
});
