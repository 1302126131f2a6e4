// An import's chunks written several to a transaction: the first alone, then gathered until the
// byte budget, the chunk limit or the time limit, and whatever is held when asked; each chunk's
// promise settles with its transaction, in the order the chunks came.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChunkRecord } from '../../web/src/store/db.ts';
import {
	BATCH_BYTES,
	BATCH_CHUNKS,
	BATCH_MS,
	ChunkBatches,
} from '../../web/src/worker/chunk-batches.ts';
import { WRITES_IN_FLIGHT } from '../../web/src/ingest/ingest.ts';

const record = (index: number) => ({ traceId: 1, index }) as ChunkRecord;

/** Batches over a store that records each transaction's chunks; `fail` rejects the next ones. */
function batches() {
	const written: number[][] = [];
	let failing = false;
	const b = new ChunkBatches(async (records) => {
		written.push(records.map((r) => r.index));
		if (failing) throw new Error('storage full');
	});
	return { b, written, fail: () => (failing = true) };
}

beforeEach(() => {
	vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
	vi.useRealTimers();
});

describe('chunk batches', () => {
	it('never hold a chunk the decoding would wait for: at most half its writes in flight', () => {
		expect(BATCH_CHUNKS).toBeGreaterThan(1);
		expect(BATCH_CHUNKS * 2).toBeLessThanOrEqual(WRITES_IN_FLIGHT);
	});

	it('write the first chunk alone, then several to a transaction', async () => {
		const { b, written } = batches();
		const stored: number[] = [];
		const add = (i: number, bytes = 1) => b.add(record(i), bytes).then(() => stored.push(i));
		const first = add(0);
		expect(written).toEqual([[0]]);
		await first;
		const rest = [];
		for (let i = 1; i <= BATCH_CHUNKS; i++) rest.push(add(i));
		// The chunk limit writes them as one.
		expect(written).toEqual([[0], Array.from({ length: BATCH_CHUNKS }, (_, k) => k + 1)]);
		await Promise.all(rest);
		// Settled in the order they came.
		expect(stored).toEqual(Array.from({ length: BATCH_CHUNKS + 1 }, (_, k) => k));
	});

	it('write once the byte budget is reached', async () => {
		const { b, written } = batches();
		await b.add(record(0), 1);
		void b.add(record(1), BATCH_BYTES / 2);
		expect(written).toHaveLength(1);
		void b.add(record(2), BATCH_BYTES / 2);
		expect(written).toEqual([[0], [1, 2]]);
	});

	it('hold a chunk no longer than the time limit, and write what is held when asked', async () => {
		const { b, written } = batches();
		await b.add(record(0), 1);
		const held = b.add(record(1), 1);
		vi.advanceTimersByTime(BATCH_MS - 1);
		expect(written).toHaveLength(1);
		vi.advanceTimersByTime(1);
		expect(written).toEqual([[0], [1]]);
		await held;
		void b.add(record(2), 1);
		b.flush();
		expect(written).toEqual([[0], [1], [2]]);
		// Nothing held: nothing to write, now or when the timer would have fired.
		b.flush();
		vi.advanceTimersByTime(BATCH_MS);
		expect(written).toHaveLength(3);
	});

	it('a chunk arriving after the time limit writes those held with it', async () => {
		const { b, written } = batches();
		await b.add(record(0), 1);
		void b.add(record(1), 1);
		// The decoding held the worker past the limit: the timer has not run yet.
		vi.spyOn(performance, 'now').mockReturnValue(performance.now() + BATCH_MS);
		void b.add(record(2), 1);
		expect(written).toEqual([[0], [1, 2]]);
	});

	it('a failed transaction fails every chunk in it', async () => {
		const { b, fail } = batches();
		await b.add(record(0), 1);
		fail();
		const a = b.add(record(1), 1);
		const c = b.add(record(2), 1);
		b.flush();
		await expect(a).rejects.toThrow('storage full');
		await expect(c).rejects.toThrow('storage full');
	});
});
