// A column is narrowed to the smallest type that holds every value it has: the OR of its values
// decides, read a word (two u16 values) at a time where the column is 4-byte aligned, the rest
// one value at a time.
import { describe, expect, it } from 'vitest';
import { narrowColumn } from '../../web/src/columns/layout.ts';

describe('narrowColumn', () => {
	it('keeps a u16 column wide for one value of 256 or more wherever it is, aligned or not', () => {
		for (let length = 0; length < 10; length++)
			for (let offset = 0; offset < 3; offset++) {
				// 0, 2 or 4 bytes into its memory: a column read back from storage is a view.
				const a = new Uint16Array(length + 2).subarray(offset, offset + length);
				for (let i = 0; i < length; i++) a[i] = (i * 37 + offset) & 0xff;
				const small = narrowColumn('lport', a);
				expect(small.BYTES_PER_ELEMENT, `${length} at ${offset}`).toBe(1);
				expect([...small]).toEqual([...a]);
				for (let at = 0; at < length; at++)
					for (const big of [0x100, 0x8000]) {
						const b = a.slice();
						b[at] = big;
						const view = new Uint16Array(length + 2).subarray(offset, offset + length);
						view.set(b);
						const wide = narrowColumn('lport', view);
						expect(wide.BYTES_PER_ELEMENT, `${length} at ${offset}, ${big} at ${at}`).toBe(2);
						expect([...wide]).toEqual([...b]);
					}
			}
	});
});
