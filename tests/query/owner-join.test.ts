// The events' Owner on Winsock-AFD and TCPIP logged as Windows logs them (tests/builders/
// windows-afd.ts): completions logged in System (PID 4) or in another process's context, and
// TCPIP events whose header PID is System's, are owned by their socket's or connection's process;
// the figures come from the script (which process made each socket), never from the tracker.
import { beforeAll, describe, expect, it } from 'vitest';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { QueryEngine, type RowView } from '../../web/src/query/engine.ts';
import { trackTrace } from '../../web/src/sockets/track-trace.ts';
import type { TrackedTrace } from '../../web/src/sockets/tracker.ts';
import { ingestToMemory, type MemoryTrace } from '../builders/memory-chunks.ts';
import { addTcpConnect, addTcpRundown } from '../builders/net-payloads.ts';
import { SOCK_DGRAM } from '../builders/lifecycles.ts';
import { WindowsAfd, type WindowsExpected } from '../builders/windows-afd.ts';
import { open } from '../decoder/load.ts';

const SYSTEM = 4;

interface Script {
	bytes: Uint8Array;
	expected: WindowsExpected[];
	/** Endpoint text → the PID the script's process has (null: the trace cannot tell it). */
	ownerOf: Map<string, number | null>;
	/** TCPIP events the script logged under System for the edge connection, and its PID. */
	tcp: { events: number; pid: number };
	rundown: { pid: number };
}

/**
 * msedge.exe connects (its receive completes in System, its close exits in System) and its
 * connection's TCPIP events are logged in System with no ProcessId; old.exe's socket from before
 * the trace completes a receive in msedge.exe's context; ghost.exe's socket says nothing
 * reliable; svchost's datagram socket has no create; a rundown names a connection of PID 7777.
 */
function script(): Script {
	const sc = new WindowsAfd();
	const edge = sc.process({ pid: 6100, name: 'msedge.exe', eprocess: 0xffffa50c61000080n });
	const old = sc.process({ pid: 7300, name: 'old.exe', eprocess: 0xffffa50c73000080n });
	const ghost = sc.process({ pid: 8800, name: 'ghost.exe', eprocess: 0xffffa50c88000080n });
	const dns = sc.process({
		pid: 2400,
		name: 'svchost.exe',
		eprocess: 0xffffa50c24000080n,
		announce: 'none',
	});
	const edgeCtx = { pid: edge.pid, tid: edge.tid };
	sc.socket(old, { at: 3, create: false })
		.recvCompletionOnly(640, edgeCtx)
		.send(90)
		.recv(2000, { completion: edgeCtx });
	sc.socket(ghost, { at: 4, create: false })
		.recvCompletionOnly(77, 'system')
		.close({ closeIn: 'system' });
	sc.socket(edge, { at: 10 })
		.connect('0.0.0.0:50443', '20.190.160.1:443')
		.send(517)
		.recv(4000, { completion: 'system' })
		.close();
	sc.socket(dns, { at: 30, type: SOCK_DGRAM, create: false })
		.sendto('192.168.1.1:53', 45)
		.recvfrom('192.168.1.1:53', 180);
	const tcpEvents = addTcpConnect(
		sc.lc.w,
		{ time: sc.lc.at(10.2), pid: SYSTEM, tid: 8, cpu: 1 },
		'10.0.0.5:50443',
		'20.190.160.1:443',
		{ outcome: 'connected', dataRetransmits: 2 },
	).length;
	const rundownPid = 7777;
	addTcpRundown(
		sc.lc.w,
		{ time: sc.lc.at(1), pid: SYSTEM, tid: 8, cpu: 1 },
		'10.0.0.5:51000',
		'10.9.9.9:445',
		rundownPid,
	);
	const { file, expected } = sc.finish();
	const ownerOf = new Map(
		sc.sockets.map((s, k) => [`0x${s.endpoint.toString(16)}`, expected[k]!.pid]),
	);
	return {
		bytes: file.bytes,
		expected,
		ownerOf,
		tcp: { events: tcpEvents, pid: edge.pid },
		rundown: { pid: rundownPid },
	};
}

