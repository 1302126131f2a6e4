// The Statistics panel's tables over the bundled sample, checked against the sample's ground
// truth (tests/fixtures/sample/sample.truth.json), which the writer produced independently.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestToMemory, type MemoryTrace } from '../builders/memory-chunks.ts';
import { recordDecoder } from '../../web/src/decoder/single-record.ts';
import { QueryEngine } from '../../web/src/query/engine.ts';
import {
	buildStatistics,
	remotesOfSockets,
	transferDirection,
	type Statistics,
} from '../../web/src/query/statistics.ts';
import { RecordReader } from '../../web/src/worker/record-reader.ts';
import { acceptedSockets } from '../../web/src/worker/socket-payloads.ts';
import type { SampleTruth } from '../builders/sample.ts';
import { decoderModule, open } from '../decoder/load.ts';

const root = join(import.meta.dirname, '../..');
const sample = new Uint8Array(readFileSync(join(root, 'public/sample.etl')));
const truth = JSON.parse(
	readFileSync(join(root, 'tests/fixtures/sample/sample.truth.json'), 'utf8'),
) as SampleTruth;

let mem: MemoryTrace;
let engine: QueryEngine;
let stats: Statistics;
let remotes: Map<number, number>;

beforeAll(async () => {
	const trace = await open(sample, 'sample.etl');
	mem = await ingestToMemory(trace);
	engine = new QueryEngine(mem.chunks, mem.context);
	const all = await engine.select('');
	const reader = new RecordReader(
		{ engine, records: mem.records },
		recordDecoder(decoderModule(), trace.facts),
		trace.facts,
	);
	const strings = new Map(mem.tables.strings.map((s, i) => [s, i]));
	const accepted = await acceptedSockets(engine, all, mem.tables.eventTypes, reader, strings);
	remotes = await remotesOfSockets(engine, all, mem.tables.eventTypes, accepted);
	stats = await buildStatistics(engine, mem.context(), all, remotes);
});

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('statistics over the sample', () => {
	it('counts every event once, by event type', () => {
		expect(sum(stats.eventTypes.map((r) => r.count))).toBe(truth.totalRecords);
		const send = stats.eventTypes.find((r) => r.label === 'AfdSend')!;
		expect(send.count).toBe(truth.afdEventCounts['1003']);
		expect(send.category).toBe('data');
		expect(stats.eventTypes.find((r) => r.label === 'AfdConnectWithAddress')!.category).toBe(
			'connect',
		);
	});

	it('lists the failed statuses with their Winsock error and explanation', () => {
		const failures = truth.sockets.filter((s) => s.error).map((s) => s.error!);
		expect(stats.errors.map((e) => e.name).sort()).toEqual([...failures].sort());
		const refused = stats.errors.find((e) => e.name === 'STATUS_CONNECTION_REFUSED')!;
		expect(refused).toMatchObject({
			count: 1,
			wsa: 'WSAECONNREFUSED',
			wsaCode: 10061,
			hex: '0xC0000236',
			filter: 'status:STATUS_CONNECTION_REFUSED',
		});
		expect(refused.explanation.length).toBeGreaterThan(10);
		// Who got it: the sample's refused socket belongs to curl.exe.
		const owner = truth.sockets.find((s) => s.error === 'STATUS_CONNECTION_REFUSED')!;
		expect(refused.processes).toEqual([
			{ key: String(owner.pid), pid: owner.pid, name: null, count: 1 },
		]);
	});

	it('gives each process its events, sockets and bytes each way', () => {
		for (const p of truth.processes) {
			const row = stats.processes.find((r) => r.pid === p.pid)!;
			const sockets = truth.sockets.filter((s) => s.pid === p.pid);
			expect(row, p.name).toMatchObject({
				events: p.afdEvents,
				sockets: sockets.length,
				bytesSent: sum(sockets.map((s) => s.bytesSent)),
				bytesReceived: sum(sockets.map((s) => s.bytesReceived)),
				filter: `process:${p.pid}`,
			});
		}
	});

	it('gives each remote endpoint its connections, bytes each way and errors', () => {
		// A datagram socket's bytes go to each of its peers; a stream's to its remote.
		type Flow = { socket: (typeof truth.sockets)[number]; sent: number; received: number };
		const byRemote = new Map<string, Flow[]>();
		const add = (remote: string, flow: Flow) => {
			const key = remote.replace(/%\d+/, '');
			byRemote.set(key, [...(byRemote.get(key) ?? []), flow]);
		};
		for (const s of truth.sockets.filter((s) => s.remote))
			if (s.peers.length)
				for (const p of s.peers)
					add(p.remote, { socket: s, sent: p.bytesSent, received: p.bytesReceived });
			else add(s.remote!, { socket: s, sent: s.bytesSent, received: s.bytesReceived });
		expect(stats.remotes.map((r) => r.remote).sort()).toEqual([...byRemote.keys()].sort());
		for (const [remote, flows] of byRemote) {
			const row = stats.remotes.find((r) => r.remote === remote)!;
			expect(row, remote).toMatchObject({
				connections: flows.length,
				bytesSent: sum(flows.map((f) => f.sent)),
				bytesReceived: sum(flows.map((f) => f.received)),
			});
			expect(row.errors > 0, remote).toBe(flows.some((f) => f.socket.error !== null));
		}
	});

	it('filters of the rows select exactly the rows they count', async () => {
		for (const r of [...stats.processes, ...stats.errors.map((e) => ({ ...e, events: e.count }))]) {
			const sel = await engine.select(r.filter);
			expect(sel.matched, r.filter).toBe(r.events);
		}
		for (const r of stats.remotes) {
			const sel = await engine.select(r.filter);
			const again = await buildStatistics(engine, mem.context(), sel, remotes);
			const same = again.remotes.find((x) => x.remote === r.remote)!;
			expect(same, r.filter).toMatchObject({
				bytesSent: r.bytesSent,
				bytesReceived: r.bytesReceived,
				connections: r.connections,
			});
		}
	});

	it('knows which events move data, and which way', () => {
		const t = (name: string) => ({ ...mem.tables.eventTypes[0]!, name, afd: true });
		expect(transferDirection(t('AfdSendToWithAddress'))).toBe('send');
		expect(transferDirection(t('RecvCompleted'))).toBe('recv');
		expect(transferDirection(t('AfdDataIndication'))).toBe(null);
		expect(transferDirection(t('SendPosted'))).toBe(null);
		expect(transferDirection({ ...t('AfdSend'), afd: false })).toBe(null);
	});
});
