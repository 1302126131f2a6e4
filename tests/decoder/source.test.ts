// A switchable source hands out the same bytes from whichever source stands behind it, and takes
// up the new one's synchronous reads (the decoder asks for them per buffer).
import { describe, expect, it } from 'vitest';
import { memorySource, switchableSource } from '../../web/src/decoder/source.ts';
import { asyncSource } from './load.ts';

const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i * 31) & 0xff);

describe('switchableSource', () => {
	it('reads through the source in use, and back after reset', async () => {
		const s = switchableSource(asyncSource(bytes));
		expect(s.readInto).toBeUndefined();
		expect(await s.read(100, 8)).toEqual(bytes.subarray(100, 108));
		s.use(memorySource(bytes));
		const into = new Uint8Array(8);
		expect(s.readInto!(200, into)).toBe(8);
		expect(into).toEqual(bytes.subarray(200, 208));
		s.reset();
		expect(s.readInto).toBeUndefined();
	});

	it('refuses a source of another size', () => {
		const s = switchableSource(asyncSource(bytes));
		expect(() => s.use(memorySource(bytes.subarray(1)))).toThrow(
			'a source of 4095 bytes cannot stand for 4096',
		);
	});
});
