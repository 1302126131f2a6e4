// Findings: what deserves a look, each with a count, a plain explanation, and the sockets and
// record indexes behind it (so the UI can go from a finding to the exact events).
import { explainStatus } from '../decoder/status.ts';
import { formatBytes } from '../lib/format-size.ts';
import { formatDuration, ticksToMs } from './format.ts';
import { namedEndpoint } from './names.ts';
import type { SocketSummary } from './socket.ts';
import type { PollActivity, TrackedTrace } from './tracker.ts';

export type FindingKind =
	| 'connect-refused'
	| 'connect-timeout'
	| 'connect-failed'
	| 'retry-storm'
	| 'afd-abort'
	| 'transport-abort'
	| 'datagram-dropped'
	| 'open-at-end'
	| 'io-after-close'
	| 'tiny-send-storm'
	| 'busy-poll'
	| 'port-exhaustion'
	| 'address-in-use'
	| 'bind-failed'
	| 'tcp-connect-failed'
	| 'syn-retransmits';

export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
	/** `kind:subject`, unique in one trace's findings. */
	readonly id: string;
	readonly kind: FindingKind;
	readonly severity: Severity;
	readonly title: string;
	/** What it is about: a process and peer, an abort or drop reason, a process. */
	readonly subject: string;
	/** How many: failed connects, aborted sockets, dropped datagrams, requests … (see kind). */
	readonly count: number;
	readonly explanation: string;
	/** Keys of the sockets behind it (the first maxLinks). */
	readonly sockets: readonly string[];
	/** Record indexes of the events behind it, ascending (the first maxLinks). */
	readonly events: readonly number[];
	readonly socketCount: number;
	readonly eventCount: number;
}

export interface FindingOptions {
	/** Failed connects from one process to one peer that make a retry storm (default 5). */
	readonly retryStormMin?: number;
	/** Sockets and events listed per finding (default 1000). */
	readonly maxLinks?: number;
}

const REFUSED = new Set(['STATUS_CONNECTION_REFUSED', 'STATUS_REMOTE_NOT_LISTENING']);
const TIMEOUT = new Set(['STATUS_IO_TIMEOUT', 'STATUS_TIMEOUT']);
const PORT_EXHAUSTION = new Set(['STATUS_TOO_MANY_ADDRESSES', 'STATUS_INSUFFICIENT_RESOURCES']);
const ADDRESS_IN_USE = new Set(['STATUS_ADDRESS_ALREADY_EXISTS', 'STATUS_SHARING_VIOLATION']);
const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

interface Group {
	kind: FindingKind;
	subject: string;
	count: number;
	sockets: Set<string>;
	events: Set<number>;
	list: SocketSummary[];
	extra: number;
	statuses: Set<number>;
	/** What TCP/IP logged for the sockets (TcpOutcome.text), when the trace has it. */
	tcp: Set<string>;
}

function plural(n: number, one: string, many = `${one}s`): string {
	return `${n} ${n === 1 ? one : many}`;
}

function whoOf(s: { process: string; pid: number | null }): string {
	return s.pid !== null && s.process !== `PID ${s.pid}` ? `${s.process} (PID ${s.pid})` : s.process;
}

function statusText(status: number): string {
	const x = explainStatus(status);
	return `${x.name}${x.wsa ? `, ${x.wsa}` : ''}`;
}

class Groups {
	readonly #map = new Map<string, Group>();

	add(
		kind: FindingKind,
		subject: string,
		s: SocketSummary | null,
		events: readonly number[],
		count = 1,
	): Group {
		const id = `${kind}:${subject}`;
		let g = this.#map.get(id);
		if (!g) {
			g = {
				kind,
				subject,
				count: 0,
				sockets: new Set(),
				events: new Set(),
				list: [],
				extra: 0,
				statuses: new Set(),
				tcp: new Set(),
			};
			this.#map.set(id, g);
		}
		g.count += count;
		if (s && !g.sockets.has(s.key)) {
			g.sockets.add(s.key);
			g.list.push(s);
		}
		for (const e of events) g.events.add(e);
		return g;
	}

