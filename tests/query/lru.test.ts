// The query cache's policy: bounded by bytes, least recently used out first, and a loop over more
// than it holds still finds most of it (plain LRU would find nothing).
import { describe, expect, it } from 'vitest';
import { LruCache } from '../../web/src/query/lru.ts';

/** Reads keys 0..n-1 in order, adding each missed one; returns the hits. */
function pass(cache: LruCache<number>, n: number, prefix = ''): number {
	let hits = 0;
	for (let k = 0; k < n; k++) {
		const key = `${prefix}${k}`;
		if (cache.get(key) !== undefined) hits++;
		else cache.set(key, k, 10);
	}
	return hits;
}

describe('LruCache', () => {
	it('keeps everything that fits, and evicts the least recently used beyond the bound', () => {
		const cache = new LruCache<number>(100);
		expect(pass(cache, 10)).toBe(0);
		expect(pass(cache, 10)).toBe(10);
		expect(cache.bytes).toBe(100);
		cache.get('0');
		cache.set('x', 1, 10);
		expect(cache.bytes).toBeLessThanOrEqual(100);
		// '1' was the least recently used: out; '0' was read just before: kept.
		expect(cache.get('1')).toBeUndefined();
		expect(cache.get('0')).toBe(0);
	});

	it('still serves most of a loop over more than it holds, pass after pass', () => {
		const cache = new LruCache<number>(1000);
		pass(cache, 130);
		for (let p = 0; p < 5; p++) {
			const hits = pass(cache, 130);
			// 100 entries fit; an eighth are on probation, and those kept are hit.
			expect(hits).toBeGreaterThanOrEqual(70);
			expect(cache.bytes).toBeLessThanOrEqual(1000);
		}
	});

	it('comes to hold a new set of entries that loops read instead of the old', () => {
		const cache = new LruCache<number>(1000);
		for (let p = 0; p < 3; p++) pass(cache, 100, 'old');
		let hits = 0;
		for (let p = 0; p < 40; p++) hits = pass(cache, 100, 'new');
		expect(hits).toBeGreaterThanOrEqual(80);
		expect(pass(cache, 100, 'old')).toBeLessThanOrEqual(20);
	});

	it('keeps what is read ahead until it is read, although full', () => {
		const cache = new LruCache<number>(1000);
		pass(cache, 100);
		// A loop reads ten entries ahead, then reads them.
		for (let k = 0; k < 10; k++) cache.set(`ahead${k}`, k, 10);
		for (let k = 0; k < 10; k++) expect(cache.get(`ahead${k}`)).toBe(k);
	});

	it('shrinks to a lower bound at once', () => {
		const cache = new LruCache<number>(1000);
		pass(cache, 100);
		cache.limit(300);
		expect(cache.bytes).toBeLessThanOrEqual(300);
		expect(cache.get('99')).toBe(99);
		expect(cache.get('0')).toBeUndefined();
	});
});

describe('LruCache with a loop that says what it reads', () => {
	it('gives up what the loop does not read first, and keeps most of what it does', () => {
		const cache = new LruCache<number>(1000);
		// What an import left: 100 entries no loop reads again.
		pass(cache, 100, 'primed');
		const wanted = new Set(Array.from({ length: 90 }, (_, k) => `scan${k}`));
		cache.protect(wanted);
		pass(cache, 90, 'scan');
		// 90 fit beside what was left: the second pass finds them all.
		expect(pass(cache, 90, 'scan')).toBe(90);
		expect(cache.bytes).toBeLessThanOrEqual(1000);
	});

	it('over more than it holds, still finds most of the loop pass after pass', () => {
		const cache = new LruCache<number>(1000);
		pass(cache, 100, 'primed');
		cache.protect(new Set(Array.from({ length: 130 }, (_, k) => `scan${k}`)));
		pass(cache, 130, 'scan');
		for (let p = 0; p < 3; p++) expect(pass(cache, 130, 'scan')).toBeGreaterThanOrEqual(80);
	});
	it('tells of every entry let go to keep within its bound, and of no other', () => {
		const letGo: string[] = [];
		const cache = new LruCache<number>(100, (key) => letGo.push(key));
		pass(cache, 10);
		// Held anew under the same key: replaced, not let go.
		cache.set('3', 33, 10);
		expect(letGo).toEqual([]);
		// A pass over three times what it holds lets go of all it could not keep.
		pass(cache, 30, 'p');
		const held = [...Array(10).keys()]
			.map(String)
			.concat([...Array(30).keys()].map((k) => `p${k}`))
			.filter((k) => cache.peek(k) !== undefined);
		expect(letGo.length + held.length).toBe(40);
		expect(new Set([...letGo, ...held]).size).toBe(40);
	});

	it('replaces a value in its place, counted as the same bytes, and peeks without a read', () => {
		const cache = new LruCache<number>(30);
		cache.set('a', 1, 10);
		cache.set('b', 2, 10);
		cache.set('c', 3, 10);
		cache.replace('a', 11);
		cache.replace('gone', 5);
		expect(cache.peek('a')).toBe(11);
		expect(cache.peek('gone')).toBeUndefined();
		expect(cache.bytes).toBe(30);
		// Neither peek nor replace made 'a' recently used: it goes first.
		cache.set('d', 4, 10);
		expect(cache.peek('a')).toBeUndefined();
		expect(cache.peek('b')).toBe(2);
	});
});
