// TCP connections as Microsoft-Windows-TCPIP logs them (connect request, proceeding, complete,
// failures, SYN and data retransmissions, timeouts, close, rundown), gathered per connection
// (local port, remote address) so sockets can be told their TCP outcome. Header PIDs are not
// trusted here: only the payload's ProcessId / rundown Pid are kept, and only above 4.
import { explainStatus } from '../decoder/status.ts';
import { english, list as clauses, msg, type Msg, type Text } from '../i18n/render.ts';
import { TCPIP_EVENTS, type TcpEventReason } from '../generated/net-semantics.ts';
import { addressOfEndpoint } from '../net/ip.ts';

/** What a TCPIP event id means for a connection (schema/net-semantics.json). */
export type { TcpRole } from '../generated/net-semantics.ts';

/**
 * Why a connect failed, as a catalogue key (`tcp.reason.<code>`): the reason Windows names in the
 * event itself, or what the connection's events say.
 */
export type TcpReason = TcpEventReason | 'failed' | 'timed-out' | 'refused';

/** One TCPIP event, as the feeder reads it. */
export interface TcpEvent {
	readonly index: number;
	readonly ticks: number;
	readonly id: number;
	/** SOCKADDR texts ('a.b.c.d:port', '[v6]:port'). */
	readonly local: string | null;
	readonly remote: string | null;
	readonly status: number | null;
	/** Payload ProcessId (connection events) or Pid (rundown). */
	readonly pid: number | null;
	/** RexmitCount of retransmission events. */
	readonly rexmit: number | null;
	readonly tcb: string | null;
}

/** What TCP/IP said about one connection. */
export interface TcpConnection {
	/** Local port and canonical remote `address|port`: the join key. */
	readonly localPort: number;
	readonly remote: string;
	readonly first: number;
	readonly firstTicks: number;
	lastTicks: number;
	requested: boolean;
	accepted: boolean;
	connected: boolean;
	/**
	 * The failure Windows logged: its reason (a code, or the NTSTATUS name when the event names
	 * none) and NTSTATUS.
	 */
	failure: {
		reason: TcpReason | { statusName: string };
		status: number | null;
		index: number;
	} | null;
	timedOut: boolean;
	refused: boolean;
	synRetransmits: number;
	dataRetransmits: number;
	/** The last timeout that ended an established connection (RTO, keepalive, disconnect). */
	endTimeout: 'rto' | 'keepalive' | 'disconnect' | null;
	reset: boolean;
	closed: 'close' | 'abort' | 'disconnect' | 'shutdown' | null;
	rundown: { state: number | null; pid: number | null } | null;
	pid: number | null;
	/** Record indexes of its events (the first 64). */
	readonly events: number[];
	/** Record indexes of all its events: whose process each is (sockets/owners.ts). */
	readonly rows: number[];
}

const MAX_EVENTS = 64;

function portOf(endpoint: string | null): number | null {
	const m = endpoint === null ? null : /:(\d+)$/.exec(endpoint);
	return m ? Number(m[1]) : null;
}

/** `address|port` of a SOCKADDR text, the address canonical; null when it is not IP. */
export function remoteKey(endpoint: string | null): string | null {
	const a = addressOfEndpoint(endpoint);
	const p = portOf(endpoint);
	return a === null || p === null ? null : `${a}|${p}`;
}

/** TCPIP connection events gathered per (local port, remote); several per key when reused. */
export class TcpTable {
	readonly #byKey = new Map<string, TcpConnection[]>();
	#events = 0;

	get events(): number {
		return this.#events;
	}

	add(e: TcpEvent): void {
		const meaning = TCPIP_EVENTS[e.id];
		const port = portOf(e.local);
		const remote = remoteKey(e.remote);
		if (!meaning || port === null || remote === null) return;
		this.#events++;
		const key = `${port}|${remote}`;
		let list = this.#byKey.get(key);
		if (!list) this.#byKey.set(key, (list = []));
		let c = list[list.length - 1];
		// A new connect on the same 4-tuple after the last one ended starts a new connection.
		if (!c || (meaning.role === 'request' && (c.closed !== null || c.failure !== null))) {
			c = {
				localPort: port,
				remote,
				first: e.index,
				firstTicks: e.ticks,
				lastTicks: e.ticks,
				requested: false,
				accepted: false,
				connected: false,
				failure: null,
				timedOut: false,
				refused: false,
				synRetransmits: 0,
				dataRetransmits: 0,
				endTimeout: null,
				reset: false,
				closed: null,
				rundown: null,
				pid: null,
				events: [],
				rows: [],
			};
			list.push(c);
		}
		c.lastTicks = Math.max(c.lastTicks, e.ticks);
		if (c.events.length < MAX_EVENTS) c.events.push(e.index);
		c.rows.push(e.index);
		if (e.pid !== null && e.pid > 4) c.pid = e.pid;
		const ok = e.status === null || e.status === 0;
		switch (meaning.role) {
			case 'request':
				c.requested = true;
				break;
			case 'proceeding':
				break;
			case 'complete':
				if (ok) c.connected = true;
				else c.failure ??= { reason: 'failed', status: e.status, index: e.index };
				break;
			case 'failure':
				c.failure = {
					reason:
						meaning.reason ?? (e.status ? { statusName: explainStatus(e.status).name } : 'failed'),
					status: e.status,
					index: e.index,
				};
				break;
			case 'timeout':
				c.timedOut = true;
				c.failure ??= { reason: 'timed-out', status: e.status, index: e.index };
				break;
			case 'refused':
				c.refused = true;
				c.failure = { reason: 'refused', status: e.status, index: e.index };
				break;
			case 'syn-retransmit':
				c.synRetransmits = Math.max(c.synRetransmits + 1, e.rexmit ?? 0);
				break;
			case 'data-retransmit':
				c.dataRetransmits = Math.max(c.dataRetransmits + 1, e.rexmit ?? 0);
				break;
			case 'rto-timeout':
				c.endTimeout = 'rto';
				break;
			case 'keepalive-timeout':
				c.endTimeout = 'keepalive';
				break;
			case 'disconnect-timeout':
				c.endTimeout = 'disconnect';
				break;
			case 'reset':
				c.reset = true;
				break;
			case 'accept':
				if (ok) c.accepted = true;
				break;
			case 'close':
			case 'abort':
			case 'disconnect':
			case 'shutdown':
				c.closed ??= meaning.role;
				break;
			case 'rundown':
				c.rundown = { state: e.status, pid: e.pid !== null && e.pid > 4 ? e.pid : null };
				break;
		}
	}

