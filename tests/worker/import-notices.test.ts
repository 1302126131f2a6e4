// When an import tells the page's view to ask again: the policy (not the first chunk, which the
// view's first query waits for; then spaced by half the import's time, at least a second; held
// chunks told when the decoding ends) and the listeners, per trace.
import { describe, expect, it } from 'vitest';
import type { ChunksCommitted } from '../../web/src/worker/api.ts';
import { ImportNotices, RefreshPolicy } from '../../web/src/worker/import-notices.ts';

describe('the refresh policy', () => {
	it('leaves the first chunk to the query waiting for it, then spaces notices by half the elapsed time, at least 1 s', () => {
		const p = new RefreshPolicy();
		expect(p.due(10)).toBe(false);
		expect(p.committed(50)).toBe(false);
		expect(p.flush()).toBe(false);
		expect(p.committed(400)).toBe(false);
		expect(p.due(1000)).toBe(false);
		expect(p.due(1050)).toBe(true);
		expect(p.due(3000)).toBe(false);
		// At 10 s, notices come at most every 5 s.
		expect(p.committed(10_000)).toBe(true);
		expect(p.committed(14_000)).toBe(false);
		expect(p.due(14_999)).toBe(false);
		expect(p.flush()).toBe(true);
		expect(p.flush()).toBe(false);
		expect(p.due(20_000)).toBe(false);
	});

	it('starts over with the import: its new first chunk is again for the query waiting for it', () => {
		const p = new RefreshPolicy();
		p.committed(100);
		expect(p.committed(2000)).toBe(true);
		p.restarted();
		expect(p.committed(2100)).toBe(false);
		expect(p.committed(2200)).toBe(false);
		expect(p.flush()).toBe(true);
	});
});

describe('import notices', () => {
	it('reach the listeners of their trace until they unfollow', async () => {
		const n = new ImportNotices();
		const heard: [string, ChunksCommitted][] = [];
		const a = n.follow(1, (c) => heard.push(['a', c]));
		n.follow(2, (c) => heard.push(['b', c]));
		const c = { traceId: 1, records: 10, chunks: 1, final: false };
		n.tell(c);
		await Promise.resolve();
		await Promise.resolve();
		n.unfollow(a);
		n.tell({ ...c, final: true });
		await Promise.resolve();
		await Promise.resolve();
		expect(heard).toEqual([['a', c]]);
	});
});