	values(): Group[] {
		return [...this.#map.values()];
	}
}

function span(list: readonly SocketSummary[]): string {
	const first = list.reduce((t, s) => Math.min(t, s.firstEvent.ticks), Infinity);
	const last = list.reduce((t, s) => Math.max(t, s.lastEvent.ticks), -Infinity);
	return formatDuration(ticksToMs(last - first));
}

/** The socket's own connect events (findings lead to events that name the socket). */
function socketLinks(s: SocketSummary): number[] {
	const c = s.connect;
	const links = [c?.startIndex ?? null, c?.endIndex ?? null].filter((x): x is number => x !== null);
	return links.length ? links : [s.firstEvent.index];
}

/** Title, severity and explanation of a group, with what TCP/IP logged for connect failures. */
function describe(g: Group, t: TrackedTrace): [string, Severity, string] {
	const [title, severity, text] = describeAfd(g, t);
	const tcp = [...g.tcp];
	return [title, severity, tcp.length ? `${text} TCP/IP logged: ${tcp.join('; ')}.` : text];
}

function describeAfd(g: Group, t: TrackedTrace): [string, Severity, string] {
	const n = g.count;
	const statuses = [...g.statuses].map(statusText).join('; ');
	const why = [...g.statuses].map((x) => explainStatus(x).explanation).join(' ');
	switch (g.kind) {
		case 'connect-refused':
			return [
				`Connections refused: ${g.subject}`,
				'warning',
				`${plural(n, 'connect')} from ${g.subject} ${n === 1 ? 'was' : 'were'} refused (${statuses}). ${why}`,
			];
		case 'connect-timeout':
			return [
				`Connect timeouts: ${g.subject}`,
				'warning',
				`${plural(n, 'connect')} from ${g.subject} timed out (${statuses}): the peer never answered the SYN; it may be down, unreachable, or dropping packets at a firewall.`,
			];
		case 'connect-failed':
			return [
				`Failed connects: ${g.subject}`,
				'warning',
				`${plural(n, 'connect')} from ${g.subject} failed (${statuses}). ${why}`,
			];
		case 'retry-storm':
			return [
				`Retry storm: ${g.subject}`,
				'error',
				`${plural(n, 'failed connect')} from ${g.subject} within ${span(g.list)}: the application keeps retrying a peer that does not accept; retries without backoff waste ports and time.`,
			];
		case 'afd-abort':
			return [
				`Aborted by AFD: ${g.subject}`,
				'warning',
				`${plural(n, 'connection')} aborted by AFD itself (${g.subject}), not by the application or the peer.`,
			];
		case 'transport-abort':
			return [
				`Reset by the transport: ${g.subject}`,
				'warning',
				`${plural(n, 'connection')} ended by the transport (${g.subject}): usually a TCP reset from the peer or a middlebox, or a retransmission timeout.`,
			];
		case 'datagram-dropped':
			return [
				`Datagrams dropped: ${g.subject}`,
				'warning',
				`${plural(n, 'datagram')} (${formatBytes(g.extra)}) dropped by AFD before the application read them (${g.subject}).${
					/buffer space/i.test(g.subject)
						? ' The socket had no receive posted and its buffer was full: read faster or enlarge SO_RCVBUF.'
						: ''
				}`,
			];
		case 'open-at-end':
			return [
				`Open at the end of the trace: ${g.subject}`,
				'info',
				`${plural(n, 'socket')} of ${g.subject} ${n === 1 ? 'was' : 'were'} still open when the trace ended. Long-lived connections and listeners are normal; sockets that pile up without being closed are a leak.`,
			];
		case 'io-after-close':
			return [
				`I/O after close: ${g.subject}`,
				'warning',
				`${plural(n, 'request')} on ${plural(g.sockets.size, 'socket')} of ${g.subject} came after closesocket on that socket: a use-after-close bug, or two threads sharing a socket without coordination.`,
			];
		case 'tiny-send-storm':
			return [
				`Tiny-send storm: ${g.subject}`,
				'warning',
				`${plural(n, 'send')} of at most ${t.thresholds.tinySendBytes} bytes on ${plural(g.sockets.size, 'socket')} of ${g.subject}, at least ${t.thresholds.tinySendCount} within ${formatDuration(t.thresholds.tinySendWindowMs)}: each costs a system call and often a packet; coalesce writes (buffer, or gather with WSASend).`,
			];
		case 'busy-poll':
			return [
				`Busy select/poll loop: ${g.subject}`,
				'warning',
				`${plural(n, 'select/poll call')} by ${g.subject} came at ${t.thresholds.pollCount} or more per ${formatDuration(t.thresholds.pollWindowMs)}: a loop that polls without waiting burns CPU; wait with a timeout or use overlapped I/O.`,
			];
		case 'port-exhaustion':
			return [
				`Port exhaustion: ${g.subject}`,
				'error',
				`${plural(n, 'bind')} by ${g.subject} failed for lack of a free local port (${statuses}). Too many sockets in TIME_WAIT or open at once: reuse connections, or widen the dynamic port range.`,
			];
		case 'address-in-use':
			return [
				`Address in use: ${g.subject}`,
				'warning',
				`${plural(n, 'bind')} by ${g.subject} failed because another socket holds the address (${statuses}).`,
			];
		case 'bind-failed':
			return [
				`Failed binds: ${g.subject}`,
				'warning',
				`${plural(n, 'bind')} by ${g.subject} failed (${statuses}). ${why}`,
			];
		case 'tcp-connect-failed':
			return [
				`TCP connect failed: ${g.subject}`,
				'warning',
				`${plural(n, 'connect')} failed in TCP/IP (${g.subject}), as Microsoft-Windows-TCPIP logged ${n === 1 ? 'it' : 'them'}${statuses ? ` (${statuses})` : ''}.`,
			];
		case 'syn-retransmits':
			return [
				`SYN retransmissions: ${g.subject}`,
				'warning',
				`TCP/IP retransmitted the SYN ${plural(n, 'time')} on ${plural(g.sockets.size, 'socket')} (${g.subject}): the peer did not answer at once; it may be slow, overloaded, or behind a firewall that drops packets.`,
			];
	}
}

function pollFinding(groups: Groups, p: PollActivity): void {
	if (p.busyAt !== null)
		groups.add('busy-poll', whoOf(p), null, [p.busyAt, ...p.events], p.busyCalls);
}

export function findingsOf(t: TrackedTrace, options: FindingOptions = {}): Finding[] {
	const retryMin = options.retryStormMin ?? 5;
	const maxLinks = options.maxLinks ?? 1000;
	const groups = new Groups();
	const failedConnects = new Map<string, SocketSummary[]>();
	for (const s of t.sockets) {
		const who = whoOf(s);
		const peer = `${who} → ${namedEndpoint(s.remoteName, s.remote)}`;
		const c = s.connect;
		if (c?.outcome === 'failed' && c.status !== null) {
			const name = c.statusName ?? '';
			const links = [c.startIndex, c.endIndex].filter((x): x is number => x !== null);
			if (!PORT_EXHAUSTION.has(name)) {
				const kind = REFUSED.has(name)
					? 'connect-refused'
					: TIMEOUT.has(name)
						? 'connect-timeout'
						: 'connect-failed';
				const g = groups.add(kind, peer, s, links);
				g.statuses.add(c.status);
				if (s.tcp?.text) g.tcp.add(s.tcp.text);
			}
			const key = `${s.pid ?? s.eprocess}|${s.remote}`;
			failedConnects.set(key, [...(failedConnects.get(key) ?? []), s]);
		}
		for (const e of s.errors) {
			const bindLike = e.op === 'bind' || (e.op === 'connect' && PORT_EXHAUSTION.has(e.name));
			if (!bindLike) continue;
			const kind = PORT_EXHAUSTION.has(e.name)
				? 'port-exhaustion'
				: ADDRESS_IN_USE.has(e.name)
					? 'address-in-use'
					: 'bind-failed';
			groups.add(kind, who, s, [e.index]).statuses.add(e.status);
		}
		if (s.abort) {
			const kind = s.abort.by === 'afd' ? 'afd-abort' : 'transport-abort';
			const reason = s.abort.reasonName ?? `reason ${s.abort.reason}`;
			groups.add(kind, reason, s, [s.abort.index]);
		}
		for (const r of s.dropReasons) {
			const g = groups.add('datagram-dropped', r.name, s, s.dropEvents, r.count);
			g.extra += r.bytes;
		}
		if (s.closed === null && s.closeRequested === null && s.endedBy !== 'unknown')
			groups.add('open-at-end', who, s, [s.opened?.index ?? s.firstEvent.index]);
		if (s.ioAfterClose > 0)
			groups.add('io-after-close', who, s, [...s.ioAfterCloseEvents], s.ioAfterClose);
		if (s.tinySendStorm !== null)
			groups.add('tiny-send-storm', who, s, [s.tinySendStorm], s.tinySends);
		const tcp = s.tcp;
		if (tcp?.result === 'failed' && tcp.failure !== null && c?.outcome !== 'failed') {
			// TCP/IP saw a connect fail that the AFD events do not show (e.g. their events are missing).
			const g = groups.add('tcp-connect-failed', `${peer}: ${tcp.failure}`, s, socketLinks(s));
			if (tcp.status) g.statuses.add(tcp.status);
		}
		if (tcp && tcp.synRetransmits > 0 && tcp.result !== 'failed')
			groups.add('syn-retransmits', peer, s, socketLinks(s), tcp.synRetransmits);
	}
	for (const list of failedConnects.values()) {
		if (list.length < retryMin) continue;
		const s = list[0]!;
		for (const x of list)
			groups.add(
				'retry-storm',
				`${whoOf(s)} → ${namedEndpoint(s.remoteName, s.remote)}`,
				x,
				[x.connect!.endIndex].filter((i): i is number => i !== null),
			);
	}
	for (const p of t.pollers) pollFinding(groups, p);
	return groups
		.values()
		.map((g): Finding => {
			const [title, severity, explanation] = describe(g, t);
			const events = [...g.events].sort((a, b) => a - b);
			return {
				id: `${g.kind}:${g.subject}`,
				kind: g.kind,
				severity,
				title,
				subject: g.subject,
				count: g.count,
				explanation,
				sockets: [...g.sockets].slice(0, maxLinks),
				events: events.slice(0, maxLinks),
				socketCount: g.sockets.size,
				eventCount: events.length,
			};
		})
		.sort(
			(a, b) =>
				SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
				b.count - a.count ||
				(a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
		);
}
