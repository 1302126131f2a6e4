// A trace's sockets summed up into pairs (process image, remote name or address, protocol), one
// socket at a time, so a reader that streams the sockets (the CLI) holds only the pairs. The
// sockets are the same summaries, names and conversation parts the Sockets panel shows, and the
// names' lookups are the DNS panel's (dns-report.ts).
import type { DnsReport } from '../dns/dns-report.ts';
import { dnsFailed } from '../dns/dns-status.ts';
import { partsOf, percentile, type Part } from '../sockets/conversations.ts';
import { protocolLabel } from '../sockets/format.ts';
import { addressOfEndpoint } from '../net/ip.ts';
import type { SocketSummary } from '../sockets/socket.ts';
import type { TrackedStream } from '../sockets/track-trace.ts';
import type { TrackedTrace } from '../sockets/tracker.ts';
import {
	DNS_OK,
	LATENCY_SAMPLE_CAP,
	REMOTE_CAP,
	SOCKET_KEY_CAP,
	type PairFigures,
	type PairKind,
	type PairSummary,
	type TraceSummary,
} from './summary.ts';

const SOCK_DGRAM = 2;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface Acc {
	key: string;
	process: string;
	protocol: string;
	kind: PairKind;
	remoteName: string | null;
	remote: string;
	port: string | null;
	f: Mutable<Omit<PairFigures, 'failures' | 'dropReasons' | 'dns' | 'latency' | 'latencySample'>>;
	failures: Map<string, number>;
	dropReasons: Map<string, number>;
	latencies: number[];
	sockets: string[];
	remotes: Set<string>;
	remoteNames: Set<string>;
}

/**
 * Each name's lookups by status, as the DNS panel counts them (its most direct source): `ok`,
 * else the status's name (DNS_ERROR_RCODE_NAME_ERROR, WSAHOST_NOT_FOUND, …). Keyed lower case.
 */
export function dnsFigures(report: DnsReport | null): Record<string, Record<string, number>> {
	const dns: Record<string, Record<string, number>> = {};
	for (const row of report?.names ?? []) {
		const statuses: Record<string, number> = {};
		for (const s of row.statuses) {
			// A pending query is no answer yet: neither an answer nor a failure, as the DNS panel counts.
			if (s.status !== 0 && !dnsFailed(s.status)) continue;
			const k = s.status === 0 ? DNS_OK : s.name;
			statuses[k] = (statuses[k] ?? 0) + s.count;
		}
		dns[row.key] = statuses;
	}
	return dns;
}

/** The port of `a.b.c.d:port` / `[v6]:port`, or null. */
function portOf(endpoint: string | null): string | null {
	const m = endpoint === null ? null : /:(\d+)$/.exec(endpoint);
	return m ? m[1]! : null;
}

/** Why a failed socket failed, by the status name the tracker (or TCP/IP) gives. */
function failureOf(s: SocketSummary): string {
	return s.error ?? s.connect?.statusName ?? s.tcp?.statusName ?? 'unknown';
}

/** Where a pair's sockets went: the remote's name (else address) and port, or a listening port. */
function placeOf(
	s: SocketSummary,
	part: Part | null,
): { kind: PairKind; id: string; shown: string; name: string | null; port: string | null } {
	const inbound = s.listening || s.listener !== null || s.origin === 'accepted';
	if (inbound) {
		const port = portOf(s.local) ?? '?';
		return {
			kind: 'listening',
			id: `listen:${port}`,
			shown: `listening :${port}`,
			name: null,
			port,
		};
	}
	if (part === null)
		// i18n: data (the pair's key, as the CLI prints it; the page says compare.no-remote)
		return { kind: 'none', id: 'none', shown: 'no remote', name: null, port: null };
	const port = portOf(part.remote);
	const name = part.remoteName;
	if (name !== null) {
		const shown = port === null ? name : `${name}:${port}`;
		return { kind: 'remote', id: shown.toLowerCase(), shown, name, port };
	}
	const address = addressOfEndpoint(part.remote);
	const id = address === null ? part.remote : port === null ? address : `${address}:${port}`;
	return { kind: 'remote', id, shown: part.remote, name: null, port };
}

