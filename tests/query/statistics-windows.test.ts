// The Statistics panel's remote endpoints over Winsock-AFD logged the way Windows logs it
// (tests/builders/windows-afd.ts): each remote's bytes are what the script sent to and received
// from it, a datagram socket's bytes going to each of its peers.
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

let stats: Statistics;
let expected: WindowsExpected[];
let mem: MemoryTrace;

beforeAll(async () => {
	const scenario = windowsScenario();
	expected = scenario.expected;
	mem = await ingestToMemory(await open(scenario.file.bytes, 'windows.etl'));
	const engine = new QueryEngine(mem.chunks, mem.context);
	const all = await engine.select('');
	const remotes = await remotesOfSockets(engine, all, mem.tables.eventTypes);
	stats = await buildStatistics(engine, mem.context(), all, remotes);
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
});
