// Generated traces with known socket lifecycles decode to exactly those sockets and findings, with
// the legacy events only, the enter/exit events only, or both for the same operations (never
// counted twice), 64- and 32-bit records mixed.
import { describe, expect, it } from 'vitest';
import { findingsOf } from '../../web/src/sockets/findings.ts';
import type { SocketSummary } from '../../web/src/sockets/socket.ts';
import {
	AF_INET6,
	Lifecycles,
	SOCK_DGRAM,
	STATUS_ADDRESS_ALREADY_EXISTS,
	STATUS_CONNECTION_REFUSED,
	STATUS_CONNECTION_RESET,
	STATUS_IO_TIMEOUT,
	STATUS_TOO_MANY_ADDRESSES,
	type Built,
	type ExpectedSocket,
	type Families,
} from '../builders/lifecycles.ts';
import { endpointsOf, trackBytes, type Tracked } from './track.ts';

function scenario(families: Families): Built {
	const lc = new Lifecycles({ families });
	const chrome = lc.process({ pid: 4120, name: 'chrome.exe', eprocess: 0xffffa50c12345080n });
	const svchost = lc.process({ pid: 1337, name: 'svchost.exe', eprocess: 0xffffa50c0f8a2080n });
	const curl = lc.process({ pid: 5200, name: 'curl.exe', eprocess: 0xffffa50c1a6b3080n });
	const old32 = lc.process({
		pid: 2222,
		name: 'legacyapp.exe',
		eprocess: 0x8a3c5030n,
		pointerSize: 4,
	});
	const ghost = lc.process({
		pid: 6000,
		name: 'ghost.exe',
		eprocess: 0xffffa50c22220080n,
		announce: 'mof',
	});
	const anon = lc.process({
		pid: 7000,
		name: 'anon.exe',
		eprocess: 0xffffa50c33330080n,
		announce: 'none',
	});

	// A listener with one clean accepted connection and one reset by the peer.
	const listener = lc.socket(svchost, { at: 5 }).bind('0.0.0.0:8080').listen();
	listener.accept('10.0.0.42:50110').recv(300).send(6000).close();
	listener
		.accept('10.0.0.42:50114')
		.recv(200)
		.abort('transport', 4)
		.recv(0, { status: STATUS_CONNECTION_RESET })
		.close();
	// TCP clients: closed, open at the end, refused, timed out, disconnected by the peer.
	lc.socket(chrome, { at: 10 })
		.bind('0.0.0.0:51234')
		.connect('142.250.74.46:443', { ms: 38 })
		.send(517)
		.recv(4800)
		.send(120)
		.recv(16000)
		.close();
	lc.socket(chrome, { at: 20, family: AF_INET6 })
		.bind('[::]:51235')
		.connect('[2607:f8b0::64]:443', { ms: 12.5 })
		.send(300)
		.recv(2000);
	lc.socket(curl, { at: 40 })
		.bind('0.0.0.0:51239')
		.connect('10.0.0.5:8081', { ms: 1020, status: STATUS_CONNECTION_REFUSED })
		.close();
	lc.socket(curl, { at: 50 })
		.bind('0.0.0.0:51240')
		.connect('203.0.113.9:443', { ms: 2100, status: STATUS_IO_TIMEOUT })
		.close();
	lc.socket(chrome, { at: 60 })
		.bind('0.0.0.0:51236')
		.connect('151.101.1.69:443', { ms: 22 })
		.send(200)
		.recv(900)
		.disconnect()
		.recv(0)
		.close();
	// UDP with a dropped datagram.
	lc.socket(chrome, { at: 30, type: SOCK_DGRAM })
		.option(11, 0)
		.bind('0.0.0.0:53114')
		.sendto('192.168.1.1:53', 40)
		.recvfrom('192.168.1.1:53', 120)
		.drop('192.168.1.1:53', 120, 2)
		.close();
	// AFD aborts a connection.
	lc.socket(svchost, { at: 70 })
		.bind('0.0.0.0:50001')
		.connect('10.0.0.9:445', { ms: 5 })
		.send(100)
		.abort('afd', 2)
		.close();
	// Endpoint reuse: after cleanup (generation 1), and without a cleanup in the trace.
	const reused = 0xffffa50c1e2fa000n;
	lc.socket(chrome, { at: 80, endpoint: reused })
		.bind('0.0.0.0:51300')
		.connect('1.1.1.1:443', { ms: 9 })
		.send(64)
		.close();
	lc.socket(chrome, { at: 90, endpoint: reused })
		.bind('0.0.0.0:51301')
		.connect('1.0.0.1:443', { ms: 11 })
		.close();
	const lost = 0xffffa50c1e2fb000n;
	lc.socket(chrome, { at: 100, endpoint: lost })
		.bind('0.0.0.0:51302')
		.connect('9.9.9.9:443', { ms: 4 })
		.send(50)
		.lost();
	lc.socket(chrome, { at: 110, endpoint: lost }).bind('0.0.0.0:51303').close();
	// Sockets that existed before the trace: PID from the header of the application's own calls,
	// from a kernel (MOF) rundown, or from another socket's create (transport events carry PID 4).
	lc.socket(anon, { at: 120, create: false }).send(64).recv(128).close();
	lc.socket(ghost, { at: 130, create: false }).disconnect();
	lc.socket(chrome, { at: 140, create: false }).disconnect();
	// I/O after closesocket, a tiny-send storm, a retry storm, bind failures.
	lc.socket(curl, { at: 150 })
		.bind('0.0.0.0:51250')
		.connect('10.0.0.7:80', { ms: 3 })
		.closeRequest()
		.send(10)
		.cleanup();
	lc.socket(chrome, { at: 200 })
		.bind('0.0.0.0:51400')
		.connect('10.1.1.1:6379', { ms: 1 })
		.sendBurst(60, 8, 500)
		.close();
	for (let k = 0; k < 5; k++)
		lc.socket(curl, { at: 300 + 10 * k })
			.bind(`0.0.0.0:${52000 + k}`)
			.connect('10.0.0.99:5432', { ms: 1, status: STATUS_CONNECTION_REFUSED })
			.close();
	// EVENT32 records (4-byte pointers).
	lc.socket(old32, { at: 400 }).bind('0.0.0.0:0', { status: STATUS_TOO_MANY_ADDRESSES }).close();
	lc.socket(old32, { at: 410 })
		.bind('0.0.0.0:8080', { status: STATUS_ADDRESS_ALREADY_EXISTS })
		.close();
	lc.socket(old32, { at: 420 })
		.bind('0.0.0.0:51233')
		.connect('93.184.216.34:80', { ms: 95 })
		.send(300)
		.recv(1460)
		.close();
	lc.pollBurst(svchost, 500, 150, 400);
	return lc.finish();
}

