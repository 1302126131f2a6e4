// Two runs of one workload written with the Windows-like builder: an application talking to a few
// named hosts, an unnamed one, a UDP peer, and a service accepting connections. Each run varies by
// chance (seeded): connections more or less, timings, sizes, a stray host with a connection or
// two, now and then one failed connect or one socket left open. A change injected into one host of
// the problem run is what a comparison must name, and nothing else.
import {
	Lifecycles,
	SOCK_DGRAM,
	STATUS_CONNECTION_REFUSED,
	STATUS_IO_TIMEOUT,
} from '../builders/lifecycles.ts';
import type { Proc, SocketScript } from '../builders/lifecycles.ts';
import { addDnsLookup, netEvent, tcpValues } from '../builders/net-payloads.ts';
import { Prng } from '../builders/prng.ts';
import { STATUS_NETWORK_UNREACHABLE } from '../builders/afd-vocabulary.ts';

export { STATUS_NETWORK_UNREACHABLE };
/** Connects a refused application makes (each retried after twice the wait). */
export const REFUSED_RETRIES = 6;
/** DNS_ERROR_RCODE_NAME_ERROR: the name does not exist. */
export const DNS_NAME_ERROR = 9003;

export type Injected =
	| 'refused'
	| 'timeout'
	| 'failed'
	| 'latency'
	| 'leak'
	| 'dns-failure'
	| 'drops'
	| 'resets'
	| 'new'
	| 'gone'
	| 'bytes';

interface Host {
	/** null: reached by address only. */
	readonly name: string | null;
	readonly address: string;
	readonly port: number;
	/** Connections per run (± chance). */
	readonly connections: number;
	readonly latencyMs: number;
	readonly receive: number;
}

const HOSTS: readonly Host[] = [
	{
		name: 'api.contoso.com',
		address: '10.1.0.10',
		port: 443,
		connections: 12,
		latencyMs: 20,
		receive: 6000,
	},
	{
		name: 'cdn.contoso.net',
		address: '10.1.0.20',
		port: 443,
		connections: 18,
		latencyMs: 8,
		receive: 40_000,
	},
	{
		name: 'login.contoso.com',
		address: '10.1.0.30',
		port: 443,
		connections: 9,
		latencyMs: 35,
		receive: 3000,
	},
	{ name: null, address: '192.168.5.5', port: 8080, connections: 6, latencyMs: 2, receive: 900 },
];
const UDP_PEER = { name: 'media.contoso.com', address: '10.1.0.40', port: 3478 };
const NEW_HOST = { name: 'update.fabrikam.com', address: '10.3.0.7', port: 443 };
const GONE_HOST = { name: 'legacy.contoso.com', address: '10.1.0.90', port: 443 };
const SERVER_PORT = 8443;

/** Which pair a change is injected into (as the comparison names pairs). */
export interface Target {
	readonly process: string;
	readonly protocol: string;
	readonly remote: string;
}

/** The pair each injected change lands on. */
export function targetOf(kind: Injected): Target {
	const tcp = (remote: string) => ({ process: 'app.exe', protocol: 'TCP', remote });
	if (kind === 'drops')
		return { process: 'app.exe', protocol: 'UDP', remote: `${UDP_PEER.name}:${UDP_PEER.port}` };
	if (kind === 'new') return tcp(`${NEW_HOST.name}:${NEW_HOST.port}`);
	if (kind === 'gone') return tcp(`${GONE_HOST.name}:${GONE_HOST.port}`);
	if (kind === 'leak') return tcp(`${HOSTS[1]!.name}:${HOSTS[1]!.port}`);
	if (kind === 'bytes') return tcp(`${HOSTS[2]!.name}:${HOSTS[2]!.port}`);
	return tcp(`${HOSTS[0]!.name}:${HOSTS[0]!.port}`);
}

/** A factor near 1: exp of a normal-ish draw with spread `sigma`. */
function jitter(r: Prng, sigma: number): number {
	const n = r.next() + r.next() + r.next() + r.next() - 2;
	return Math.exp(n * sigma * Math.sqrt(3));
}

class Run {
	readonly lc = new Lifecycles({ families: 'modern' });
	readonly r: Prng;
	readonly app: Proc;
	readonly svc: Proc;
	#port = 50_000;

	constructor(seed: number) {
		this.r = new Prng(seed);
		this.app = this.lc.process({
			pid: 3000 + (seed % 97),
			name: 'app.exe',
			eprocess: 0xffffa50c44440080n,
		});
		this.svc = this.lc.process({
			pid: 5000 + (seed % 89),
			name: 'svc.exe',
			eprocess: 0xffffa50c55550080n,
		});
	}

	lookup(ms: number, name: string, address: string, status = 0): void {
		addDnsLookup(
			this.lc.w,
			{ time: this.lc.at(ms), pid: this.app.pid },
			name,
			status ? [] : [{ address }],
			{
				status,
			},
		);
	}

	/** One TCP connection of the app; returns the socket for what follows the connect. */
	tcp(
		at: number,
		remote: string,
		o: { ms: number; status?: number },
	): { s: SocketScript; local: string } {
		const local = `10.0.0.5:${this.#port++}`;
		const s = this.lc.socket(this.app, { at }).bind(local).connect(remote, o);
		return { s, local };
	}

