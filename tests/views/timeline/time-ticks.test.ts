// The timeline's time ticks: round 1-2-5 steps, labels that never overlap, both time modes.
import { describe, expect, it } from 'vitest';
import {
	CHAR_PX,
	decimalsOf,
	LABEL_GAP_PX,
	timeTicks,
	type TickMode,
} from '../../../web/src/views/timeline/time-ticks.ts';
import { filetimeFromIso, filetimeToIso } from '../../../web/src/decoder/time.ts';

const START = filetimeFromIso('2026-03-14T09:26:53.5897932Z').toString();
const SECOND = 1e7;
const SPANS: [string, number][] = [
	['1 µs', 10],
	['10 µs', 100],
	['1 ms', 1e4],
	['37 ms', 37e4],
	['1 s', SECOND],
	['1 min', 60 * SECOND],
	['1 h', 3600 * SECOND],
	['1 day', 86_400 * SECOND],
	['3 days', 3 * 86_400 * SECOND],
];

function isRound(step: number): boolean {
	const p = Math.pow(10, Math.floor(Math.log10(step)));
	return [1, 2, 5].some((m) => Math.abs(step - m * p) < 1e-9 * step);
}

describe('time ticks', () => {
	for (const mode of ['relative', 'utc'] as TickMode[])
		for (const [name, span] of SPANS)
			for (const width of [300, 1200])
				it(`${mode}, ${name} over ${width} px: round, in range, not overlapping`, () => {
					const from = 1234;
					const to = from + span;
					const { step, ticks } = timeTicks(from, to, width, mode, START);
					expect(isRound(step)).toBe(true);
					expect(step).toBeGreaterThanOrEqual(1);
					expect(ticks.length).toBeGreaterThanOrEqual(1);
					const longest = Math.max(...ticks.map((k) => k.label.length));
					const stepPx = (step / span) * width;
					// Each label (centred on its tick) ends before the next one starts.
					expect(stepPx).toBeGreaterThanOrEqual(longest * CHAR_PX + LABEL_GAP_PX);
					// Not needlessly sparse: the next finer round step would not fit.
					if (step > 1) expect(stepPx).toBeLessThan(5 * (longest * CHAR_PX + LABEL_GAP_PX));
					for (const [k, t] of ticks.entries()) {
						expect(t.at).toBeGreaterThanOrEqual(from);
						expect(t.at).toBeLessThan(to);
						if (k > 0) expect(t.at - ticks[k - 1]!.at).toBe(step);
					}
					expect(ticks[0]!.at - from).toBeLessThan(step);
					expect(new Set(ticks.map((k) => k.label)).size).toBe(ticks.length);
				});

	it('falls on multiples of the step since the start, labelled in seconds', () => {
		const { step, ticks } = timeTicks(0, 10 * SECOND, 800, 'relative', START);
		expect(step).toBe(SECOND);
		expect(ticks.map((k) => k.label)).toEqual(Array.from({ length: 10 }, (_, i) => `${i} s`));
		const fine = timeTicks(5000, 5200, 800, 'relative', START);
		// "0.0005000 s" needs 89 px: 20 ticks are 80 px apart, 50 are 200.
		expect(fine.step).toBe(50);
		expect(fine.ticks[0]!.at % fine.step).toBe(0);
		expect(fine.ticks[0]!.label).toBe(`${(fine.ticks[0]!.at / SECOND).toFixed(6)} s`);
	});

	it('falls on round UTC times in UTC mode, labelled as the time of day', () => {
		const span = 10 * SECOND;
		const { step, ticks } = timeTicks(0, span, 800, 'utc', START);
		expect(step).toBe(SECOND);
		for (const k of ticks) {
			const iso = filetimeToIso(BigInt(START) + BigInt(k.at))!;
			// On a whole UTC second, however the trace's start falls.
			expect(iso.slice(20, 27)).toBe('0000000');
			expect(k.label).toBe(iso.slice(11, 19));
		}
		expect(ticks[0]!.label).toBe('09:26:54');
	});

	it('gives the date with the time when the span is days long', () => {
		const { ticks } = timeTicks(0, 3 * 86_400 * SECOND, 1200, 'utc', START);
		expect(ticks[0]!.label).toMatch(/^03-1[45] \d\d:\d\d:\d\d$/);
	});

	it('needs as many decimals as its step', () => {
		expect(decimalsOf(1)).toBe(7);
		expect(decimalsOf(2e4)).toBe(3);
		expect(decimalsOf(5e6)).toBe(1);
		expect(decimalsOf(SECOND)).toBe(0);
		expect(decimalsOf(50 * SECOND)).toBe(0);
	});
});
