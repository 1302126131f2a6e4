// Scaled scrolling of the events table, for row counts far beyond what a browser can lay out.
import { describe, expect, it } from 'vitest';
import {
	firstRow,
	fullRows,
	MAX_HEIGHT,
	renderedRows,
	revealTarget,
	scrollTopFor,
	spacerHeight,
} from '../../../web/src/views/events/scroll-window.ts';

describe('scaled scrolling', () => {
	const g = { count: 12_345_678, viewport: 500 };

	it('keeps the spacer under the cap that browsers put on heights', () => {
		expect(spacerHeight(g)).toBe(MAX_HEIGHT);
		expect(spacerHeight({ count: 10, viewport: 500 })).toBe(260);
	});

	it('reaches the last row at the bottom, wholly in view', () => {
		const bottom = spacerHeight(g) - g.viewport;
		const first = firstRow(g, bottom);
		expect(first + fullRows(g) - 1).toBe(g.count - 1);
		expect(renderedRows(g, first)).toBe(fullRows(g));
		expect(firstRow(g, bottom + 1000)).toBe(first);
		expect(firstRow(g, 0)).toBe(0);
	});

	it('maps a row to a scroll position and back', () => {
		for (const row of [0, 1, 17, 1_000_000, 6_000_001, g.count - fullRows(g)])
			expect(firstRow(g, scrollTopFor(g, row))).toBe(row);
	});

	it('scrolls one pixel per pixel below the cap', () => {
		const small = { count: 1000, viewport: 520 };
		expect(firstRow(small, 26 * 100)).toBe(100);
		expect(scrollTopFor(small, 100)).toBe(2600);
	});

	it('moves as little as it can to reveal a row', () => {
		const small = { count: 1000, viewport: 520 };
		expect(revealTarget(small, 100, 105)).toBe(null);
		expect(revealTarget(small, 100, 99)).toBe(99);
		expect(revealTarget(small, 100, 120)).toBe(101);
		expect(revealTarget(small, 100, 119)).toBe(null);
	});

	it('handles fewer rows than fit', () => {
		const tiny = { count: 3, viewport: 520 };
		expect(firstRow(tiny, 0)).toBe(0);
		expect(renderedRows(tiny, 0)).toBe(3);
		expect(revealTarget(tiny, 0, 2)).toBe(null);
	});
});
