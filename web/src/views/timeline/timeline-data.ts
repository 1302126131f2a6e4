// The timeline's data: the worker's per-bin counts stacked into what uPlot draws. uPlot has no
// stacking of its own; the series are cumulative sums drawn tallest first, so each band shows
// through above the one below it.
import type { Histogram, HistogramCategory } from '../../query/protocol.ts';

/** Bottom to top. Errors sit on top so they stay visible even when few. */
export const STACK_ORDER: readonly HistogramCategory[] = ['data', 'connect', 'other', 'errors'];

export interface StackedSeries {
	/** Bin start times, seconds since the trace start. */
	readonly x: number[];
	/** Cumulative sums per category in STACK_ORDER: tops[k][i] = Σ counts of categories 0..k. */
	readonly tops: number[][];
	/** Seconds per bin. */
	readonly binSeconds: number;
	/** Bins with at least one error. */
	readonly errorBins: number[];
	readonly max: number;
}

export function stackHistogram(h: Histogram): StackedSeries {
	const binTicks = (h.to - h.from) / h.bins;
	const x = Array.from({ length: h.bins }, (_, i) => (h.from + i * binTicks) / 1e7);
	const tops: number[][] = [];
	let below = new Array<number>(h.bins).fill(0);
	for (const c of STACK_ORDER) {
		const row = h.series[c].map((n, i) => n + below[i]!);
		tops.push(row);
		below = row;
	}
	const errorBins: number[] = [];
	h.series.errors.forEach((n, i) => {
		if (n > 0) errorBins.push(i);
	});
	return { x, tops, binSeconds: binTicks / 1e7, errorBins, max: Math.max(0, ...below) };
}

/** A trace's span on the timeline: its first to just after its last event, at least one tick. */
export function traceSpan(trace: { tMin: number; tMax: number }): { from: number; to: number } {
	return { from: trace.tMin, to: Math.max(trace.tMax + 1, trace.tMin + 1) };
}

/**
 * The span of a trace still being imported: from its first event to the next power-of-two width
 * (in ticks) that holds its last, so the timeline's bins stay the same while the import adds
 * events, and each refresh counts only the chunks added since (rather than every chunk again,
 * read back from storage on a large trace). Its events fill it from the left; when it grows, it
 * doubles (or more), and the counts so far fold into the wider bins exactly (QueryEngine
 * histogram), so nothing is counted again.
 */
export function importingSpan(trace: { tMin: number; tMax: number }): { from: number; to: number } {
	const width = Math.max(trace.tMax + 1 - trace.tMin, 1);
	let round = 1;
	while (round < width) round *= 2;
	return { from: trace.tMin, to: trace.tMin + round };
}

/** A brushed span of the chart (seconds) as a time range in ticks, at least one tick wide. */
export function rangeOfSelection(
	fromSeconds: number,
	toSeconds: number,
): { from: number; to: number } {
	const from = Math.max(0, Math.floor(fromSeconds * 1e7));
	const to = Math.max(from + 1, Math.ceil(toSeconds * 1e7));
	return { from, to };
}

/** The range twice as wide around the same middle, within the trace; null once that is all of it. */
export function zoomedOut(
	range: { from: number; to: number },
	trace: { from: number; to: number },
): { from: number; to: number } | null {
	const width = range.to - range.from;
	let from = range.from - width / 2;
	let to = range.to + width / 2;
	if (from < trace.from) [from, to] = [trace.from, to + (trace.from - from)];
	if (to > trace.to) [from, to] = [Math.max(trace.from, from - (to - trace.to)), trace.to];
	if (from <= trace.from && to >= trace.to) return null;
	return { from: Math.floor(from), to: Math.ceil(to) };
}
