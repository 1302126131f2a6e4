// A socket's event indexes: all of them up to the cap, then the first half and a ring of the last
// half; freed at once when the tracker is done with them.
import { describe, expect, it } from 'vitest';
import { IndexList } from '../../web/src/sockets/index-list.ts';
import { withTransfer } from '../builders/transfer.ts';

describe('IndexList', () => {
	it('keeps every index below its cap', () => {
		const list = new IndexList(256);
		for (let i = 0; i < 100; i++) list.push(i * 3);
		expect(list.count).toBe(100);
		expect([...list.toArray()]).toEqual(Array.from({ length: 100 }, (_, i) => i * 3));
		expect(list.first).toBe(0);
		expect(list.last).toBe(297);
	});

	it('past its cap keeps the first half and the last half', () => {
		const list = new IndexList(8);
		for (let i = 0; i < 20; i++) list.push(i);
		expect(list.count).toBe(20);
		expect([...list.toArray()]).toEqual([0, 1, 2, 3, 16, 17, 18, 19]);
		expect(list.last).toBe(19);
	});

	it('frees its memory and holds nothing after, its copies untouched', () => {
		const remove = withTransfer();
		try {
			const list = new IndexList(256);
			for (let i = 0; i < 300; i++) list.push(i);
			const copy = list.toArray();
			list.free();
			expect(list.count).toBe(0);
			expect(list.toArray()).toHaveLength(0);
			expect(copy).toHaveLength(256);
			expect(copy[255]).toBe(299);
		} finally {
			remove();
		}
	});
});
