import { describe, expect, it, vi } from 'vitest';
import { BufferFeed, feedIndex } from '../../web/src/decoder/buffer-feed.ts';
import { indexBuffers, openTrace, type OpenTrace } from '../../web/src/decoder/etl-file.ts';
import { mergeFound, mergeRecords, OutOfOrder } from '../../web/src/decoder/merge.ts';
import { readSourcesTable } from '../fixtures/real/sources-table.ts';
import { buildSample } from '../builders/sample.ts';
import { asyncSource, decoderModule, open, realFixture } from './load.ts';
import { cpuTrace, lazyFeed } from './merge-traces.ts';
import { WHOLE_FIXTURES_MS } from '../timeouts.ts';

/** Each record as "buffer index:record number", in the order handed out. */
async function fullOrder(trace: OpenTrace): Promise<string[]> {
	const out: string[] = [];
	const index = await indexBuffers(trace);
	await mergeRecords(trace, index.buffers, (b, i) => {
		out.push(`${b.entry.index}:${i}`);
	});
	return out;
}

async function foundOrder(
	trace: OpenTrace,
	feed: BufferFeed,
): Promise<{ order: string[]; stopped: OutOfOrder | null }> {
	const order: string[] = [];
	try {
		await mergeFound(trace, feed, (b, i) => {
			order.push(`${b.entry.index}:${i}`);
		});
		return { order, stopped: null };
	} catch (e) {
		if (e instanceof OutOfOrder) return { order, stopped: e };
		throw e;
	}
}

describe('merging buffers as the index pass finds them', () => {
	it('hands out the whole merge, in order, when every CPU is busy throughout', async () => {
		const trace = await open(cpuTrace(6000, false));
		const index = await indexBuffers(trace);
		expect(index.buffers.length).toBeGreaterThan(40);
		const full = await fullOrder(trace);
		for (const step of [1, 3, 17]) {
			const r = await foundOrder(trace, lazyFeed(index, step));
			expect(r.stopped).toBeNull();
			expect(r.order).toEqual(full);
		}
	});

	it('waits for a CPU the header counts that has no buffer yet', async () => {
		const trace = await open(cpuTrace(6000, true));
		const index = await indexBuffers(trace);
		// The idle CPU's only buffer is flushed at the stop, after the busy CPUs' buffers.
		expect(index.buffers.at(-1)!.cpu).toBe(3);
		const feed = lazyFeed(index, 2);
		let foundAtFirst = -1;
		const order: string[] = [];
		await mergeFound(trace, feed, (b, i) => {
			if (foundAtFirst < 0) foundAtFirst = feed.found;
			order.push(`${b.entry.index}:${i}`);
		});
		expect(foundAtFirst).toBe(index.buffers.length);
		expect(order).toEqual(await fullOrder(trace));
	});

	it("stops when a CPU beyond the header's count turns up with earlier records", async () => {
		const trace = await open(cpuTrace(6000, true, 3));
		expect(trace.facts.cpus).toBe(3);
		const index = await indexBuffers(trace);
		const r = await foundOrder(trace, lazyFeed(index, 2));
		expect(r.stopped).toBeInstanceOf(OutOfOrder);
		expect(r.stopped!.message).toBe(
			`buffer ${index.buffers.length - 1} at offset 0x${index.buffers.at(-1)!.offset.toString(16)} holds a record earlier than one already merged`,
		);
		expect(r.order.length).toBeGreaterThan(0);
	});

	it("stops when a CPU's buffers are found out of sequence", async () => {
		const trace = await open(cpuTrace(6000, false));
		const index = await indexBuffers(trace);
		const cpu1 = index.buffers.filter((b) => b.cpu === 1);
		const [a, b] = [index.buffers.indexOf(cpu1[1]!), index.buffers.indexOf(cpu1[2]!)];
		const swapped = [...index.buffers];
		[swapped[a], swapped[b]] = [swapped[b]!, swapped[a]!];
		const r = await foundOrder(trace, lazyFeed({ ...index, buffers: swapped }, 2));
		expect(r.stopped?.message).toBe(
			`buffer ${cpu1[1]!.index} at offset 0x${cpu1[1]!.offset.toString(16)} comes after buffer ${cpu1[2]!.index} of its CPU but has a lower sequence number`,
		);
	});

	it(
		'gives the whole merge or stops, on every real file and the sample',
		{ timeout: WHOLE_FIXTURES_MS },
		async () => {
			const files = [
				...[...readSourcesTable().keys()].map((n) => realFixture(n)),
				buildSample().file.bytes,
			];
			let whole = 0;
			for (const bytes of files) {
				const trace = await open(bytes);
				const index = await indexBuffers(trace);
				const full = await fullOrder(trace);
				for (const step of [1, 5]) {
					const r = await foundOrder(trace, lazyFeed(index, step));
					if (r.stopped) continue;
					whole++;
					expect(r.order).toEqual(full);
				}
			}
			expect(whole).toBeGreaterThan(files.length);
		},
	);

	it('gives a checkpoint before the next record when the sink asks for one', async () => {
		const trace = await open(cpuTrace(6000, false));
		const index = await indexBuffers(trace);
		// Asked at records 700 and 1500: between buffers, a checkpoint comes every buffer anyway.
		const asks = new Set([700, 1500]);
		let seen = 0;
		const at: number[] = [];
		for (const merge of [
			(sink: (b: unknown, i: number) => boolean, cp: () => Promise<void>) =>
				mergeRecords(trace, index.buffers, sink, undefined, cp),
			(sink: (b: unknown, i: number) => boolean, cp: () => Promise<void>) =>
				mergeFound(trace, lazyFeed(index, 3), sink, undefined, cp),
		]) {
			seen = 0;
			at.length = 0;
			await merge(
				() => asks.has(++seen),
				async () => {
					at.push(seen);
				},
			);
			expect(seen).toBe((await fullOrder(trace)).length);
			for (const n of asks) expect(at).toContain(n);
		}
	});

	it('merges an index already complete like mergeRecords, without checks', async () => {
		const trace = await open(cpuTrace(3000, true));
		const index = await indexBuffers(trace);
		const r = await foundOrder(trace, BufferFeed.of(index));
		expect(r).toEqual({ order: await fullOrder(trace), stopped: null });
	});

	it('fails with the index pass', async () => {
		const trace = await open(cpuTrace(3000, false));
		const index = await indexBuffers(trace);
		const feed = new BufferFeed();
		feed.update(index.buffers.slice(0, 3));
		const failing = mergeFound(trace, feed, () => {});
		feed.fail(new Error('the file could not be read'));
		await expect(failing).rejects.toThrow('the file could not be read');
	});
});

