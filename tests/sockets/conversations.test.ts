// Conversations (process × peer) with latency percentiles and histogram; the per-socket event
// index store and its cap.
import { describe, expect, it } from 'vitest';
import {
	bucketOf,
	conversationsOf,
	LATENCY_BUCKETS_MS,
	percentile,
} from '../../web/src/sockets/conversations.ts';
import { IndexList } from '../../web/src/sockets/index-list.ts';
import { Lifecycles, SOCK_DGRAM, STATUS_IO_TIMEOUT } from '../builders/lifecycles.ts';
import { trackBytes } from './track.ts';

describe('conversations', () => {
	it('group sockets by process and peer, with connect latency percentiles', async () => {
		const lc = new Lifecycles({ families: 'both' });
		const app = lc.process({ pid: 3000, name: 'app.exe', eprocess: 0xffffa50c44440080n });
		const other = lc.process({ pid: 3100, name: 'other.exe', eprocess: 0xffffa50c55550080n });
		const latencies = [3, 7, 12, 15, 18, 25, 40, 60, 90, 450];
		latencies.forEach((ms, k) =>
			lc
				.socket(app, { at: 10 + 50 * k })
				.bind(`0.0.0.0:${50000 + k}`)
				.connect('10.9.8.7:443', { ms })
				.send(100)
				.recv(1000 * (k + 1))
				.close(),
		);
		lc.socket(app, { at: 700 })
			.bind('0.0.0.0:50100')
			.connect('10.9.8.7:443', { ms: 2000, status: STATUS_IO_TIMEOUT })
			.close();
		lc.socket(other, { at: 20 }).bind('0.0.0.0:50200').connect('10.9.8.7:443', { ms: 5 }).close();
		const { tracked } = await trackBytes(lc.finish().file.bytes);
		const [c, d] = conversationsOf(tracked.sockets);
		expect(c).toMatchObject({
			key: '3000|10.9.8.7:443',
			process: 'app.exe',
			remote: '10.9.8.7:443',
			protocol: 'TCP',
			direction: 'outbound',
			connections: 11,
			connected: 10,
			failed: 1,
			bytesSent: 1000,
			bytesReceived: 55_000,
		});
		expect(c!.latency).toEqual({ count: 10, min: 3, max: 450, p50: 18, p90: 90, p99: 450 });
		//            <1 <2 <5 <10 <20 <50 <100 <200 <500 <1s <2s <5s ≥5s
		expect(c!.histogram).toEqual([0, 0, 1, 1, 3, 2, 2, 0, 1, 0, 0, 0, 0]);
		expect(d).toMatchObject({ key: '3100|10.9.8.7:443', connections: 1, connected: 1 });
	});

	it('a datagram socket with two remotes is two conversations, each with its bytes', async () => {
		for (const families of ['modern', 'legacy', 'both'] as const) {
			const lc = new Lifecycles({ families });
			const app = lc.process({ pid: 3000, name: 'app.exe', eprocess: 0xffffa50c44440080n });
			lc.socket(app, { at: 1, type: SOCK_DGRAM })
				.bind('0.0.0.0:53000')
				.sendto('10.0.0.53:53', 40)
				.sendto('10.0.0.54:53', 41)
				.recvfrom('10.0.0.53:53', 100)
				.recvfrom('10.0.0.54:53', 101)
				.sendto('10.0.0.53:53', 30)
				.close();
			const { tracked } = await trackBytes(lc.finish().file.bytes);
			const got = conversationsOf(tracked.sockets).map((c) => [
				c.key,
				c.protocol,
				c.bytesSent,
				c.bytesReceived,
				c.connections,
			]);
			expect(got, families).toEqual([
				['3000|10.0.0.53:53', 'UDP', 70, 100, 1],
				['3000|10.0.0.54:53', 'UDP', 41, 101, 1],
			]);
		}
	});

	it('nearest-rank percentiles and bucket bounds', () => {
		expect(percentile([1, 2, 3, 4], 50)).toBe(2);
		expect(percentile([1, 2, 3, 4], 99)).toBe(4);
		expect(percentile([7], 1)).toBe(7);
		expect(bucketOf(0.5)).toBe(0);
		expect(bucketOf(1)).toBe(1);
		expect(bucketOf(1e9)).toBe(LATENCY_BUCKETS_MS.length - 1);
	});
});

describe('event index list', () => {
	it('keeps every index without a cap', () => {
		const l = new IndexList();
		for (let i = 0; i < 1000; i++) l.push(i * 3);
		expect(l.count).toBe(1000);
		expect([...l.toArray()]).toEqual(Array.from({ length: 1000 }, (_, i) => i * 3));
		expect([l.first, l.last]).toEqual([0, 2997]);
	});

	it('past the cap keeps the first and the last half-cap, in order', () => {
		const l = new IndexList(8);
		for (let i = 0; i < 3; i++) l.push(i);
		expect([...l.toArray()]).toEqual([0, 1, 2]);
		for (let i = 3; i < 6; i++) l.push(i);
		expect([...l.toArray()]).toEqual([0, 1, 2, 3, 4, 5]);
		for (let i = 6; i < 100; i++) l.push(i);
		expect(l.count).toBe(100);
		expect([...l.toArray()]).toEqual([0, 1, 2, 3, 96, 97, 98, 99]);
		expect(l.last).toBe(99);
	});

	it('the tracker caps indexes per socket when asked', async () => {
		const lc = new Lifecycles({ families: 'modern' });
		const app = lc.process({ pid: 3000, name: 'app.exe', eprocess: 0xffffa50c44440080n });
		const s = lc.socket(app, { at: 1 }).bind('0.0.0.0:50000').connect('10.9.8.7:443');
		for (let k = 0; k < 50; k++) s.send(10);
		s.close();
		const { tracked } = await trackBytes(lc.finish().file.bytes, { maxEventsPerSocket: 20 });
		const [x] = tracked.sockets;
		expect(x!.eventCount).toBe(2 + 2 + 2 + 100 + 4);
		expect(x!.events).toHaveLength(20);
		expect(x!.sends).toBe(50);
	});
});
