// The I/O graph's drawing: rates from bytes per interval, a round rate scale, step paths.
import { describe, expect, it } from 'vitest';
import {
	intervalLabel,
	rateLabel,
	rateScale,
	rates,
	stepPath,
} from '../../../web/src/views/iograph/io-graph-view.ts';
import { IO_INTERVALS } from '../../../web/src/query/io-graph.ts';

describe('I/O graph view', () => {
	it('turns bytes per interval into bytes per second', () => {
		const interval = IO_INTERVALS[5]!; // 50 ms
		const sent = [100, 0, 250];
		const received = [0, 40, 0];
		const g = {
			from: 0,
			to: 3 * interval,
			interval,
			sent,
			received,
			totalSent: 350,
			totalReceived: 40,
		};
		const r = rates(g);
		const seconds = interval / 1e7;
		expect(r.sent).toEqual(sent.map((b) => b / seconds));
		expect(r.received).toEqual(received.map((b) => b / seconds));
	});

	it('names the intervals of the chooser', () => {
		expect(IO_INTERVALS.map(intervalLabel)).toEqual([
			'1 ms',
			'2 ms',
			'5 ms',
			'10 ms',
			'20 ms',
			'50 ms',
			'100 ms',
			'200 ms',
			'500 ms',
			'1 s',
			'2 s',
			'5 s',
			'10 s',
		]);
	});

	it('scales rates to a round top above the largest', () => {
		for (const max of [0.3, 7, 99, 1234, 5e6]) {
			const { top, ticks } = rateScale(max);
			expect(top).toBeGreaterThanOrEqual(max);
			expect(ticks[0]).toBe(0);
			expect(ticks.at(-1)).toBeCloseTo(top);
			expect(ticks.length).toBeLessThanOrEqual(6);
		}
		expect(rateScale(0)).toEqual({ top: 1, ticks: [0, 1] });
		expect(rateLabel(1500)).toBe('1.5k');
		expect(rateLabel(2e7)).toBe('20M');
	});

	it('draws each interval as a flat step', () => {
		const d = stepPath(
			[2, 0],
			(k) => k * 10,
			(v) => 100 - v * 10,
		);
		expect(d).toBe('M0,100V80H10V100H20V100');
		expect(
			stepPath(
				[],
				(k) => k,
				(v) => v,
			),
		).toBe('');
	});
});
