// The bundled sample (public/sample.etl) against its writer's ground truth
// (tests/fixtures/sample/sample.truth.json): sockets, conversations, findings and their links.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { conversationsOf } from '../../web/src/sockets/conversations.ts';
import { findingsOf } from '../../web/src/sockets/findings.ts';
import type { SocketSummary } from '../../web/src/sockets/socket.ts';
import { storyOf } from '../../web/src/sockets/story.ts';
import type { SampleTruth, SocketTruth } from '../builders/sample.ts';
import { endpointsOf, trackBytes, type Tracked } from './track.ts';

const ROOT = new URL('../../', import.meta.url);
const truth = JSON.parse(
	readFileSync(new URL('tests/fixtures/sample/sample.truth.json', ROOT), 'utf8'),
) as SampleTruth;

/**
 * The truth's outcome/state in the tracker's terms. The truth keeps the lifecycle state
 * (open/listening/closed) and the outcome apart; the tracker folds them into one final state, in
 * which a failed connect is 'failed' even after closesocket and a listener is open at the end.
 */
function expectedState(t: SocketTruth): SocketSummary['state'] {
	if (t.outcome === 'refused' || t.outcome === 'timeout') return 'failed';
	if (t.outcome === 'aborted') return 'aborted';
	return t.state === 'closed' ? 'closed' : 'open at end of trace';
}

function expectedEndedBy(t: SocketTruth): SocketSummary['endedBy'] {
	if (t.state !== 'closed') return null;
	if (t.outcome === 'aborted') return t.abortReason === 4 ? 'transport-abort' : 'afd-abort';
	if (t.outcome === 'remote-disconnect') return 'peer-disconnect';
	return 'application';
}