describe('Owner', () => {
	let s: Script;
	let mem: MemoryTrace;
	let engine: QueryEngine;
	let tracked: TrackedTrace;
	let rows: RowView[];
	beforeAll(async () => {
		s = script();
		const trace = await open(s.bytes, 'owners.etl');
		mem = await ingestToMemory(trace);
		tracked = await trackTrace(trace, (await indexBuffers(trace)).buffers);
		// The names the import learns from the process events (sockets/import-tracker.ts).
		for (const p of tracked.processes) if (p.name) mem.tables.processNames.set(p.pid, p.name);
		engine = new QueryEngine(mem.chunks, mem.context);
		engine.setOwners(tracked.owners ?? null);
		const all = await engine.select('');
		rows = await engine.rows(engine.indexes(all, 0, all.matched));
	});

	const afdRows = () => rows.filter((r) => r.provider === 'Microsoft-Windows-Winsock-AFD');

	it("is the socket's process for each Winsock event of a socket whose process is known", () => {
		const known = afdRows().filter((r) => s.ownerOf.get(r.endpoint!) !== null);
		expect(known.length).toBeGreaterThan(0);
		for (const r of known) {
			expect({ owner: r.owner, source: r.ownerSource }, `event ${r.index}`).toEqual({
				owner: s.ownerOf.get(r.endpoint!),
				source: 'socket',
			});
		}
	});

	it("is the socket's process for completions logged under PID 4", () => {
		const inSystem = afdRows().filter(
			(r) => r.pid === SYSTEM && s.ownerOf.get(r.endpoint!) !== null,
		);
		expect(inSystem.length).toBeGreaterThan(0);
		for (const r of inSystem) {
			expect(r.owner).toBe(s.ownerOf.get(r.endpoint!));
			expect(r.owner).not.toBe(SYSTEM);
			expect(r.ownerSource).toBe('socket');
		}
	});

	it("keeps the event's own record where the socket never told its process", () => {
		const unknown = afdRows().filter((r) => s.ownerOf.get(r.endpoint!) === null);
		expect(unknown.length).toBeGreaterThan(0);
		for (const r of unknown) {
			expect(r.owner).toBe(r.process);
			expect(r.ownerSource).toBe(r.process === null ? null : 'header');
		}
	});

	it("is the connection's process for TCPIP events logged in System", () => {
		const tcp = rows.filter((r) => r.provider === 'Microsoft-Windows-TCPIP');
		expect(tcp.every((r) => r.pid === SYSTEM)).toBe(true);
		const edge = tcp.filter((r) => r.owner === s.tcp.pid);
		expect(edge).toHaveLength(s.tcp.events);
		expect(edge.every((r) => r.ownerSource === 'tcpip')).toBe(true);
		const rundown = tcp.filter((r) => r.owner === s.rundown.pid);
		expect(rundown.map((r) => r.ownerSource)).toEqual(['tcpip']);
	});

	it('is filtered on by PID and by name, and apart from the Process column', async () => {
		const edgePid = s.tcp.pid;
		const owned = rows.filter((r) => r.owner === edgePid).length;
		expect((await engine.select(`owner:${edgePid}`)).matched).toBe(owned);
		expect((await engine.select('owner:msedge*')).matched).toBe(owned);
		expect((await engine.select(`process:${edgePid}`)).matched).toBeLessThan(owned);
		expect((await engine.select(`owner:${edgePid} pid:${SYSTEM}`)).matched).toBe(
			rows.filter((r) => r.owner === edgePid && r.pid === SYSTEM).length,
		);
		expect((await engine.select(`!owner:msedge*`)).matched).toBe(rows.length - owned);
		expect((await engine.select('owner')).matched).toBe(
			rows.filter((r) => r.owner !== null).length,
		);
	});

	it("is the record's own process until the sockets are known", async () => {
		const bare = new QueryEngine(mem.chunks, mem.context);
		const all = await bare.select('');
		const before = await bare.rows(bare.indexes(all, 0, all.matched));
		for (const r of before) {
			expect(r.owner).toBe(r.process);
			expect(r.ownerSource).toBe(r.process === null ? null : 'header');
		}
	});
});