	/** Every connection, in no particular order. */
	*connections(): Iterable<TcpConnection> {
		for (const list of this.#byKey.values()) yield* list;
	}

	/**
	 * The connections of a socket: same local port and remote, within [from, to] ticks (a
	 * rundown matches at any time: it describes connections that already existed).
	 */
	find(localPort: number | null, remote: string | null, from: number, to: number): TcpConnection[] {
		const r = remoteKey(remote);
		if (r === null) return [];
		const out: TcpConnection[] = [];
		const keys =
			localPort !== null && localPort !== 0
				? [`${localPort}|${r}`]
				: [...this.#byKey.keys()].filter((k) => k.endsWith(`|${r}`));
		for (const k of keys)
			for (const c of this.#byKey.get(k) ?? [])
				if (c.rundown !== null || (c.lastTicks >= from && c.firstTicks <= to)) out.push(c);
		return out;
	}
}

/** The TCP outcome of a socket, joined from its connections. */
export interface TcpOutcome {
	readonly result: 'connected' | 'failed' | 'accepted' | 'connecting' | 'existing';
	/** Why a connect failed, as Windows logged it ('no route', 'refused …', 'timed out'), in English. */
	readonly failure: string | null;
	/** The same, to render in the reader's language. */
	readonly failureMessage?: Text | null;
	readonly status: number | null;
	readonly statusName: string | null;
	readonly synRetransmits: number;
	readonly dataRetransmits: number;
	/** A timeout that ended the connection, or a reset from the peer. */
	readonly ended: 'rto-timeout' | 'keepalive-timeout' | 'disconnect-timeout' | 'reset' | null;
	/** The PID TCP/IP named (payload ProcessId or rundown Pid), when above 4. */
	readonly pid: number | null;
	/** Record indexes of the TCPIP events behind it. */
	readonly events: readonly number[];
	/** One sentence: "TCP connect failed: no route", "SYN retransmitted 3 times before the timeout". */
	readonly text: string;
	/** The same sentence, to render in the reader's language (absent in tables stored before it). */
	readonly message?: Text;
}

function reasonText(reason: TcpReason | { statusName: string }): Text {
	return typeof reason === 'string' ? msg(`tcp.reason.${reason}`) : reason.statusName;
}

/** The outcome of the socket's connections (the last one decides; retransmissions add up). */
export function tcpOutcome(list: readonly TcpConnection[]): TcpOutcome | null {
	if (list.length === 0) return null;
	const c = list[list.length - 1]!;
	const syn = list.reduce((n, x) => n + x.synRetransmits, 0);
	const data = list.reduce((n, x) => n + x.dataRetransmits, 0);
	const events = list.flatMap((x) => x.events).sort((a, b) => a - b);
	const pid = list.reduce<number | null>((p, x) => x.rundown?.pid ?? x.pid ?? p, null);
	const ended = c.reset
		? 'reset'
		: c.endTimeout === 'rto'
			? 'rto-timeout'
			: c.endTimeout === 'keepalive'
				? 'keepalive-timeout'
				: c.endTimeout === 'disconnect'
					? 'disconnect-timeout'
					: null;
	const result: TcpOutcome['result'] =
		c.failure !== null && !c.connected
			? 'failed'
			: c.connected
				? 'connected'
				: c.accepted
					? 'accepted'
					: c.requested
						? 'connecting'
						: 'existing';
	const status = c.failure?.status ?? null;
	const parts: Msg[] = [];
	let failure: Text | null = null;
	if (result === 'failed') {
		failure = c.timedOut && syn > 0 ? msg('tcp.reason.timed-out') : reasonText(c.failure!.reason);
		parts.push(msg('tcp.connect-failed', { reason: failure }));
		if (syn > 0)
			parts.push(
				c.timedOut
					? msg('tcp.syn-retransmitted-timeout', { count: syn })
					: msg('tcp.syn-retransmitted', { count: syn }),
			);
	} else {
		parts.push(msg(`tcp.result.${result}`));
		if (syn > 0) parts.push(msg('tcp.syn-retransmitted', { count: syn }));
	}
	if (data > 0) parts.push(msg('tcp.data-retransmitted', { count: data }));
	if (ended !== null) parts.push(msg(`tcp.ended.${ended}`));
	const message = clauses(parts, 'comma');
	return {
		result,
		failure: failure === null ? null : english(failure),
		failureMessage: failure,
		status,
		statusName: status !== null && status !== 0 ? explainStatus(status).name : null,
		synRetransmits: syn,
		dataRetransmits: data,
		ended,
		pid,
		events,
		text: english(message),
		message,
	};
}
