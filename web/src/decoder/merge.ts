// Records come out in timestamp order across the per-CPU buffers. Within one CPU, buffers in
// SequenceNumber order hold records in time order, so a k-way merge over one stream per CPU
// (buffer 0, the header buffer, first) gives the global order with one buffer per CPU in memory;
// a large buffer is held a slice at a time (decodeSlice), so that what the merge holds stays
// within HELD_BYTES of image whatever the buffer size and the number of CPUs.
// Ties keep stream order (header, then CPU number) and, within a stream, record order.
//
// The merge can also start before the index pass has found every buffer (mergeFound): a CPU's
// buffers are found in the order they were written, so a stream whose found buffers are used up
// waits for its next one, and nothing is handed out before every CPU the header counts has a
// buffer (or the pass has ended: a CPU that logs little flushes its first buffer at the stop).
// What the header does not promise (a CPU beyond its count, a CPU's buffers found out of sequence,
// times going back) is checked: the merge stops with OutOfOrder, and the caller, which has handed
// on records that may be out of order, merges again from the whole index.
import type { BufferFeed } from './buffer-feed.ts';
import { decodeSlice, type DecodedBuffer } from './decoded-buffer.ts';
import type { BufferEntry, OpenTrace } from './etl-file.ts';

interface Stream {
	/** Ties between streams go by this: -1 for the header buffer, else the CPU number. */
	readonly order: number;
	readonly buffers: BufferEntry[];
	next: number;
	current: DecodedBuffer | null;
	i: number;
	hi: number;
	lo: number;
	/** Its found buffers are used up and more may be found: the merge may not pass its time. */
	waiting: boolean;
	inHeap: boolean;
}

/**
 * Called for every record, in time order. The buffer is valid until its stream moves on: the
 * merge decodes that CPU's next buffer into the same memory, so copy what must be kept. Returns
 * true to be given a checkpoint before the next record (a chunk is full and can be stored now,
 * rather than after up to PAUSE_EVERY more records).
 */
export type RecordSink = (buffer: DecodedBuffer, i: number) => boolean | void;
/**
 * Called once for every buffer, when its last records are decoded (same lifetime as for
 * RecordSink): its damage is known then, and firstTime/lastTime span the whole buffer.
 */
export type BufferSink = (buffer: DecodedBuffer) => void;
/**
 * Awaited before each buffer is decoded, and after every PAUSE_EVERY records handed out: where a
 * consumer may write out or stop (by throwing). Pausing by records too keeps what a consumer
 * gathers bounded when every CPU's buffer is decoded at the start and no CPU has a next one.
 */
export type Checkpoint = () => Promise<void>;

/** A merge over part of the index would hand out a record out of order: merge the whole index. */
export class OutOfOrder extends Error {
	constructor(entry: BufferEntry, why: string) {
		super(`buffer ${entry.index} at offset 0x${entry.offset.toString(16)} ${why}`);
	}
}

const PAUSE_EVERY = 16384;
/** Image bytes the merge holds at most, shared among the streams (one slice each). */
const HELD_BYTES = 16 << 20;
/** The smallest slice, however many streams (a hostile header may name thousands of CPUs). */
const MIN_SLICE = 64 << 10;

/** The slice size for `streams` streams. */
export function sliceBytes(streams: number): number {
	return Math.max(MIN_SLICE, Math.floor(HELD_BYTES / Math.max(1, streams)));
}
/** What drain returns when it has handed out PAUSE_EVERY records: the checkpoint is due. */
const PAUSED = newStream(-3);

export const orderOf = (b: BufferEntry) => (b.index === 0 ? -1 : b.cpu);

function newStream(order: number, buffers: BufferEntry[] = []): Stream {
	return {
		order,
		buffers,
		next: 0,
		current: null,
		i: -1,
		hi: 0,
		lo: 0,
		waiting: false,
		inHeap: false,
	};
}

function streamsOf(buffers: readonly BufferEntry[]): Stream[] {
	return streamBuffers(buffers).map(({ order, buffers }) => newStream(order, buffers));
}

/**
 * The merge's streams: the header buffer, then one per CPU, in the order their first buffers
 * come in the index, each with its buffers in SequenceNumber order.
 */
