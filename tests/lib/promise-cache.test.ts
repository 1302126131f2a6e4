// The promise cache shares a load among concurrent requests, keeps the newest few and forgets
// a failed load.
import { describe, expect, it } from 'vitest';
import { PromiseCache } from '../../web/src/lib/promise-cache.ts';

describe('PromiseCache', () => {
	it('shares, keeps the newest, and forgets failures', async () => {
		const cache = new PromiseCache<number, string>(2);
		const loads: number[] = [];
		const load = async (k: number) => {
			loads.push(k);
			if (k < 0) throw new Error(`no ${k}`);
			return `v${k}`;
		};
		expect(await Promise.all([cache.get(1, load), cache.get(1, load)])).toEqual(['v1', 'v1']);
		await cache.get(2, load);
		await cache.get(1, load); // 1 becomes the newest
		await cache.get(3, load); // 2 goes
		expect([cache.has(1), cache.has(2), cache.has(3)]).toEqual([true, false, true]);
		await expect(cache.get(-1, load)).rejects.toThrow('no -1');
		expect(cache.has(-1)).toBe(false);
		await expect(cache.get(-1, load)).rejects.toThrow('no -1');
		expect(loads).toEqual([1, 2, 3, -1, -1]);
	});

	it('tells which value it puts out to make room', async () => {
		const out: string[] = [];
		const cache = new PromiseCache<number, string>(2, (v) => void v.then((x) => out.push(x)));
		const load = async (k: number) => `v${k}`;
		await cache.get(1, load);
		await cache.get(2, load);
		await cache.get(1, load); // 1 becomes the newest
		await cache.get(3, load); // 2 goes
		await cache.get(4, load); // 1 goes
		expect(out).toEqual(['v2', 'v1']);
	});
});
