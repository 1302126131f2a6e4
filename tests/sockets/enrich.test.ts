// Sockets joined to what DNS-Client, NameResolution and TCPIP logged: a trace written with the
// test writer, its expected names and TCP outcomes worked out here from the script itself.
import { describe, expect, it } from 'vitest';
import { findingsOf } from '../../web/src/sockets/findings.ts';
import { enrichSocket, NetCollector } from '../../web/src/sockets/enrich.ts';
import { storyOf } from '../../web/src/sockets/story.ts';
import { Lifecycles, STATUS_IO_TIMEOUT } from '../builders/lifecycles.ts';
import {
	addDnsLookup,
	addGaiResult,
	addTcpConnect,
	addTcpRundown,
	type DnsItem,
	type TcpScript,
} from '../builders/net-payloads.ts';
import { trackBytes } from './track.ts';
import { pidSourceText } from '../../web/src/sockets/story.ts';

/** A lookup of the script: when (ms), the name, the answer. */
interface Lookup {
	ms: number;
	name: string;
	items: DnsItem[];
	status?: number;
	gai?: boolean;
}
/** A socket of the script: when it connects, from where to where, and what TCP/IP says. */
interface Conn {
	ms: number;
	local: string;
	remote: string;
	tcp: TcpScript | null;
	afdStatus?: number;
}

const LOOKUPS: Lookup[] = [
	{
		ms: 40,
		name: 'www.example.com',
		items: [{ cname: 'www.example.com.edge.net' }, { address: '198.51.100.7' }],
	},
	{ ms: 45, name: 'api.example.com', items: [{ address: '198.51.100.20' }] },
	// Answered again later with another name: the socket at 100 ms keeps www.example.com.
	{ ms: 300, name: 'static.example.com', items: [{ address: '198.51.100.7' }] },
	{ ms: 50, name: 'down.example.net', items: [{ address: '203.0.113.9' }] },
	{ ms: 55, name: 'nxdomain.example', items: [{ address: '203.0.113.77' }], status: 9003 },
	{ ms: 60, name: 'v6.example.org', items: [{ address: '2001:db8::44' }], gai: true },
];
const CONNS: Conn[] = [
	{ ms: 100, local: '10.0.0.5:51000', remote: '198.51.100.7:443', tcp: { outcome: 'connected' } },
	// Connected before any lookup of its address: no name.
	{ ms: 20, local: '10.0.0.5:51001', remote: '198.51.100.20:443', tcp: null },
	{
		ms: 120,
		local: '10.0.0.5:51002',
		remote: '203.0.113.9:8443',
		tcp: { outcome: 'timeout', synRetransmits: 3 },
		afdStatus: STATUS_IO_TIMEOUT,
	},
	{
		ms: 140,
		local: '10.0.0.5:51003',
		remote: '203.0.113.77:80',
		tcp: { outcome: 1021, status: 0xc000023c },
		afdStatus: 0xc000023c,
	},
	{ ms: 160, local: '10.0.0.5:51004', remote: '[2001:db8::44]:443', tcp: { outcome: 'connected' } },
	// Connected, but only after two SYN retransmissions.
	{
		ms: 180,
		local: '10.0.0.5:51005',
		remote: '198.51.100.20:8443',
		tcp: { outcome: 'connected', synRetransmits: 2 },
	},
];

/** The name a socket should show: the latest successful lookup holding its address before it. */
function expectedName(c: Conn): string | null {
	const address = c.remote.replace(/^\[/, '').replace(/\]?:\d+$/, '');
	const held = LOOKUPS.filter(
		(l) => !l.status && l.ms < c.ms && l.items.some((x) => 'address' in x && x.address === address),
	).sort((a, b) => a.ms - b.ms);
	return held.at(-1)?.name ?? null;
}

function build() {
	const lc = new Lifecycles({ families: 'modern' });
	const app = lc.process({ pid: 4120, name: 'agent.exe', eprocess: 0xffffa50c12345080n });
	for (const l of LOOKUPS) {
		// DNS-Client answers are logged by the client process or by dnscache: header PID 2210.
		const at = { time: lc.at(l.ms), pid: 2210 };
		if (l.gai)
			addGaiResult(
				lc.w,
				at,
				l.name,
				l.items.flatMap((x) => ('address' in x ? [x.address] : [])),
			);
		else addDnsLookup(lc.w, at, l.name, l.items, { status: l.status ?? 0 });
	}
	for (const c of CONNS) {
		const s = lc.socket(app, { at: c.ms });
		s.bind(c.local).connect(c.remote, { ms: 30, status: c.afdStatus ?? 0 });
		// TCPIP logs from the System process (header PID 4): never taken as the owner.
		if (c.tcp) addTcpConnect(lc.w, { time: lc.at(c.ms + 1), pid: 4 }, c.local, c.remote, c.tcp);
	}
	// A connection that existed before the trace, described by a rundown only.
	addTcpRundown(lc.w, { time: lc.at(1), pid: 912 }, '10.0.0.5:50999', '198.51.100.7:443', 4120);
	return lc.finish();
}