export function streamBuffers(
	buffers: readonly BufferEntry[],
): { order: number; buffers: BufferEntry[] }[] {
	const byCpu = new Map<number, { order: number; buffers: BufferEntry[] }>();
	for (const b of buffers) {
		const order = orderOf(b);
		let s = byCpu.get(order);
		if (!s) byCpu.set(order, (s = { order, buffers: [] }));
		s.buffers.push(b);
	}
	for (const s of byCpu.values())
		s.buffers.sort((a, b) =>
			a.sequence === b.sequence ? a.index - b.index : a.sequence < b.sequence ? -1 : 1,
		);
	return [...byCpu.values()];
}

/**
 * Moves a stream to its next record, decoding its next buffers as needed; false when its
 * buffers are used up (its position then stays where it was).
 */
async function step(
	trace: OpenTrace,
	s: Stream,
	onBuffer: BufferSink,
	checkpoint: Checkpoint | undefined,
	streams: number,
	onSlice: BufferSink | undefined,
): Promise<boolean> {
	let i = s.i + 1;
	let b = s.current;
	while (!b || i >= b.count) {
		const more = b?.next ?? null;
		if (!more && s.next >= s.buffers.length) return false;
		if (checkpoint) await checkpoint();
		// The stream is done with its current slice: its memory takes the next one.
		const entry = more ? b!.entry : s.buffers[s.next++]!;
		b = s.current = await decodeSlice(trace, entry, more, sliceBytes(streams), s.current);
		i = 0;
		onSlice?.(b);
		if (!b.next) onBuffer(b);
	}
	s.i = i;
	s.hi = b.timeHi(i);
	s.lo = b.timeLo(i);
	return true;
}

function before(a: Stream, b: Stream): boolean {
	if (a.hi !== b.hi) return a.hi < b.hi;
	if (a.lo !== b.lo) return a.lo < b.lo;
	return a.order < b.order;
}

/**
 * Calls onRecord for every record of the indexed buffers in time order, onBuffer once for
 * every buffer when its last records are decoded (for damage and counts), and onSlice for every
 * part of a buffer decoded (the whole buffer, or each slice of a large one: record checks).
 */
export async function mergeRecords(
	trace: OpenTrace,
	buffers: readonly BufferEntry[],
	onRecord: RecordSink,
	onBuffer: BufferSink = () => {},
	checkpoint?: Checkpoint,
	onSlice?: BufferSink,
): Promise<void> {
	const heap: Stream[] = [];
	const streams = streamsOf(buffers);
	const n = Math.max(streams.length, cpuCount(trace));
	for (const s of streams)
		if (await step(trace, s, onBuffer, checkpoint, n, onSlice)) push(heap, s);
	await run(trace, heap, null, onRecord, onBuffer, checkpoint, onSlice, n);
}

/**
 * The same merge over the buffers of a feed, starting with those found so far: the same records
 * in the same order as mergeRecords over the whole index, or OutOfOrder before its end.
 */
export async function mergeFound(
	trace: OpenTrace,
	feed: BufferFeed,
	onRecord: RecordSink,
	onBuffer: BufferSink = () => {},
	checkpoint?: Checkpoint,
	onSlice?: BufferSink,
): Promise<void> {
	const index = feed.index;
	if (index) return mergeRecords(trace, index.buffers, onRecord, onBuffer, checkpoint, onSlice);
	await run(trace, [], feed, onRecord, onBuffer, checkpoint, onSlice);
}

/** The CPUs the trace header counts, as far as a slice size may trust it. */
export function cpuCount(trace: OpenTrace): number {
	const n = trace.facts.cpus;
	return Number.isInteger(n) && n > 0 ? Math.min(n, 4096) : 1;
}

