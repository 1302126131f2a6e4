// Zooming and panning the timeline: around the pointer, within the trace, and its keys.
import { describe, expect, it } from 'vitest';
import {
	MIN_WIDTH,
	panBy,
	timelineKey,
	wheelFactor,
	ZOOM_STEP,
	zoomAround,
} from '../../../web/src/views/timeline/zoom.ts';

const SPAN = { from: 0, to: 1_000_000 };

describe('timeline zoom', () => {
	it('zooms in around the anchor, keeping the instant under it', () => {
		const r = zoomAround(null, SPAN, 0.5, 0.25)!;
		expect(r.to - r.from).toBe(500_000);
		// The instant a quarter across stays a quarter across.
		expect(r.from + 0.25 * (r.to - r.from)).toBe(250_000);
	});

	it('zooms out to the whole trace, which is no range', () => {
		const r = { from: 400_000, to: 600_000 };
		const out = zoomAround(r, SPAN, 1 / ZOOM_STEP)!;
		expect(out.to - out.from).toBe(250_000);
		expect(zoomAround(r, SPAN, 10)).toBeNull();
	});

	it('stays within the trace and never narrower than a microsecond', () => {
		const r = zoomAround({ from: 900_000, to: 1_000_000 }, SPAN, 1.5, 1)!;
		expect(r.to).toBe(SPAN.to);
		expect(r.to - r.from).toBe(150_000);
		const tiny = zoomAround({ from: 10, to: 30 }, SPAN, 0.01)!;
		expect(tiny.to - tiny.from).toBe(MIN_WIDTH);
	});

	it('pans by a fraction of the range, clamped at the ends', () => {
		expect(panBy({ from: 100, to: 200 }, SPAN, 0.2)).toEqual({ from: 120, to: 220 });
		expect(panBy({ from: 100, to: 200 }, SPAN, -2)).toEqual({ from: 0, to: 100 });
		expect(panBy(null, SPAN, 0.2)).toBeNull();
	});

	it('turns wheel notches into zoom factors in any delta mode', () => {
		expect(wheelFactor(-100, 0)).toBeCloseTo(ZOOM_STEP);
		expect(wheelFactor(100, 0)).toBeCloseTo(1 / ZOOM_STEP);
		expect(wheelFactor(-3, 1)).toBeCloseTo(Math.pow(ZOOM_STEP, 0.99));
	});

	it('maps Perfetto keys and +/-', () => {
		expect(timelineKey('w')).toEqual({ do: 'zoom', factor: ZOOM_STEP });
		expect(timelineKey('W')).toEqual({ do: 'zoom', factor: ZOOM_STEP });
		expect(timelineKey('+')).toEqual({ do: 'zoom', factor: ZOOM_STEP });
		expect(timelineKey('-')).toEqual({ do: 'zoom', factor: 1 / ZOOM_STEP });
		expect(timelineKey('s')).toEqual({ do: 'zoom', factor: 1 / ZOOM_STEP });
		expect(timelineKey('a')!.do).toBe('pan');
		expect(timelineKey('d')!.do).toBe('pan');
		expect(timelineKey('0')).toEqual({ do: 'reset' });
		expect(timelineKey('x')).toBeNull();
	});
});
