// Records come out in timestamp order across the per-CPU buffers. Within one CPU, buffers in
// SequenceNumber order hold records in time order, so a k-way merge over one stream per CPU
// (buffer 0, the header buffer, first) gives the global order with one buffer per CPU in memory.
// Ties keep stream order (header, then CPU number) and, within a stream, record order.
import { decodeBuffer, type DecodedBuffer } from './decoded-buffer.ts';
import type { BufferEntry, OpenTrace } from './etl-file.ts';

interface Stream {
	readonly order: number;
	readonly buffers: readonly BufferEntry[];
	next: number;
	current: DecodedBuffer | null;
	i: number;
	hi: number;
	lo: number;
}

/**
 * Called for every record, in time order. The buffer is valid until its stream moves on: the
 * merge decodes that CPU's next buffer into the same memory, so copy what must be kept.
 */
export type RecordSink = (buffer: DecodedBuffer, i: number) => void;
/** Called once for every buffer as it is decoded (same lifetime as for RecordSink). */
export type BufferSink = (buffer: DecodedBuffer) => void;
/** Awaited before each buffer is decoded: where a consumer may write out or stop (by throwing). */
export type Checkpoint = () => Promise<void>;

function streamsOf(buffers: readonly BufferEntry[]): Stream[] {
	const byCpu = new Map<number, BufferEntry[]>();
	for (const b of buffers) {
		const key = b.index === 0 ? -1 : b.cpu;
		let list = byCpu.get(key);
		if (!list) byCpu.set(key, (list = []));
		list.push(b);
	}
	return [...byCpu.entries()]
		.sort((a, b) => a[0] - b[0])
		.map(([, list], order) => ({
			order,
			buffers: list.sort((a, b) =>
				a.sequence === b.sequence ? a.index - b.index : a.sequence < b.sequence ? -1 : 1,
			),
			next: 0,
			current: null,
			i: 0,
			hi: 0,
			lo: 0,
		}));
}

/** Moves a stream to its next record, decoding its next buffer when needed; false at its end. */
async function advance(
	trace: OpenTrace,
	s: Stream,
	onBuffer: BufferSink,
	checkpoint: Checkpoint | undefined,
): Promise<boolean> {
	s.i++;
	while (!s.current || s.i >= s.current.count) {
		if (s.next >= s.buffers.length) {
			s.current = null;
			return false;
		}
		if (checkpoint) await checkpoint();
		// The stream is done with its current buffer: its memory takes the next one.
		s.current = await decodeBuffer(trace, s.buffers[s.next++]!, s.current);
		s.i = 0;
		onBuffer(s.current);
	}
	s.hi = s.current.timeHi(s.i);
	s.lo = s.current.timeLo(s.i);
	return true;
}

function before(a: Stream, b: Stream): boolean {
	if (a.hi !== b.hi) return a.hi < b.hi;
	if (a.lo !== b.lo) return a.lo < b.lo;
	return a.order < b.order;
}

/**
 * Calls onRecord for every record of the indexed buffers in time order, and onBuffer once for
 * every buffer as it is decoded (for damage and counts).
 */
export async function mergeRecords(
	trace: OpenTrace,
	buffers: readonly BufferEntry[],
	onRecord: RecordSink,
	onBuffer: BufferSink = () => {},
	checkpoint?: Checkpoint,
): Promise<void> {
	const heap: Stream[] = [];
	for (const s of streamsOf(buffers)) {
		s.i = -1;
		if (await advance(trace, s, onBuffer, checkpoint)) push(heap, s);
	}
	for (;;) {
		const s = drain(heap, onRecord);
		if (!s) return;
		if (await advance(trace, s, onBuffer, checkpoint)) siftDown(heap, 0);
		else {
			const last = heap.pop()!;
			if (heap.length > 0) {
				heap[0] = last;
				siftDown(heap, 0);
			}
		}
	}
}

/**
 * Hands out records in time order as long as the streams' decoded buffers last, and returns the
 * stream whose buffer has just run out (null when the heap is empty). Kept synchronous and apart
 * from the async loop, so that the hot path awaits nothing and runs fully optimised.
 */
function drain(heap: Stream[], onRecord: RecordSink): Stream | null {
	while (heap.length > 0) {
		const s = heap[0]!;
		const b = s.current!;
		onRecord(b, s.i);
		if (s.i + 1 >= b.count) return s;
		s.i++;
		s.hi = b.timeHi(s.i);
		s.lo = b.timeLo(s.i);
		siftDown(heap, 0);
	}
	return null;
}

function push(heap: Stream[], s: Stream): void {
	heap.push(s);
	let i = heap.length - 1;
	while (i > 0) {
		const parent = (i - 1) >> 1;
		if (!before(heap[i]!, heap[parent]!)) break;
		[heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
		i = parent;
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
		[heap[i], heap[m]] = [heap[m]!, heap[i]!];
		i = m;
	}
}
