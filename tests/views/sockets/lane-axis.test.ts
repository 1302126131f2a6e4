// The Sockets panel's lanes axis: the timeline's ticks placed on the lanes, labels kept inside.
import { describe, expect, it } from 'vitest';
import { filetimeFromIso } from '../../../web/src/decoder/time.ts';
import { laneAxis } from '../../../web/src/views/sockets/lane-axis.ts';
import { CHAR_PX, timeTicks } from '../../../web/src/views/timeline/time-ticks.ts';

const START = filetimeFromIso('2026-03-14T09:26:53.5897932Z').toString();

describe('lanes axis', () => {
	for (const mode of ['relative', 'utc'] as const)
		for (const axis of [
			{ from: 0, to: 123_456_789 },
			{ from: -2_500_000, to: 40_000_000 },
			{ from: 7, to: 1_007 },
		])
			for (const width of [180, 900])
				it(`${mode}, ${axis.from}–${axis.to} over ${width} px: the timeline's ticks, labels inside`, () => {
					const scale = timeTicks(axis.from, axis.to, width, mode, START);
					const { ticks, stepPx, firstPx } = laneAxis(axis, width, mode, START);
					expect(ticks.map((k) => [k.at, k.label])).toEqual(
						scale.ticks.map((k) => [k.at, k.label]),
					);
					expect(ticks.length).toBeGreaterThan(0);
					const span = axis.to - axis.from;
					expect(stepPx).toBeCloseTo((scale.step / span) * width, 9);
					expect(firstPx).toBeCloseTo(ticks[0]!.x * width, 9);
					for (const k of ticks) {
						expect(k.x).toBeCloseTo((k.at - axis.from) / span, 12);
						expect(k.x).toBeGreaterThanOrEqual(0);
						expect(k.x).toBeLessThan(1);
						const px = k.label.length * CHAR_PX;
						const left =
							k.align === 'start'
								? k.x * width
								: k.align === 'end'
									? k.x * width - px
									: k.x * width - px / 2;
						expect(left, k.label).toBeGreaterThanOrEqual(-1e-9);
						expect(left + px, k.label).toBeLessThanOrEqual(width + px / 2 + 1e-9);
						if (k.align === 'middle') expect(left + px).toBeLessThanOrEqual(width + 1e-9);
					}
				});

	it('aligns a label on the edge to the edge, and centres the rest', () => {
		const { ticks } = laneAxis({ from: 0, to: 100_000_000 }, 1000, 'relative', START);
		expect(ticks[0]!.at).toBe(0);
		expect(ticks[0]!.align).toBe('start');
		expect(ticks.slice(1).every((k) => k.align === 'middle')).toBe(true);
		const late = laneAxis({ from: -99_999_000, to: 1_000 }, 1000, 'relative', START).ticks;
		expect(late.at(-1)!.at).toBe(0);
		expect(late.at(-1)!.align).toBe('end');
	});

	it('has no ticks before the lanes have a width', () => {
		expect(laneAxis({ from: 0, to: 10 }, 0, 'relative', START)).toEqual({
			ticks: [],
			stepPx: 0,
			firstPx: 0,
		});
		expect(laneAxis({ from: 5, to: 5 }, 500, 'utc', START).ticks).toEqual([]);
	});
});
