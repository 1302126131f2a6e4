// Zooming and panning the timeline by wheel and keys: each step a new time range, kept within
// the trace; the whole trace is null (no range), as the URL fragment writes it.
import type { TimeRange } from '../../query/protocol.ts';

/** How much one key press or wheel notch narrows (or, inverted, widens) the range. */
export const ZOOM_STEP = 0.8;
/** How far one pan key press moves the range, as a fraction of its width. */
export const PAN_STEP = 0.2;
/** The narrowest range: ten ticks (1 µs). */
export const MIN_WIDTH = 10;

/**
 * The range scaled by `factor` (< 1 zooms in) around the instant at `anchor` (0–1 across the
 * current range), within the trace `span`; null once it covers all of it.
 */
export function zoomAround(
	range: TimeRange | null,
	span: TimeRange,
	factor: number,
	anchor = 0.5,
): TimeRange | null {
	const r = range ?? span;
	const whole = span.to - span.from;
	const width = r.to - r.from;
	const next = Math.min(whole, Math.max(MIN_WIDTH, width * factor));
	const a = Math.min(1, Math.max(0, anchor));
	const at = r.from + a * width;
	return clampRange(at - a * next, next, span);
}

/** The range moved by `fraction` of its width (negative: earlier), within the trace. */
export function panBy(
	range: TimeRange | null,
	span: TimeRange,
	fraction: number,
): TimeRange | null {
	if (!range) return null;
	const width = range.to - range.from;
	return clampRange(range.from + fraction * width, width, span);
}

function clampRange(from: number, width: number, span: TimeRange): TimeRange | null {
	if (width >= span.to - span.from) return null;
	const f = Math.round(Math.min(span.to - width, Math.max(span.from, from)));
	const to = Math.min(span.to, f + Math.max(1, Math.round(width)));
	return { from: f, to };
}

/** Zoom steps of a wheel event: one per notch (a trackpad's small deltas add up smoothly). */
export function wheelFactor(deltaY: number, deltaMode: number): number {
	// Lines and pages (Firefox's mouse wheel) as pixels, about 100 px a notch.
	const px = deltaMode === 1 ? deltaY * 33 : deltaMode === 2 ? deltaY * 100 : deltaY;
	return Math.pow(ZOOM_STEP, -px / 100);
}

export type TimelineKeyAction =
	| { readonly do: 'zoom'; readonly factor: number }
	| { readonly do: 'pan'; readonly fraction: number }
	| { readonly do: 'reset' };

/** What a key does on the focused timeline (Perfetto's W/S zoom and A/D pan, `+`/`-`, `0`). */
export function timelineKey(key: string): TimelineKeyAction | null {
	switch (key.toLowerCase()) {
		case 'w':
		case '+':
		case '=':
			return { do: 'zoom', factor: ZOOM_STEP };
		case 's':
		case '-':
			return { do: 'zoom', factor: 1 / ZOOM_STEP };
		case 'a':
		case 'arrowleft':
			return { do: 'pan', fraction: -PAN_STEP };
		case 'd':
		case 'arrowright':
			return { do: 'pan', fraction: PAN_STEP };
		case '0':
			return { do: 'reset' };
		default:
			return null;
	}
}
