// Records read back by (buffer, offset) must be byte for byte the records the import walked,
// compressed buffers included, whatever order they are asked in.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BufferRecords, bufferEntry, bufferTable } from '../../web/src/decoder/buffer-records.ts';
import { indexBuffers, reopenTrace } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { RecordOut } from '../../web/src/generated/layouts.ts';
import { open, realFixture } from './load.ts';
import { WHOLE_FIXTURES_MS } from '../timeouts.ts';

const sample = new Uint8Array(readFileSync(join(import.meta.dirname, '../../public/sample.etl')));

interface Seen {
	buffer: number;
	offset: number;
	bytes: Uint8Array;
}

async function walk(bytes: Uint8Array) {
	const trace = await open(bytes);
	const index = await indexBuffers(trace);
	const seen: Seen[] = [];
	await mergeRecords(trace, index.buffers, (b, i) => {
		const at = b.u32(i, RecordOut.recordOffset);
		const size = b.u32(i, RecordOut.recordSize);
		seen.push({ buffer: b.entry.index, offset: at, bytes: b.image.slice(at, at + size) });
	});
	return { trace, index, seen };
}

describe('BufferRecords', { timeout: WHOLE_FIXTURES_MS }, () => {
	// The large compressed trace is sampled (every 97th record): each miss decompresses a buffer.
	for (const [name, bytes, step] of [
		['the sample', sample, 1],
		['a compressed trace', realFixture('perfview-net452-x64-compressed'), 97],
		['a compressed 32-bit trace', realFixture('perfview-small-32bit-compressed'), 1],
	] as const)
		it(`reads back the records of ${name}`, async () => {
			const { trace, index, seen } = await walk(bytes);
			expect(seen.length).toBeGreaterThan(1);
			// A small cache, asked in reverse: lookups decode their buffer again.
			const records = new BufferRecords(await reopenTrace(trace), bufferTable(index.buffers), 2);
			const wrong: number[] = [];
			for (let k = seen.length - 1; k >= 0; k -= step) {
				const s = seen[k]!;
				const got = await records.bytes(s.buffer, s.offset);
				if (!Buffer.from(got).equals(s.bytes)) wrong.push(k);
			}
			expect(wrong).toEqual([]);
		});

	for (const [name, bytes, step] of [
		['the sample', sample, 1],
		['a compressed trace', realFixture('perfview-net452-x64-compressed'), 97],
	] as const)
		it(`reads back the records of ${name} with parts lending their memory`, async () => {
			const { trace, index, seen } = await walk(bytes);
			// In time order, then in reverse, then every third: parts put out of the small cache are
			// decoded again into the memory of others; each record is read before the next is asked.
			const order = seen.map((_, k) => k).filter((k) => k % step === 0);
			order.push(...[...order].reverse(), ...order.filter((k) => k % 3 === 0));
			const records = new BufferRecords(
				await reopenTrace(trace),
				bufferTable(index.buffers),
				2,
				true,
			);
			// Differences gathered and compared once: an expect per record costs more than the reads.
			const wrong: number[] = [];
			for (const k of order) {
				const s = seen[k]!;
				const got = await records.bytes(s.buffer, s.offset);
				if (!Buffer.from(got).equals(s.bytes)) wrong.push(k);
			}
			expect(wrong).toEqual([]);
		});

	it('keeps every field of the buffer index', async () => {
		const { index } = await walk(realFixture('perfview-net452-x64-compressed'));
		const table = bufferTable(index.buffers);
		expect(index.buffers.some((b) => b.compressed)).toBe(true);
		index.buffers.forEach((b, i) => expect(bufferEntry(table, i)).toEqual(b));
	});

	it('names the buffer and offset it cannot find', async () => {
		const { trace, index, seen } = await walk(sample);
		const records = new BufferRecords(await reopenTrace(trace), bufferTable(index.buffers));
		const s = seen[10]!;
		const offset = `0x${index.buffers[s.buffer]!.offset.toString(16)}`;
		await expect(records.bytes(s.buffer, s.offset + 1)).rejects.toThrow(
			`buffer ${s.buffer} at file offset ${offset} has no record at 0x${(s.offset + 1).toString(16)}`,
		);
		await expect(records.bytes(index.buffers.length, 0)).rejects.toThrow(
			`the trace has no buffer ${index.buffers.length}`,
		);
	});
});