export class SummaryBuilder {
	readonly #pairs = new Map<string, Acc>();
	#sockets = 0;

	/** One socket, enriched (remote names, TCP outcome), as the sockets command writes it. */
	add(s: SocketSummary): void {
		this.#sockets++;
		const parts = s.listening ? [] : partsOf(s);
		const protocol = protocolLabel(s.type, s.protocol);
		// What belongs to the socket rather than to one remote goes with its own remote's part.
		const own = parts.findIndex((p) => p.remote === s.remote);
		const main = own >= 0 ? own : 0;
		const list = parts.length ? parts : [null];
		list.forEach((part, i) => {
			const acc = this.#acc(s, part, protocol);
			this.#count(acc, s, part, i === main ? null : i);
		});
	}

	#acc(s: SocketSummary, part: Part | null, protocol: string): Acc {
		const place = placeOf(s, part);
		const key = `${s.process.toLowerCase()}|${protocol.toLowerCase()}|${place.id}`;
		let acc = this.#pairs.get(key);
		if (!acc) {
			acc = {
				key,
				process: s.process,
				protocol,
				kind: place.kind,
				remoteName: place.name,
				remote: place.shown,
				port: place.port,
				f: {
					connections: 0,
					connected: 0,
					bytesSent: 0,
					bytesReceived: 0,
					closed: 0,
					aborted: 0,
					open: 0,
					datagramsSent: 0,
					datagramsReceived: 0,
					datagramsDropped: 0,
					resets: 0,
					synRetransmits: 0,
					dataRetransmits: 0,
					tcpSeen: false,
					listening: 0,
					sockets: [],
					remotes: [],
					remoteNames: [],
					firstTicks: Infinity,
					lastTicks: -Infinity,
				},
				failures: new Map(),
				dropReasons: new Map(),
				latencies: [],
				sockets: [],
				remotes: new Set(),
				remoteNames: new Set(),
			};
			this.#pairs.set(key, acc);
		}
		// The latest socket's name, as the conversations take it.
		if (place.name !== null) acc.remoteName = place.name;
		return acc;
	}

	/** `peer`: the index of a datagram peer that is not the socket's own remote. */
	#count(acc: Acc, s: SocketSummary, part: Part | null, peer: number | null): void {
		const f = acc.f;
		if (acc.sockets.length < SOCKET_KEY_CAP && !acc.sockets.includes(s.key))
			acc.sockets.push(s.key);
		f.firstTicks = Math.min(f.firstTicks, part?.firstTicks ?? s.firstEvent.ticks);
		f.lastTicks = Math.max(f.lastTicks, part?.lastTicks ?? s.lastEvent.ticks);
		if (part) {
			if (acc.remotes.size < REMOTE_CAP) acc.remotes.add(part.remote);
			f.bytesSent += part.bytesSent;
			f.bytesReceived += part.bytesReceived;
		} else if (!s.listening) {
			f.bytesSent += s.bytesSent;
			f.bytesReceived += s.bytesReceived;
		}
		const flow = s.peers.length ? s.peers.find((p) => p.remote === part?.remote) : undefined;
		if (flow) {
			f.datagramsSent += flow.datagramsSent;
			f.datagramsReceived += flow.datagramsReceived;
		} else if (s.type === SOCK_DGRAM && peer === null) {
			f.datagramsSent += s.sends;
			f.datagramsReceived += s.receives;
		}
		for (const n of s.remoteNames ?? [])
			if (acc.remoteNames.size < REMOTE_CAP) acc.remoteNames.add(n);
		if (s.listening) {
			f.listening++;
			return;
		}
		f.connections++;
		if (s.connect?.outcome === 'connected' || s.listener !== null || s.origin === 'accepted')
			f.connected++;
		if (s.state === 'failed') {
			const why = failureOf(s);
			acc.failures.set(why, (acc.failures.get(why) ?? 0) + 1);
		} else if (s.state === 'aborted') f.aborted++;
		// i18n: data (a socket state's identifier, as the CLI prints it; the page says it in its words)
		else if (s.state === 'open at end of trace') f.open++;
		else f.closed++;
		if (s.type !== SOCK_DGRAM && typeof s.connect?.ms === 'number')
			acc.latencies.push(s.connect.ms);
		// Drops and TCP/IP's word are the socket's, not one remote's: counted once.
		if (peer !== null) return;
		f.datagramsDropped += s.datagramsDropped;
		for (const r of s.dropReasons)
			acc.dropReasons.set(r.name, (acc.dropReasons.get(r.name) ?? 0) + r.count);
		if (s.tcp) {
			f.tcpSeen = true;
			f.synRetransmits += s.tcp.synRetransmits;
			f.dataRetransmits += s.tcp.dataRetransmits;
		}
		if (s.tcp?.ended === 'reset' || s.endedBy === 'transport-abort') f.resets++;
	}

	/** The summary; `report`: the trace's DNS lookups (null when it logs none). */
	finish(name: string, report: DnsReport | null, endTicks: number): TraceSummary {
		const dns = dnsFigures(report);
		const pairs: PairSummary[] = [...this.#pairs.values()]
			.map((a) => {
				const sorted = a.latencies.sort((x, y) => x - y);
				const f: PairFigures = {
					...a.f,
					failures: Object.fromEntries(a.failures),
					dropReasons: Object.fromEntries(a.dropReasons),
					dns: a.remoteName === null ? {} : (dns[a.remoteName.toLowerCase()] ?? {}),
					latency: sorted.length
						? {
								count: sorted.length,
								min: sorted[0]!,
								max: sorted.at(-1)!,
								p50: percentile(sorted, 50),
								p90: percentile(sorted, 90),
							}
						: null,
					latencySample: spread(sorted, LATENCY_SAMPLE_CAP),
					sockets: a.sockets,
					remotes: [...a.remotes],
					remoteNames: [...a.remoteNames],
				};
				return {
					key: a.key,
					process: a.process,
					protocol: a.protocol,
					kind: a.kind,
					remoteName: a.remoteName,
					remote: a.remote,
					figures: f,
				};
			})
			.sort((x, y) => x.figures.firstTicks - y.figures.firstTicks);
		return { name, sockets: this.#sockets, pairs, dns, endTicks };
	}
}

/** At most `cap` values evenly spread over an ascending list (its shape kept, its size bounded). */
export function spread(sorted: readonly number[], cap: number): number[] {
	if (sorted.length <= cap) return [...sorted];
	const out: number[] = [];
	for (let k = 0; k < cap; k++)
		out.push(sorted[Math.floor((k * (sorted.length - 1)) / (cap - 1))]!);
	return out;
}

/** A whole trace's sockets summed up (the page's stored sockets, or a test's). */
export function summarize(
	name: string,
	sockets: Iterable<SocketSummary>,
	dns: DnsReport | null,
	endTicks: number,
): TraceSummary {
	const b = new SummaryBuilder();
	for (const s of sockets) b.add(s);
	return b.finish(name, dns, endTicks);
}

/** A trace read by trackTraceStream, summed up as its sockets stream by (bounded memory). */
export function summarizeStream(name: string, tracked: TrackedStream): TraceSummary {
	return summarize(name, tracked.sockets, tracked.dns ?? null, tracked.endTicks);
}

/** A stored trace's sockets (the page's, from the library), summed up. */
export function summarizeTracked(name: string, tracked: TrackedTrace): TraceSummary {
	return summarize(name, tracked.sockets, tracked.dns ?? null, tracked.endTicks);
}
