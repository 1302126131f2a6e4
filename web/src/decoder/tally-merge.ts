// The merge of mergeRecords (merge.ts) at the grain of slices, for header-only walks: counts do
// not depend on the order of records, but what a pass reports does (damage in the order the merge
// decodes buffers, which values come first, the first and last records' times), and that order
// follows from the slices alone.
//
// Why: the merge hands out, again and again, the smallest head record (time, then stream rank)
// among the streams. A stream whose record goes back in time (damage, a skewed clock) comes out
// right after the record before it, since that one was the smallest head and this one is smaller
// still. So the merge hands out records in the order of (the stream's latest time up to the
// record, stream rank, place in the stream): the order of sorted streams. It decodes a stream's
// next slice when the last record of its current slice comes out, so slices are walked here in
// the order of that key of their last records: the same slices, in the same order, as the merge.
import type { BufferEntry, OpenTrace } from './etl-file.ts';
import type { SliceStart } from './decoded-buffer.ts';
import { cpuCount, sliceBytes, streamBuffers, type BufferSink } from './merge.ts';
import type { DamageInfo } from './messages.ts';
import { tallySlice } from './tally-slice.ts';

/** A buffer once its last slice is walked: what the merge's BufferSink reads of it. */
export interface TalliedBuffer {
	readonly entry: BufferEntry;
	readonly damage: DamageInfo | null;
	readonly firstTime: bigint | null;
	readonly lastTime: bigint | null;
}

export interface TallyResult {
	records: number;
	/** Times of the first and last records the merge hands out; null without records. */
	firstTime: bigint | null;
	lastTime: bigint | null;
}

interface Stream {
	readonly order: number;
	readonly buffers: BufferEntry[];
	next: number;
	entry: BufferEntry | null;
	from: SliceStart | null;
	/** The latest record time so far (the merge key of the last record walked). */
	latest: bigint;
	first: bigint | null;
	last: bigint | null;
}

const NO_TIME = -(1n << 63n);

/**
 * Walks every record of the indexed buffers header-only (the decoder in walkTally mode), slice by
 * slice in the order mergeRecords decodes them: onKept gets each slice's TraceLogging records
 * (mergeRecords' onSlice would get them among the others), onBuffer each buffer after its last
 * slice. Returns the record count and the times the merge would hand out first and last.
 */
export async function tallyRecords(
	trace: OpenTrace,
	buffers: readonly BufferEntry[],
	onKept: BufferSink,
	onBuffer: (b: TalliedBuffer) => void,
): Promise<TallyResult> {
	const streams: Stream[] = streamBuffers(buffers).map(({ order, buffers }) => ({
		order,
		buffers,
		next: 0,
		entry: null,
		from: null,
		latest: NO_TIME,
		first: null,
		last: null,
	}));
	const bytes = sliceBytes(Math.max(streams.length, cpuCount(trace)));
	let records = 0;

	/** Walks the stream's next slices up to one with records; false when its buffers are used up. */
	async function step(s: Stream): Promise<boolean> {
		for (;;) {
			if (!s.from && s.next >= s.buffers.length) return false;
			const entry = s.from ? s.entry! : (s.entry = s.buffers[s.next++]!);
			const slice = await tallySlice(trace, entry, s.from, bytes, s, onKept);
			s.from = slice.next;
			s.latest = slice.latest;
			if (!slice.next)
				onBuffer({
					entry,
					damage: slice.damage,
					firstTime: slice.firstTime,
					lastTime: slice.lastTime,
				});
			if (slice.count > 0) {
				records += slice.count;
				s.first ??= slice.firstTime;
				s.last = slice.lastTime;
				return true;
			}
		}
	}

	const heap: Stream[] = [];
	for (const s of streams) if (await step(s)) push(heap, s);
	while (heap.length > 0) {
		const s = heap[0]!;
		if (await step(s)) siftDown(heap, 0);
		else removeTop(heap);
	}

	// The first record out is the smallest stream head; the last, the last record of the stream
	// whose key ends largest.
	let first: Stream | null = null;
	let last: Stream | null = null;
	for (const s of streams) {
		if (s.first === null) continue;
		if (!first || s.first < first.first! || (s.first === first.first && s.order < first.order))
			first = s;
		if (!last || before(last, s)) last = s;
	}
	return { records, firstTime: first?.first ?? null, lastTime: last?.last ?? null };
}

function before(a: Stream, b: Stream): boolean {
	return a.latest !== b.latest ? a.latest < b.latest : a.order < b.order;
}

function push(heap: Stream[], s: Stream): void {
	heap.push(s);
	let i = heap.length - 1;
	while (i > 0) {
		const parent = (i - 1) >> 1;
		if (!before(heap[i]!, heap[parent]!)) break;
		const t = heap[i]!;
		heap[i] = heap[parent]!;
		heap[parent] = t;
		i = parent;
	}
}

function removeTop(heap: Stream[]): void {
	const last = heap.pop()!;
	if (heap.length > 0) {
		heap[0] = last;
		siftDown(heap, 0);
	}
}

function siftDown(heap: Stream[], i: number): void {
	for (;;) {
		const l = 2 * i + 1;
		const r = l + 1;
		let m = i;
		if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
		if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
		if (m === i) return;
		// Through a temporary: a destructuring swap made an array at each step (once a record).
		const t = heap[i]!;
		heap[i] = heap[m]!;
		heap[m] = t;
		i = m;
	}
}
