// The index pass reports how far it got and stops when asked (Cancel before any event is stored).
import { describe, expect, it } from 'vitest';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { open, realFixture } from './load.ts';

describe('indexBuffers', () => {
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