/** A condition the index pass reaches by itself: waited for, never timed. */
const HOLD_WAIT = { timeout: 4000, interval: 5 };

describe('the index pass beside a decoding', () => {
	// A lead of 16 buffers: the pass holds and goes on over a trace of a few thousand events.
	const LEAD = 16;

	it('keeps a bounded lead, and goes on when the decoding waits for buffers', async () => {
		const bytes = cpuTrace(3000, false);
		const trace = await openTrace(asyncSource(bytes), decoderModule(), 'lead.etl');
		if (!trace.ok) throw new Error(trace.error);
		const total = (await indexBuffers(await open(bytes))).buffers.length;
		expect(total).toBeGreaterThan(3 * LEAD);
		const feed = feedIndex(trace.value, {}, LEAD);
		// Nothing decoded: the pass holds once it is a lead ahead, and stays there.
		await vi.waitFor(() => expect(feed.holding).toBe(true), HOLD_WAIT);
		const held = feed.found;
		expect(held).toBeGreaterThanOrEqual(LEAD);
		expect(held).toBeLessThan(total);
		await new Promise((r) => setTimeout(r, 0));
		expect(feed.found).toBe(held);
		// Decoding catches up: it goes on, and holds again further on.
		feed.decoded(held);
		await vi.waitFor(() => expect(feed.holding && feed.found > held).toBe(true), HOLD_WAIT);
		expect(feed.found).toBeGreaterThanOrEqual(held + LEAD);
		expect(feed.found).toBeLessThan(total);
		// A decoding waiting for buffers lets it run to the end.
		await feed.next();
		while (!feed.index) await feed.next();
		expect(feed.found).toBe(total);
	});

	it('runs free once released', async () => {
		const bytes = cpuTrace(3000, false);
		const trace = await openTrace(asyncSource(bytes), decoderModule(), 'lead.etl');
		if (!trace.ok) throw new Error(trace.error);
		const feed = feedIndex(trace.value, {}, LEAD);
		feed.release();
		const index = await feed.complete;
		expect(index.buffers.length).toBe((await indexBuffers(await open(bytes))).buffers.length);
		expect(index.buffers.length).toBeGreaterThan(3 * LEAD);
	});
});
