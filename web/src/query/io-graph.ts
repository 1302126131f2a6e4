// The I/O graph: bytes sent and received per interval over a selection, as the socket figures
// count them (statistics.ts: completed transfers of AfdSend*/AfdReceive* and the legacy
// *Completed events, less the nested send exits the tracker judged counted already). Read from
// the stored columns, one pass over the selection.
import type { EventType } from '../columns/layout.ts';
import type { QueryEngine } from './engine.ts';
import type { Selection, TimeRange } from './protocol.ts';
import { startsWith } from './selection.ts';
import { countsAsTransfer, transferDirection } from './statistics.ts';

const TICKS_PER_MS = 10_000;

/** The intervals a reader may choose, in ticks: 1 ms to 10 s in 1-2-5 steps. */
export const IO_INTERVALS: readonly number[] = [
	1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000,
].map((ms) => ms * TICKS_PER_MS);

/** About as many intervals as the automatic choice aims for across the span. */
export const AUTO_BUCKETS = 100;
/** The most intervals drawn: a finer choice over a long span is widened to fit. */
export const MAX_BUCKETS = 2000;

/**
 * The interval for a span: the chosen one (ticks), or with `null` the smallest of IO_INTERVALS
 * giving at most AUTO_BUCKETS; never so fine that the span needs more than MAX_BUCKETS.
 */
export function ioInterval(span: number, chosen: number | null): number {
	const width = Math.max(1, span);
	const fits = (b: number, most: number) => Math.ceil(width / b) <= most;
	if (chosen !== null && fits(chosen, MAX_BUCKETS)) return chosen;
	const most = chosen === null ? AUTO_BUCKETS : MAX_BUCKETS;
	const found = IO_INTERVALS.find((b) => (chosen === null || b >= chosen) && fits(b, most));
	// Past 10 s × the most intervals: whole multiples of 10 s.
	return found ?? Math.ceil(width / most / IO_INTERVALS.at(-1)!) * IO_INTERVALS.at(-1)!;
}

export interface IoGraph {
	/** Ticks since the start of the first interval (a multiple of `interval`). */
	readonly from: number;
	readonly to: number;
	/** Ticks per interval. */
	readonly interval: number;
	/** Bytes per interval, each way. */
	readonly sent: number[];
	readonly received: number[];
	readonly totalSent: number;
	readonly totalReceived: number;
}

/**
 * Bytes each way per `interval` over `range` (the selection's own range, else the trace's span)
 * for the rows of `sel`; `only` keeps some rows by their event index (one socket's events), and
 * `uncounted` leaves out transfers counted already (statistics.ts).
 */
export async function ioGraph(
	engine: QueryEngine,
	types: readonly EventType[],
	sel: Selection,
	range: TimeRange,
	chosen: number | null,
	uncounted: ReadonlySet<number>,
	only: ReadonlySet<number> | null = null,
): Promise<IoGraph> {
	return (await countIo(engine, types, sel, range, chosen, uncounted, only, null)).graph;
}

/** An I/O graph with what a later one needs to go on from it. */
export interface IoCount {
	readonly graph: IoGraph;
	readonly sel: Selection;
	readonly range: TimeRange;
	/** Counted with no rows left out (`uncounted` empty, `only` null). */
	readonly plain: boolean;
	/** The latest time of any row of `sel`'s parts (-Infinity with none). */
	readonly latest: number;
}

/**
 * The same, as an IoCount. With `earlier` (counted over a selection `sel` was made from as chunks
 * were added, as an import's refreshes ask), only the parts after its parts are read, when its
 * counts hold: the same intervals from the same start, and every row it read before the end of
 * both ranges (the span grows with the chunks).
 */
export async function countIo(
	engine: QueryEngine,
	types: readonly EventType[],
	sel: Selection,
	range: TimeRange,
	chosen: number | null,
	uncounted: ReadonlySet<number>,
	only: ReadonlySet<number> | null,
	earlier: IoCount | null,
): Promise<IoCount> {
	const interval = ioInterval(range.to - range.from, chosen);
	const from = Math.floor(range.from / interval) * interval;
	const buckets = Math.max(1, Math.ceil((range.to - from) / interval));
	const to = from + buckets * interval;
	const plain = uncounted.size === 0 && only === null;
	const kept =
		earlier &&
		plain &&
		earlier.plain &&
		earlier.graph.interval === interval &&
		earlier.graph.from === from &&
		earlier.range.from === range.from &&
		(earlier.range.to === range.to ||
			(earlier.latest < earlier.range.to && earlier.range.to <= range.to)) &&
		startsWith(sel, earlier.sel)
			? earlier
			: null;
	const grown = (xs: readonly number[]) => [
		...xs,
		...new Array<number>(buckets - xs.length).fill(0),
	];
	const sent = kept ? grown(kept.graph.sent) : new Array<number>(buckets).fill(0);
	const received = kept ? grown(kept.graph.received) : new Array<number>(buckets).fill(0);
	const direction = types.map(transferDirection);
	let totalSent = kept?.graph.totalSent ?? 0;
	let totalReceived = kept?.graph.totalReceived ?? 0;
	let latest = kept?.latest ?? -Infinity;
	for (const part of kept ? sel.parts.slice(kept.sel.parts.length) : sel.parts) {
		const [etype, flags, bytes, time] = await Promise.all([
			engine.column(part.chunk, 'etype'),
			engine.column(part.chunk, 'flags'),
			engine.column(part.chunk, 'bytes'),
			engine.column(part.chunk, 'time'),
		]);
		const add = (i: number) => {
			const t = time[i]!;
			if (t > latest) latest = t;
			const dir = direction[etype[i]!];
			if (!dir || !countsAsTransfer(flags[i]!)) return;
			const g = part.base + i;
			if (uncounted.has(g) || (only && !only.has(g))) return;
			if (t < range.from || t >= range.to) return;
			const b = Math.min(buckets - 1, Math.floor((t - from) / interval));
			const n = bytes[i]!;
			if (dir === 'send') {
				sent[b]! += n;
				totalSent += n;
			} else {
				received[b]! += n;
				totalReceived += n;
			}
		};
		if (part.rows) for (let k = 0; k < part.count; k++) add(part.rows[k]!);
		else for (let i = part.from; i < part.to; i++) add(i);
	}
	return {
		graph: { from, to, interval, sent, received, totalSent, totalReceived },
		sel,
		range,
		plain,
		latest,
	};
}