function actual(s: SocketSummary): ExpectedSocket {
	return {
		key: s.key,
		pid: s.pid,
		process: s.process,
		endpoint: s.endpoint,
		generation: s.generation,
		origin: s.origin,
		family: s.family,
		type: s.type,
		protocol: s.protocol,
		local: s.local,
		remote: s.remote,
		listening: s.listening,
		listener: s.listener,
		accepts: s.accepts,
		opened: s.opened?.filetime ?? null,
		closed: s.closed?.filetime ?? null,
		state: s.state,
		endedBy: s.endedBy,
		error: s.error,
		connectMs: s.connect?.ms ?? null,
		bytesSent: s.bytesSent,
		bytesReceived: s.bytesReceived,
		sends: s.sends,
		receives: s.receives,
		sendsPosted: s.sendsPosted,
		receivesPosted: s.receivesPosted,
		bytesIndicated: s.bytesIndicated,
		datagramsDropped: s.datagramsDropped,
		abortReason: s.abort?.reason ?? null,
		ioAfterClose: s.ioAfterClose,
		legacy: s.legacy,
		modern: s.modern,
	};
}

for (const families of ['modern', 'legacy', 'both'] as const) {
	describe(`lifecycles, ${families} events`, () => {
		const built = scenario(families);
		let t: Tracked;
		const load = async () => (t ??= await trackBytes(built.file.bytes));

		it('gives exactly the scripted sockets', async () => {
			const { tracked } = await load();
			const got = new Map(tracked.sockets.map((s) => [s.key, actual(s)]));
			expect([...got.keys()].sort()).toEqual(built.sockets.map((s) => s.key).sort());
			for (const want of built.sockets) {
				const have = got.get(want.key)!;
				const { connectMs, ...rest } = want;
				expect({ ...have, connectMs: null }, want.key).toEqual({ ...rest, connectMs: null });
				if (connectMs === null) expect(have.connectMs, want.key).toBeNull();
				else expect(have.connectMs, want.key).toBeCloseTo(connectMs, 6);
			}
		});

		it('gives exactly the scripted findings, linked to their events', async () => {
			const { tracked, records } = await load();
			const findings = findingsOf(tracked);
			const ids = (list: { kind: string; subject: string }[]) =>
				list.map((f) => `${f.kind}:${f.subject}`).sort();
			expect(ids(findings)).toEqual(ids(built.findings));
			const keys = new Map(tracked.sockets.map((s) => [s.key, s]));
			for (const want of built.findings) {
				const f = findings.find((x) => x.kind === want.kind && x.subject === want.subject)!;
				expect(f.count, f.id).toBe(want.count);
				expect([...f.sockets].sort(), f.id).toEqual(want.sockets);
				for (const a of want.adds) expect(f.events, f.id).toContain(built.indexOf(a));
				// Every linked event names one of the finding's sockets (busy polls name a process).
				const endpoints = new Set(f.sockets.map((k) => keys.get(k)!.endpoint));
				for (const e of f.events) {
					const r = records[e]!;
					expect(r.provider, f.id).toBe('Microsoft-Windows-Winsock-AFD');
					if (f.kind !== 'busy-poll')
						expect(
							endpointsOf(r).some((p) => endpoints.has(p)),
							`${f.id} → ${e}`,
						).toBe(true);
				}
			}
		});

		it("every socket's event indexes are the AFD events that name it", async () => {
			const { tracked, records } = await load();
			for (const s of tracked.sockets) {
				expect(s.events.length).toBe(s.eventCount);
				for (const i of s.events) expect(endpointsOf(records[i]!)).toContain(s.endpoint);
			}
			const named = records.filter((r) => endpointsOf(r).length > 0).length;
			const linked = new Set(tracked.sockets.flatMap((s) => [...s.events])).size;
			expect(linked).toBe(named);
		});

		it('reads the same through RecordJson objects as through the decoder tables', async () => {
			const { tracked, viaJson } = await load();
			expect(viaJson).toEqual(tracked);
		});
	});
}

describe('both families for the same operations', () => {
	it('count each operation once: the same numbers as either family alone', async () => {
		const track = async (f: 'modern' | 'legacy' | 'both') =>
			(await trackBytes(scenario(f).file.bytes)).tracked;
		const [modern, legacy, both] = await Promise.all([
			track('modern'),
			track('legacy'),
			track('both'),
		]);
		const counts = (t: typeof both) =>
			t.sockets.map((s) => [
				s.key,
				s.bytesSent,
				s.bytesReceived,
				s.sends,
				s.receives,
				s.datagramsDropped,
				s.accepts,
			]);
		expect(counts(both)).toEqual(counts(modern));
		expect(counts(both)).toEqual(counts(legacy));
		expect(both.sockets.every((s) => s.legacy && s.modern)).toBe(true);
	});
});