async function run(
	trace: OpenTrace,
	heap: Stream[],
	feed: BufferFeed | null,
	onRecord: RecordSink,
	onBuffer: BufferSink,
	checkpoint: Checkpoint | undefined,
	onSlice: BufferSink | undefined,
	known = 0,
): Promise<void> {
	const streams = new Map<number, Stream>();
	const last: Last = { hi: -0x80000000, lo: 0, order: -2 };
	let taken = 0;
	/** Whether no buffer will be found that is not in a stream already. */
	const ended = () => !feed || (feed.index !== null && taken === feed.found);
	const cpus = trace.facts.cpus;
	let seen = 0;
	let decoded = 0;
	const quota = { left: PAUSE_EVERY };
	const streamCount = () => Math.max(known, streams.size, cpuCount(trace));
	// The pass is told how far the decoding has got (it keeps a bounded lead).
	const counted: BufferSink = (b) => {
		feed?.decoded(++decoded);
		onBuffer(b);
	};
	for (;;) {
		if (feed && taken < feed.found) {
			taken = await takeFound(
				trace,
				feed,
				taken,
				streams,
				heap,
				counted,
				checkpoint,
				streamCount,
				onSlice,
			);
			heapify(heap);
			seen = 0;
			for (const order of streams.keys()) if (order >= 0 && order < cpus) seen++;
		}
		if (seen < cpus && !ended()) {
			await feed!.next();
			continue;
		}
		const s = drain(heap, onRecord, feed ? last : null, quota);
		if (s === PAUSED) {
			quota.left = PAUSE_EVERY;
			if (checkpoint) await checkpoint();
			continue;
		}
		if (s && !s.waiting) {
			if (await step(trace, s, counted, checkpoint, streamCount(), onSlice)) siftDown(heap, 0);
			// The header buffer is a stream of its own: nothing more can join it.
			else if (!ended() && s.order !== -1) s.waiting = true;
			else removeTop(heap);
		} else if (ended()) {
			if (!s) return;
			removeTop(heap);
		} else await feed!.next();
	}
}

/** Puts newly found buffers into their streams; returns how many of the feed's are taken. */
async function takeFound(
	trace: OpenTrace,
	feed: BufferFeed,
	taken: number,
	streams: Map<number, Stream>,
	heap: Stream[],
	onBuffer: BufferSink,
	checkpoint: Checkpoint | undefined,
	streamCount: () => number,
	onSlice: BufferSink | undefined,
): Promise<number> {
	for (; taken < feed.found; taken++) {
		const b = feed.at(taken);
		const order = orderOf(b);
		let s = streams.get(order);
		if (!s) streams.set(order, (s = newStream(order)));
		const prev = s.buffers.at(-1);
		if (prev && b.sequence < prev.sequence)
			throw new OutOfOrder(
				b,
				`comes after buffer ${prev.index} of its CPU but has a lower sequence number`,
			);
		s.buffers.push(b);
		if (s.waiting) {
			// Its head record was handed out already: it moves on to the new buffer's first.
			if (await step(trace, s, onBuffer, checkpoint, streamCount(), onSlice)) s.waiting = false;
		} else if (!s.inHeap && (await step(trace, s, onBuffer, checkpoint, streamCount(), onSlice))) {
			s.inHeap = true;
			heap.push(s);
		}
	}
	return taken;
}

interface Last {
	hi: number;
	lo: number;
	order: number;
}

/**
 * Hands out records in time order as long as the streams' decoded buffers last, and returns the
 * stream whose buffer has just run out, or that waits for its next buffer, or PAUSED (null when the heap is
 * empty). With `last`, checks that each record comes after the one before. Kept synchronous and
 * apart from the async loop, so that the hot path awaits nothing and runs fully optimised.
 */
function drain(
	heap: Stream[],
	onRecord: RecordSink,
	last: Last | null,
	quota: { left: number },
): Stream | null {
	while (heap.length > 0) {
		if (quota.left-- <= 0) return PAUSED;
		const s = heap[0]!;
		if (s.waiting) return s;
		const b = s.current!;
		if (last) {
			if (
				s.hi < last.hi ||
				(s.hi === last.hi && (s.lo < last.lo || (s.lo === last.lo && s.order < last.order)))
			)
				throw new OutOfOrder(b.entry, `holds a record earlier than one already merged`);
			last.hi = s.hi;
			last.lo = s.lo;
			last.order = s.order;
		}
		if (onRecord(b, s.i) === true) quota.left = 0;
		if (s.i + 1 >= b.count) return s;
		s.i++;
		s.hi = b.timeHi(s.i);
		s.lo = b.timeLo(s.i);
		siftDown(heap, 0);
	}
	return null;
}

function push(heap: Stream[], s: Stream): void {
	s.inHeap = true;
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

function heapify(heap: Stream[]): void {
	for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
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
