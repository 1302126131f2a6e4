// What the I/O graph draws: bytes per second each way as step lines over the intervals, a round
// scale for the rates, and the intervals' names. Pure, so its figures are tested without a page.
import type { IoGraph } from '../../query/io-graph.ts';

const TICKS_PER_SECOND = 1e7;

/** "1 ms", "200 ms", "5 s": an interval of `ticks`. */
export function intervalLabel(ticks: number): string {
	const ms = ticks / 1e4;
	return ms < 1000 ? `${+ms.toFixed(3)} ms` : `${+(ms / 1000).toFixed(3)} s`;
}

/** Bytes per second in each interval, each way. */
export function rates(g: IoGraph): { sent: number[]; received: number[] } {
	const per = TICKS_PER_SECOND / g.interval;
	return { sent: g.sent.map((b) => b * per), received: g.received.map((b) => b * per) };
}

/** The rate axis: from 0 to a round top (1, 2 or 5 × 10^n) above `max`, in `count` steps. */
export function rateScale(max: number, count = 4): { top: number; ticks: number[] } {
	if (!(max > 0)) return { top: 1, ticks: [0, 1] };
	const raw = max / count;
	const p = Math.pow(10, Math.floor(Math.log10(raw)));
	const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw)!;
	const top = Math.ceil(max / step) * step;
	const ticks: number[] = [];
	for (let v = 0; v <= top + step / 2; v += step) ticks.push(v);
	return { top, ticks };
}

/** "1.5k", "20M": a rate on the axis. */
export function rateLabel(v: number): string {
	const units: [number, string][] = [
		[1e9, 'G'],
		[1e6, 'M'],
		[1e3, 'k'],
	];
	for (const [n, u] of units) if (v >= n) return `${+(v / n).toFixed(1)}${u}`;
	return `${+v.toFixed(1)}`;
}

/**
 * An SVG path of the values as steps: each interval a flat run at its value, `x(k)` the left edge
 * of interval k (k = values.length is the right edge of the last), `y(v)` the height of a value.
 */
export function stepPath(
	values: readonly number[],
	x: (k: number) => number,
	y: (v: number) => number,
): string {
	if (values.length === 0) return '';
	const r = (n: number) => Math.round(n * 10) / 10;
	let d = `M${r(x(0))},${r(y(0))}`;
	for (const [k, v] of values.entries()) d += `V${r(y(v))}H${r(x(k + 1))}`;
	return `${d}V${r(y(0))}`;
}