	/** A TCPIP reset of the connection, logged as Windows does (1184), and AFD's transport abort. */
	reset(s: SocketScript, local: string, remote: string): void {
		this.lc.w.addEvent(
			netEvent('tcpip', {
				cpu: 1,
				time: s.step(0.2),
				pid: 4,
				tid: 8,
				id: 1184,
				values: tcpValues(1184, local, remote, { NewState: 0, RexmitCount: 0 }),
			}),
		);
		s.abort('transport', 4);
	}
}

/** One run of the workload; `inject` changes it the way the problem machine does. */
export function run(seed: number, inject: Injected | null = null): Uint8Array {
	const w = new Run(seed);
	const r = w.r;
	HOSTS.forEach((h, i) => {
		const remote = `${h.address}:${h.port}`;
		const target = inject !== null && targetOf(inject).remote === `${h.name}:${h.port}`;
		const start = 20 + i * 7;
		if (h.name) {
			if (target && inject === 'dns-failure') {
				// The name no longer resolves: the lookup is retried, and nothing connects.
				for (let k = 0; k < 4; k++) w.lookup(start + k * 300, h.name, h.address, DNS_NAME_ERROR);
				return;
			}
			w.lookup(start - 5, h.name, h.address);
		}
		const n = Math.max(1, h.connections + r.int(-2, 2));
		if (target && inject === 'refused') {
			// Refused every time, retried with back-off.
			for (let k = 0, t = start; k < REFUSED_RETRIES; k++, t += 100 * 2 ** k)
				w.tcp(t, remote, { ms: 1 + r.next(), status: STATUS_CONNECTION_REFUSED }).s.close();
			return;
		}
		for (let k = 0; k < n; k++) {
			const at = start + k * 40 + r.int(0, 20);
			const slow = target && inject === 'latency' ? 10 : 1;
			if (target && (inject === 'timeout' || inject === 'failed') && k < 5) {
				const status = inject === 'timeout' ? STATUS_IO_TIMEOUT : STATUS_NETWORK_UNREACHABLE;
				w.tcp(at, remote, { ms: inject === 'timeout' ? 2000 : 3, status }).s.close();
				continue;
			}
			// By chance, now and then, one connect times out.
			if (r.chance(0.03)) {
				w.tcp(at, remote, { ms: 2000, status: STATUS_IO_TIMEOUT }).s.close();
				continue;
			}
			const { s, local } = w.tcp(at, remote, { ms: h.latencyMs * slow * jitter(r, 0.35) });
			const more = target && inject === 'bytes' ? 20 : 1;
			s.send(Math.round(400 * jitter(r, 0.3))).recv(Math.round(h.receive * more * jitter(r, 0.3)));
			if (target && inject === 'resets') w.reset(s, local, remote);
			else if (target && inject === 'leak') continue;
			// By chance, one socket in a while is still open when the trace stops.
			else if (r.chance(0.04)) continue;
			else s.close();
		}
	});
	// A stray host: a page load more or less.
	if (r.chance(0.5)) {
		const name = `ads${r.int(1, 9)}.example.net`;
		w.lookup(900, name, '10.9.9.9');
		for (let k = 0; k < r.int(1, 2); k++)
			w.tcp(905 + k * 10, '10.9.9.9:443', { ms: 15 * jitter(r, 0.3) })
				.s.send(300)
				.recv(700)
				.close();
	}
	const extra = (h: { name: string; address: string; port: number }, at: number) => {
		w.lookup(at - 5, h.name, h.address);
		for (let k = 0; k < 6 + r.int(0, 2); k++)
			w.tcp(at + k * 30, `${h.address}:${h.port}`, { ms: 25 * jitter(r, 0.3) })
				.s.send(500)
				.recv(Math.round(2000 * jitter(r, 0.3)))
				.close();
	};
	if (inject === 'new') extra(NEW_HOST, 1000);
	if (inject !== 'gone') extra(GONE_HOST, 1000);
	// UDP: one socket exchanging datagrams with a media relay.
	w.lookup(30, UDP_PEER.name, UDP_PEER.address);
	const peer = `${UDP_PEER.address}:${UDP_PEER.port}`;
	const u = w.lc
		.socket(w.app, { at: 40, type: SOCK_DGRAM })
		.bind(`0.0.0.0:${w.r.int(52000, 52999)}`);
	const datagrams = 30 + r.int(-5, 5);
	for (let k = 0; k < datagrams; k++) {
		u.sendto(peer, Math.round(160 * jitter(r, 0.2))).recvfrom(
			peer,
			Math.round(160 * jitter(r, 0.2)),
		);
		if (inject === 'drops' && k % 2 === 0) u.drop(peer, 160, 2);
	}
	// By chance, a datagram or two dropped.
	for (let k = 0; k < r.int(0, 2); k++) u.drop(peer, 160, 2);
	u.close();
	// The service: a listening socket accepting connections from clients.
	const srv = w.lc.socket(w.svc, { at: 5 }).bind(`0.0.0.0:${SERVER_PORT}`).listen();
	for (let k = 0; k < 5 + r.int(-1, 1); k++) {
		srv.wait(30 * jitter(r, 0.3));
		srv
			.accept(`10.2.0.${r.int(2, 200)}:${r.int(49152, 65000)}`)
			.recv(300)
			.send(Math.round(1500 * jitter(r, 0.3)))
			.close();
	}
	srv.close();
	return w.lc.finish().file.bytes;
}
