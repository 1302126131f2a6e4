// The Statistics panel's remote endpoints over Winsock-AFD logged the way Windows logs it
// (tests/builders/windows-afd.ts): each remote's bytes are what the script sent to and received
// from it, a datagram socket's bytes going to each of its peers, a send nested at a Location no
// source lists counted once, as the socket tracker counts it.
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestToMemory, type MemoryTrace } from '../builders/memory-chunks.ts';
import { windowsScenario, type WindowsExpected } from '../builders/windows-afd.ts';
import { QueryEngine } from '../../web/src/query/engine.ts';
import {
	buildStatistics,
	remotesOfSockets,
	type Statistics,
} from '../../web/src/query/statistics.ts';
import { open } from '../decoder/load.ts';
import { trackBytes } from '../sockets/track.ts';

let stats: Statistics;
let expected: WindowsExpected[];
let mem: MemoryTrace;
let uncounted: readonly number[];

beforeAll(async () => {
	const scenario = windowsScenario();
	expected = scenario.expected;
	mem = await ingestToMemory(await open(scenario.file.bytes, 'windows.etl'));
	const engine = new QueryEngine(mem.chunks, mem.context);
	const all = await engine.select('');
	const remotes = await remotesOfSockets(engine, all, mem.tables.eventTypes);
	const { tracked } = await trackBytes(scenario.file.bytes);
	uncounted = tracked.uncountedSends ?? [];
	stats = await buildStatistics(engine, mem.context(), all, remotes, new Set(uncounted));
});

describe('statistics of Windows-like Winsock events', () => {
	it('puts each datagram under the peer it went to or came from', () => {
		const want = new Map<string, { sent: number; received: number }>();
		const add = (remote: string, sent: number, received: number) => {
			const w = want.get(remote) ?? { sent: 0, received: 0 };
			w.sent += sent;
			w.received += received;
			want.set(remote, w);
		};
		for (const s of expected) for (const p of s.peers) add(p.remote, p.bytesSent, p.bytesReceived);
		const got = new Map(
			stats.remotes
				.filter((r) => want.has(r.remote))
				.map((r) => [r.remote, { sent: r.bytesSent, received: r.bytesReceived }]),
		);
		expect(want.size).toBeGreaterThan(2);
		expect(Object.fromEntries(got)).toEqual(Object.fromEntries(want));
	});

	it('counts each stream send once, as the socket tracker does', () => {
		expect(uncounted.length).toBeGreaterThan(0);
		for (const s of expected.filter((s) => s.peers.length === 0 && s.remote)) {
			const row = stats.remotes.find((r) => r.remote === s.remote);
			expect(row, s.remote!).toMatchObject({
				bytesSent: expected
					.filter((o) => o.peers.length === 0 && o.remote === s.remote)
					.reduce((n, o) => n + o.bytesSent, 0),
			});
		}
	});
});
