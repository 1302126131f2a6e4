// The timeline's stacked series and its zoom steps.
import { describe, expect, it } from 'vitest';
import {
	rangeOfSelection,
	stackHistogram,
	STACK_ORDER,
	importingSpan,
	traceSpan,
	zoomedOut,
} from '../../../web/src/views/timeline/timeline-data.ts';

describe('timeline data', () => {
	it('stacks the categories bottom to top and marks bins with errors', () => {
		const s = stackHistogram({
			from: 0,
			to: 3e7,
			bins: 3,
			series: { data: [5, 0, 1], connect: [1, 2, 0], other: [0, 0, 4], errors: [0, 1, 0] },
		});
		expect(STACK_ORDER).toEqual(['data', 'connect', 'other', 'errors']);
		expect(s.x).toEqual([0, 1, 2]);
		expect(s.tops).toEqual([
			[5, 0, 1],
			[6, 2, 1],
			[6, 2, 5],
			[6, 3, 5],
		]);
		expect(s.errorBins).toEqual([1]);
		expect(s.max).toBe(6);
		expect(s.binSeconds).toBe(1);
	});

	it('turns a brushed span into whole ticks', () => {
		expect(rangeOfSelection(1.23456789, 2)).toEqual({ from: 12345678, to: 20000000 });
		expect(rangeOfSelection(1, 1)).toEqual({ from: 1e7, to: 1e7 + 1 });
	});

	it('zooms out around the middle, within the trace, until it is all of it', () => {
		const trace = { from: 0, to: 100 };
		expect(zoomedOut({ from: 40, to: 60 }, trace)).toEqual({ from: 30, to: 70 });
		expect(zoomedOut({ from: 0, to: 20 }, trace)).toEqual({ from: 0, to: 40 });
		expect(zoomedOut({ from: 90, to: 100 }, trace)).toEqual({ from: 80, to: 100 });
		expect(zoomedOut({ from: 20, to: 80 }, trace)).toBe(null);
	});

	it('spans a trace from its first event to just after its last, at least one tick', () => {
		expect(traceSpan({ tMin: 5, tMax: 9 })).toEqual({ from: 5, to: 10 });
		// One event, or none stored yet while importing (the library then lists 0 to 0).
		expect(traceSpan({ tMin: 7, tMax: 7 })).toEqual({ from: 7, to: 8 });
		expect(traceSpan({ tMin: 0, tMax: 0 })).toEqual({ from: 0, to: 1 });
	});
});

describe('the span of a trace being imported', () => {
	it('ends at the next power-of-two width that holds its last event', () => {
		expect(importingSpan({ tMin: 100, tMax: 100 })).toEqual({ from: 100, to: 101 });
		expect(importingSpan({ tMin: 100, tMax: 1333 })).toEqual({ from: 100, to: 2148 });
		expect(importingSpan({ tMin: 100, tMax: 2147 })).toEqual({ from: 100, to: 2148 });
		expect(importingSpan({ tMin: 100, tMax: 2148 })).toEqual({ from: 100, to: 4196 });
		expect(importingSpan({ tMin: 0, tMax: 5e7 })).toEqual({ from: 0, to: 2 ** 26 });
		expect(importingSpan({ tMin: 0, tMax: 2 ** 40 - 1 })).toEqual({ from: 0, to: 2 ** 40 });
	});

	it('changes a few times only while the import goes on, and always holds the events', () => {
		const spans = new Set<number>();
		for (let tMax = 0; tMax < 3e10; tMax = tMax * 1.01 + 1) {
			const s = importingSpan({ tMin: 0, tMax });
			expect(s.to).toBeGreaterThan(tMax);
			expect(s.to).toBeLessThanOrEqual(2 * (tMax + 1));
			spans.add(s.to);
		}
		// One per power of two: each width is the last one doubled (its counts fold exactly).
		expect(spans.size).toBeLessThanOrEqual(Math.ceil(Math.log2(3e10)) + 1);
		const widths = [...spans].sort((a, b) => a - b);
		for (let k = 1; k < widths.length; k++) expect(widths[k]).toBe(2 * widths[k - 1]!);
	});
});
