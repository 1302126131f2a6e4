// The index pass: the same index whether the file is read synchronously or scanned in blocks
// (a browser File), whatever the block size; it reports how far it got and stops when asked.
import { describe, expect, it } from 'vitest';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { SequentialReader } from '../../web/src/decoder/source.ts';
import { asyncSource, open, realFixture } from './load.ts';

describe('indexBuffers', () => {
	for (const name of ['perfview-net452-x64-compressed', 'tx-win7-kernel-network'])
		it(`finds the same buffers scanning ${name} in blocks`, async () => {
			const bytes = realFixture(name);
			const trace = await open(bytes);
			const direct = await indexBuffers(trace);
			const source = asyncSource(bytes);
			const scanned = await indexBuffers(trace, { source });
			expect(scanned).toEqual(direct);
			// Far fewer reads than buffers: one per 8 MiB block, plus any header across two.
			expect(source.reads).toBeLessThan(direct.buffers.length / 10 + 4);
		});

	it('reports growing offsets, every 64 buffers', async () => {
		const bytes = realFixture('perfview-net452-x64-compressed');
		const trace = await open(bytes);
		const offsets: number[] = [];
		const index = await indexBuffers(trace, { onProgress: (o) => offsets.push(o) });
		expect(offsets.length).toBe(Math.ceil(index.buffers.length / 64));
		expect(offsets).toEqual(offsets.map((_, k) => index.buffers[k * 64]!.offset));
	});

	it('stops with the signal’s reason when aborted', async () => {
		const trace = await open(realFixture('perfview-net452-x64-compressed'));
		const stop = new AbortController();
		let calls = 0;
		const pass = indexBuffers(trace, {
			signal: stop.signal,
			onProgress: () => {
				if (++calls === 2) stop.abort(new Error('cancelled by the user'));
			},
		});
		await expect(pass).rejects.toThrow('cancelled by the user');
		expect(calls).toBe(2);
	});
});

describe('SequentialReader', () => {
	it('hands out the right bytes front to back, across block ends, to the last byte', async () => {
		const bytes = Uint8Array.from({ length: 10_000 }, (_, i) => (i * 7919) & 0xff);
		const source = asyncSource(bytes);
		const reader = new SequentialReader(source, 1000, 2);
		let across = 0;
		for (let offset = 0; offset < bytes.length; offset += 333) {
			const length = 72 + (offset % 5);
			if ((offset % 1000) + length > 1000 && offset + length < bytes.length) across++;
			const got = reader.view(offset, length) ?? (await reader.read(offset, length));
			expect(got).toEqual(bytes.subarray(offset, Math.min(bytes.length, offset + length)));
		}
		// Each of the ten blocks once, and each piece that ran across a block's end.
		expect(across).toBeGreaterThan(3);
		expect(source.reads).toBe(10 + across);
	});

	it('starts with a smaller first block when asked, and grows to the block size', async () => {
		const bytes = Uint8Array.from({ length: 10_000 }, (_, i) => (i * 7919) & 0xff);
		const source = asyncSource(bytes);
		const sizes: number[] = [];
		const read = source.read;
		source.read = (offset, length) => {
			sizes.push(length);
			return read(offset, length);
		};
		const reader = new SequentialReader(source, 3000, 1, 1000);
		// Pieces that never cross a block's end: blocks start at 0, 1000, 2000, 4000 and 7000.
		for (const offset of [0, 500, 1000, 2000, 3900, 4000, 6900, 7000, 9900]) {
			const got = reader.view(offset, 100) ?? (await reader.read(offset, 100));
			expect(got).toEqual(bytes.subarray(offset, offset + 100));
		}
		expect(sizes).toEqual([1000, 1000, 2000, 3000, 3000]);
	});
});