describe('sockets named by DNS and told their TCP outcome', async () => {
	const built = build();
	const { tracked, viaJson, records } = await trackBytes(built.file.bytes);
	const byRemote = new Map(tracked.sockets.map((s) => [s.remote, s]));

	it('the same through the decoder tables and through RecordJson objects', () => {
		expect(viaJson).toEqual(tracked);
	});
	it('each socket gets the name its application looked up before connecting', () => {
		for (const c of CONNS) {
			const s = byRemote.get(c.remote)!;
			expect(s.remoteName, c.remote).toBe(expectedName(c));
		}
		const www = byRemote.get('198.51.100.7:443')!;
		expect(www.remoteNames).toEqual([
			'www.example.com',
			'www.example.com.edge.net',
			'static.example.com',
		]);
		// A later lookup is still listed among the names of an unnamed socket.
		expect(byRemote.get('198.51.100.20:443')!.remoteNames).toEqual(['api.example.com']);
	});
	it('the TCP outcome joins by local port and remote', () => {
		for (const c of CONNS) {
			const s = byRemote.get(c.remote)!;
			if (!c.tcp) expect(s.tcp ?? null).toBeNull();
			else
				expect(s.tcp?.result, c.remote).toBe(
					c.tcp.outcome === 'connected' ? 'connected' : 'failed',
				);
		}
		const slow = byRemote.get('203.0.113.9:8443')!;
		expect(slow.tcp!.synRetransmits).toBe(3);
		expect(slow.tcp!.pid).toBeNull();
	});
	it('stories and findings name the peer and the TCP outcome', () => {
		const slow = byRemote.get('203.0.113.9:8443')!;
		expect(storyOf(slow)).toContain('down.example.net (203.0.113.9:8443)');
		expect(storyOf(slow)).toContain('SYN retransmitted 3 times before the timeout');
		expect(storyOf(byRemote.get('203.0.113.77:80')!)).toContain('TCP connect failed: no route');
		const findings = findingsOf(tracked);
		// The AFD side shows these failures already: their findings carry what TCP/IP logged.
		expect(findings.some((f) => f.kind === 'tcp-connect-failed')).toBe(false);
		const timeout = findings.find((f) => f.kind === 'connect-timeout')!;
		expect(timeout.subject).toBe('agent.exe (PID 4120) → down.example.net (203.0.113.9:8443)');
		expect(timeout.explanation).toContain(
			'TCP/IP logged: TCP connect failed: timed out, SYN retransmitted 3 times before the timeout.',
		);
		const noRoute = findings.find((f) => f.kind === 'connect-failed')!;
		expect(noRoute.explanation).toContain('TCP connect failed: no route');
		// A connect that succeeded after SYN retransmissions is a finding of its own.
		const syn = findings.filter((f) => f.kind === 'syn-retransmits');
		const slowOk = byRemote.get('198.51.100.20:8443')!;
		expect(syn.map((f) => [f.subject, f.count, f.sockets])).toEqual([
			['agent.exe (PID 4120) → api.example.com (198.51.100.20:8443)', 2, [slowOk.key]],
		]);
		// Its events are the socket's own, so a finding leads to events that name the socket.
		for (const e of syn[0]!.events) expect(slowOk.events).toContain(e);
	});
	it('a socket whose own events named no PID takes the one TCP/IP names, when it names one', () => {
		const net = new NetCollector();
		const origin = BigInt(tracked.origin);
		records.forEach((r, i) => net.record(r, i, origin));
		// As a socket from before the trace would read: no create, no event with a trusted PID.
		const unknown = (remote: string) => ({
			...byRemote.get(remote)!,
			pid: null,
			pidSource: null,
			process: 'unknown',
		});
		// The rundown of 10.0.0.5:50999 → 198.51.100.7:443 names PID 4120 (its header PID is 912).
		const existing = enrichSocket({ ...unknown('198.51.100.7:443'), local: '10.0.0.5:50999' }, net);
		expect(existing).toMatchObject({ pid: 4120, pidSource: 'tcpip', process: 'PID 4120' });
		expect(pidSourceText(existing)).toContain('TCP/IP');
		const named = enrichSocket(
			{ ...unknown('198.51.100.7:443'), local: '10.0.0.5:50999' },
			net,
			(pid) => (pid === 4120 ? 'agent.exe' : null),
		);
		expect(named.process).toBe('agent.exe');
		// TCP/IP logged this connect from the System process without a ProcessId: no PID.
		expect(enrichSocket(unknown('203.0.113.9:8443'), net)).toMatchObject({ pid: null });
		// A socket that knows its PID keeps it and its source.
		const own = byRemote.get('198.51.100.7:443')!;
		expect(enrichSocket(own, net)).toMatchObject({ pid: own.pid, pidSource: own.pidSource });
	});
});