describe('bundled sample: sockets against the ground truth', () => {
	let t: Tracked;
	const byEndpoint = () => new Map(t.tracked.sockets.map((s) => [s.endpoint, s]));
	beforeAll(async () => {
		t = await trackBytes(new Uint8Array(readFileSync(new URL('public/sample.etl', ROOT))));
	});

	it('finds every socket of the truth and no other', () => {
		expect(t.tracked.sockets.map((s) => s.endpoint).sort()).toEqual(
			truth.sockets.map((s) => s.endpoint).sort(),
		);
		expect(t.tracked.sockets.every((s) => s.generation === 0)).toBe(true);
	});

	for (const want of truth.sockets) {
		it(`${want.process} ${want.endpoint}: ${want.remote ?? want.local} (${want.outcome})`, () => {
			const s = byEndpoint().get(want.endpoint)!;
			// Without a create the trace tells its type (by its datagram events), not its family
			// or protocol.
			const created = want.origin !== 'before-trace';
			expect({
				pid: s.pid,
				pidSource: s.pidSource,
				peers: s.peers.map((p) => ({
					remote: p.remote,
					bytesSent: p.bytesSent,
					bytesReceived: p.bytesReceived,
				})),
				process: s.process,
				origin: s.origin,
				family: s.family,
				type: s.type,
				protocol: s.protocol,
				local: s.local,
				remote: s.remote,
				opened: s.opened?.filetime ?? null,
				closed: s.closed?.filetime ?? null,
				bytesSent: s.bytesSent,
				bytesReceived: s.bytesReceived,
				state: s.state,
				endedBy: s.endedBy,
				error: s.error,
				abortReason: s.abort?.reason ?? null,
				listening: s.listening,
				legacy: s.legacy && !s.modern,
				events: s.eventCount,
			}).toEqual({
				pid: want.pid,
				pidSource: want.pidSource,
				peers: want.peers,
				process: want.process,
				origin: want.origin,
				family: created ? want.family : null,
				type: want.type,
				protocol: created ? want.protocol : null,
				local: want.local,
				remote: want.remote,
				opened: want.opened,
				closed: want.closed,
				bytesSent: want.bytesSent,
				bytesReceived: want.bytesReceived,
				state: expectedState(want),
				endedBy: expectedEndedBy(want),
				error: want.error,
				abortReason: want.abortReason,
				listening: want.state === 'listening',
				legacy: want.legacy,
				events: want.events,
			});
		});
	}

	it('accepted sockets link to their listener, which counts them', () => {
		const listener = t.tracked.sockets.find((s) => s.listening)!;
		const accepted = t.tracked.sockets.filter((s) => s.origin === 'accepted');
		expect(accepted).toHaveLength(3);
		expect(accepted.every((s) => s.listener === listener.key)).toBe(true);
		expect(listener.accepts).toBe(3);
	});

	it('names processes from Kernel-Process ProcessStart, PIDs from the create events', () => {
		expect(t.tracked.processes.map((p) => [p.pid, p.name]).sort()).toEqual(
			truth.processes.map((p) => [p.pid, p.name]).sort(),
		);
		// Transport events are logged in PID 4, yet every socket belongs to its process.
		expect(t.tracked.sockets.some((s) => s.pid === 4)).toBe(false);
	});

	it('connect latency is connect enter → exit', () => {
		const s = byEndpoint().get('0xffffa50c1e2f5610')!;
		const [start, end] = [s.connect!.startIndex!, s.connect!.endIndex!];
		const ms = Number(BigInt(t.records[end]!.filetime) - BigInt(t.records[start]!.filetime)) / 1e4;
		expect(s.connect!.ms).toBeCloseTo(ms, 6);
		expect(t.records[start]!.fields.EnterExit).toBe(0);
		expect(t.records[end]!.fields.EnterExit).toBe(1);
	});

	it('findings: refused, timed out, reset by the transport, dropped, open at the end', () => {
		const f = findingsOf(t.tracked);
		expect(f.map((x) => [x.kind, x.subject, x.count])).toEqual([
			['connect-refused', 'curl.exe (PID 5200) → 10.0.0.5:8081', 1],
			['connect-timeout', 'curl.exe (PID 5200) → 203.0.113.9:443', 1],
			[
				'datagram-dropped',
				'chrome.exe (PID 4120) → 192.168.1.1:53 — Insufficient local buffer space',
				1,
			],
			[
				'transport-abort',
				'svchost.exe (PID 1337) → 10.0.0.42:50114 — Transport indicated abortive disconnect',
				1,
			],
			['open-at-end', 'chrome.exe (PID 4120)', 2],
			['open-at-end', 'svchost.exe (PID 1337)', 1],
		]);
	});

	it('a finding leads to its sockets and their exact events (two clicks)', () => {
		const keys = new Map(t.tracked.sockets.map((s) => [s.key, s]));
		for (const f of findingsOf(t.tracked)) {
			expect(f.events.length).toBeGreaterThan(0);
			const sockets = f.sockets.map((k) => keys.get(k)!);
			for (const e of f.events) {
				const r = t.records[e]!;
				expect(sockets.some((s) => endpointsOf(r).includes(s.endpoint))).toBe(true);
				expect(sockets.some((s) => s.events.includes(e))).toBe(true);
			}
		}
		const refused = findingsOf(t.tracked).find((f) => f.kind === 'connect-refused')!;
		const exit = t.records[refused.events.at(-1)!]!;
		expect(exit.name).toBe('AfdConnectWithAddress');
		expect(exit.fields.StatusName).toBe('STATUS_CONNECTION_REFUSED');
	});

	it('conversations by process and peer, with latency percentiles', () => {
		const c = conversationsOf(t.tracked.sockets);
		// A datagram socket is one conversation per remote.
		const remotes = truth.sockets.flatMap((s) =>
			s.peers.length
				? s.peers.map((p) => `${s.pid}|${p.remote}`)
				: s.remote
					? [`${s.pid}|${s.remote}`]
					: [],
		);
		expect(c.map((x) => x.key).sort()).toEqual([...new Set(remotes)].sort());
		const github = c.find((x) => x.remote === '140.82.112.25:443')!;
		const sock = byEndpoint().get('0xffffa50c1e2f6610')!;
		expect(github).toMatchObject({
			process: 'chrome.exe',
			protocol: 'TCP',
			direction: 'outbound',
			connections: 1,
			connected: 1,
			failed: 0,
			bytesSent: 22013,
			bytesReceived: 373606,
		});
		expect(github.latency!.p50).toBe(sock.connect!.ms);
		expect(github.histogram.reduce((a, b) => a + b, 0)).toBe(1);
		const refused = c.find((x) => x.remote === '10.0.0.5:8081')!;
		expect(refused).toMatchObject({ failed: 1, connected: 0, latency: null });
		const dns = truth.sockets.find((s) => s.peers.length === 2)!;
		for (const p of dns.peers)
			expect(c.find((x) => x.key === `${dns.pid}|${p.remote}`)).toMatchObject({
				bytesSent: p.bytesSent,
				bytesReceived: p.bytesReceived,
			});
		const inbound = c.find((x) => x.remote === '10.0.0.42:50114')!;
		expect(inbound).toMatchObject({ direction: 'inbound', aborted: 1, process: 'svchost.exe' });
	});

	it('tells each socket its story', () => {
		const story = (e: string) => storyOf(byEndpoint().get(e)!);
		expect(story('0xffffa50c1e2f6610')).toMatch(
			/^chrome\.exe \(PID 4120\) connected to github\.com \(140\.82\.112\.25:443\) in 90 ms, sent 21\.5 KiB, received 365 KiB, closed by the application after 3\.03 s$/,
		);
		expect(story('0xffffa50c1e2f6e10')).toMatch(
			/^curl\.exe \(PID 5200\) tried to connect to 10\.0\.0\.5:8081: refused \(STATUS_CONNECTION_REFUSED\) after 1\.03 s, TCP connect failed: refused \(the peer sent a reset\), SYN retransmitted 2 times/,
		);
		expect(storyOf(t.tracked.sockets.find((s) => s.remote === '203.0.113.9:443')!)).toContain(
			'TCP connect failed: timed out, SYN retransmitted 2 times before the timeout',
		);
		expect(story('0xffffa50c1e2f4010')).toBe(
			'svchost.exe (PID 1337) listened on 0.0.0.0:8080 and accepted 3 connections, still open at the end of the trace',
		);
		const dns = truth.sockets.find((s) => s.origin === 'before-trace')!;
		const [a, b] = dns.peers;
		expect(story(dns.endpoint)).toMatch(
			new RegExp(
				`^svchost\\.exe \\(PID 1337\\) exchanged datagrams with 2 remotes \\(a UDP socket opened before the trace began\\): ${a!.remote.replace(/\./g, '\\.')} \\(sent ${a!.bytesSent} bytes, received ${a!.bytesReceived} bytes\\) and ${b!.remote.replace(/\./g, '\\.')} \\(sent ${b!.bytesSent} bytes`,
			),
		);
		expect(story('0xffffa50c1e2f46a0')).toMatch(
			/accepted a connection from 10\.0\.0\.42:50114 on 0\.0\.0\.0:8080, .*reset by the transport \(Transport indicated abortive disconnect\)/,
		);
	});

	it('names remote addresses by the DNS answers chrome got before connecting', () => {
		const byRemote = new Map(t.tracked.sockets.map((s) => [s.remote, s]));
		const bing = byRemote.get('13.107.42.14:443')!;
		expect(bing.remoteName).toBe('www.bing.com');
		expect(bing.remoteNames).toEqual([
			'www.bing.com',
			'www-www.bing.com.trafficmanager.net',
			'www.bing.com.edgekey.net',
		]);
		expect(byRemote.get('[2a04:4e42::645]:443')!.remoteName).toBe('www.reddit.com');
		// curl used IP literals: getaddrinfo gave no name.
		expect(byRemote.get('10.0.0.5:8081')!.remoteName).toBeNull();
		// The rundown names chrome's PID for its connection still open.
		expect(bing.tcp).toMatchObject({ result: 'connected', pid: 4120 });
	});

	it('reads the same through RecordJson objects', () => {
		expect(t.viaJson).toEqual(t.tracked);
	});
});
