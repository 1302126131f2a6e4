// Conversations: the sockets of one process with one remote address:port, with their connects,
// failures, bytes each way, and connect latency (percentiles and a histogram). A datagram socket
// that exchanged datagrams with several remotes (a DNS client asking two servers) takes part in one
// conversation per remote, with that remote's bytes.
import { protocolLabel } from './format.ts';
import type { SocketSummary } from './socket.ts';

const SOCK_DGRAM = 2;

/** Upper bounds (ms, exclusive) of the latency histogram's buckets; the last is open-ended. */
export const LATENCY_BUCKETS_MS: readonly number[] = [
	1,
	2,
	5,
	10,
	20,
	50,
	100,
	200,
	500,
	1000,
	2000,
	5000,
	Infinity,
];

export interface Latency {
	/** Successful connects measured (stream sockets only). */
	readonly count: number;
	readonly min: number;
	readonly max: number;
	/** Nearest-rank percentiles, in milliseconds. */
	readonly p50: number;
	readonly p90: number;
	readonly p99: number;
}

export interface Conversation {
	/** `pid|remote` (or `eprocess|remote` when the PID is unknown). */
	readonly key: string;
	readonly pid: number | null;
	readonly process: string;
	readonly remote: string;
	/** The name the process looked up for the remote (its latest socket's), when known. */
	readonly remoteName: string | null;
	/** 'TCP', 'UDP', … of its sockets (joined with '+' when they differ). */
	readonly protocol: string;
	/** Whether its sockets connected out, were accepted in, or both. */
	readonly direction: 'outbound' | 'inbound' | 'both';
	/** Socket keys, in order of their first event. */
	readonly sockets: readonly string[];
	readonly connections: number;
	/** Sockets whose connect (or accept) succeeded, failed, were aborted, are still open. */
	readonly connected: number;
	readonly failed: number;
	readonly aborted: number;
	readonly open: number;
	readonly bytesSent: number;
	readonly bytesReceived: number;
	readonly latency: Latency | null;
	/** Connects per LATENCY_BUCKETS_MS bucket. */
	readonly histogram: readonly number[];
	/** Ticks of its first and last event. */
	readonly firstTicks: number;
	readonly lastTicks: number;
}

/** Nearest-rank percentile of an ascending list. */
export function percentile(sorted: readonly number[], p: number): number {
	const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
	return sorted[Math.min(rank, sorted.length) - 1]!;
}

export function bucketOf(ms: number): number {
	return LATENCY_BUCKETS_MS.findIndex((b) => ms < b);
}

/** One socket's part in a conversation: its traffic with that remote. */
export interface Part {
	readonly s: SocketSummary;
	readonly remote: string;
	/** The name the application looked up for that remote, when the trace has it. */
	readonly remoteName: string | null;
	readonly bytesSent: number;
	readonly bytesReceived: number;
	readonly firstTicks: number;
	readonly lastTicks: number;
}

/** A socket's parts: one per remote of its datagrams, else one with its remote (if it has one). */
export function partsOf(s: SocketSummary): Part[] {
	if (s.peers.length > 0)
		return s.peers.map((p) => ({
			s,
			remote: p.remote,
			remoteName: p.remoteName,
			bytesSent: p.bytesSent,
			bytesReceived: p.bytesReceived,
			firstTicks: p.first.ticks,
			lastTicks: p.last.ticks,
		}));
	if (s.remote === null) return [];
	return [
		{
			s,
			remote: s.remote,
			remoteName: s.remoteName ?? null,
			bytesSent: s.bytesSent,
			bytesReceived: s.bytesReceived,
			firstTicks: s.firstEvent.ticks,
			lastTicks: s.lastEvent.ticks,
		},
	];
}

/** Groups sockets that have a remote address; listening sockets have none and are left out. */
export function conversationsOf(sockets: readonly SocketSummary[]): Conversation[] {
	const groups = new Map<string, Part[]>();
	for (const s of sockets) {
		if (s.listening) continue;
		for (const part of partsOf(s)) {
			const key = `${s.pid ?? s.eprocess ?? '?'}|${part.remote}`;
			let g = groups.get(key);
			if (!g) groups.set(key, (g = []));
			g.push(part);
		}
	}
	return [...groups.entries()].map(([key, parts]) => {
		const list = parts.map((p) => p.s);
		// connect() on a datagram socket only sets its default peer: no handshake to time.
		const ms = list
			.filter((s) => s.type !== SOCK_DGRAM)
			.map((s) => s.connect?.ms)
			.filter((x): x is number => typeof x === 'number')
			.sort((a, b) => a - b);
		const histogram = LATENCY_BUCKETS_MS.map(() => 0);
		for (const x of ms) histogram[bucketOf(x)]!++;
		const inbound = list.some((s) => s.listener !== null || s.origin === 'accepted');
		const outbound = list.some((s) => s.listener === null && s.origin !== 'accepted');
		const first = list[0]!;
		return {
			key,
			pid: first.pid,
			process: first.process,
			remote: parts[0]!.remote,
			remoteName: parts.reduce<string | null>((n, p) => p.remoteName ?? n, null),
			protocol: [...new Set(list.map((s) => protocolLabel(s.type, s.protocol)))].join('+'),
			direction: inbound && outbound ? 'both' : inbound ? 'inbound' : 'outbound',
			sockets: list.map((s) => s.key),
			connections: list.length,
			connected: list.filter(
				(s) => s.connect?.outcome === 'connected' || s.listener !== null || s.origin === 'accepted',
			).length,
			failed: list.filter((s) => s.state === 'failed').length,
			aborted: list.filter((s) => s.state === 'aborted').length,
			// i18n: data (a socket state's identifier, as the CLI prints it; the page says it in its words)
			open: list.filter((s) => s.state === 'open at end of trace').length,
			bytesSent: parts.reduce((n, p) => n + p.bytesSent, 0),
			bytesReceived: parts.reduce((n, p) => n + p.bytesReceived, 0),
			latency: ms.length
				? {
						count: ms.length,
						min: ms[0]!,
						max: ms.at(-1)!,
						p50: percentile(ms, 50),
						p90: percentile(ms, 90),
						p99: percentile(ms, 99),
					}
				: null,
			histogram,
			firstTicks: parts.reduce((t, p) => Math.min(t, p.firstTicks), Infinity),
			lastTicks: parts.reduce((t, p) => Math.max(t, p.lastTicks), -Infinity),
		};
	});
}
