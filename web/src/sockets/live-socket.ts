// The mutable state of one socket while the trace streams by, and its summary.
//
// A trace may carry the legacy events (1-41) and the enter/exit events (1000+) for the same
// operations. Each family's counts are kept apart here, and the summary takes, per class of
// counter (sends, receives, indications, drops, accepts, connect, options), the family that saw
// more (never the sum): both describe the same operations, and either may have missed some (an
// exit that returned STATUS_PENDING has no completion bytes; events can be lost). Lifecycle
// marks (opened, bound, closed, aborted …) are states, not counters: the first event of either
// family sets them.
import { EVENT_MAPS } from '../generated/schemas.ts';
import { explainStatus } from '../decoder/status.ts';
import type { TickClock } from '../decoder/time.ts';
import type { EventIndex, Ticks } from '../decoder/units.ts';
import { IndexList } from './index-list.ts';
import type { RateWindow } from './rate-window.ts';
import type { PidSource, ProcessTable } from './processes.ts';
import {
	STATE_OPEN,
	type AbortInfo,
	type ConnectInfo,
	type DropReason,
	type EndedBy,
	type OptionChange,
	type PeerFlow,
	type SocketPidSource,
	type SocketError,
	type SocketOrigin,
	type SocketState,
	type SocketSummary,
	type TimeMark,
} from './socket.ts';

export const LEGACY = 0;
export const MODERN = 1;
export type Family = typeof LEGACY | typeof MODERN;

const NO_EVENTS = new Uint32Array(0);
/**
 * The one empty list that summaries share: most sockets have no drops, options or errors, and
 * a list each was a large part of the memory of tens of thousands of summaries.
 */
const NONE: readonly never[] = Object.freeze([]);
const listOrNone = <T>(list: readonly T[]): readonly T[] => (list.length > 0 ? list : NONE);

export const STATUS_PENDING = 0x103;
export const STATUS_CANCELLED = 0xc0000120;
/** Errors and option changes kept per family and socket (counts go on past it). */
const MAX_LIST = 32;
/** Event indexes kept for I/O after close and for drops, per socket. */
export const MAX_LINKED_EVENTS = 16;

/** A point in the stream: ticks and record index. */
export interface Mark {
	ticks: Ticks;
	index: EventIndex;
}

interface ConnectState {
	attempts: number;
	start: Mark | null;
	/** The attempt that `start` began has an outcome. */
	done: boolean;
	outcome: 'connected' | 'failed' | 'pending' | null;
	ms: number | null;
	failedAfterMs: number | null;
	status: number | null;
	end: Mark | null;
}

/** Remotes kept apart per socket (and family); the datagrams of any further ones are lumped. */
export const MAX_PEERS = 4096;
// i18n: data (the key of the remotes past the cap, as the CLI prints it)
export const OTHER_REMOTES = 'other remotes';

/** One remote's datagrams, while the trace streams by. */
export interface PeerState {
	remote: string;
	bytesSent: number;
	bytesReceived: number;
	datagramsSent: number;
	datagramsReceived: number;
	first: Mark;
	last: Mark;
}

/** One family's view of a socket. */
export class Tally {
	sendsPosted = 0;
	bytesSendPosted = 0;
	sends = 0;
	bytesSent = 0;
	sendFailures = 0;
	tinySends = 0;
	receivesPosted = 0;
	bytesReceivePosted = 0;
	receives = 0;
	bytesReceived = 0;
	receiveFailures = 0;
	indications = 0;
	bytesIndicated = 0;
	dropped = 0;
	bytesDropped = 0;
	dropReasons: Map<number, { count: number; bytes: number }> | null = null;
	accepts = 0;
	ioAfterClose = 0;
	bindAttempted = false;
	/** Shared empty lists until the first entry (most sockets have none). */
	options: OptionChange[] = NO_OPTIONS;
	errors: SocketError[] = NO_ERRORS;
	connect: ConnectState = {
		attempts: 0,
		start: null,
		done: false,
		outcome: null,
		ms: null,
		failedAfterMs: null,
		status: null,
		end: null,
	};
	/** Recent tiny sends, made on the first one. */
	tinyRate: RateWindow | null = null;
	/** Send exits not counted again because they were nested (see SocketSummary.nestedSendExits). */
	nestedSendExits = 0;
	nestedSendBytes = 0;
	/** Datagram sends counted at their enter: their exits are then not counted. */
	datagramSendEnters = 0;
	/** Datagrams per remote, in order of their first. */
	peers: Map<string, PeerState> | null = null;
	datagrams = 0;

	/** A datagram to (`sent`) or from a remote; `sign` -1 takes back one counted at a failed send. */
	datagram(remote: string, sent: boolean, bytes: number, at: Mark, sign = 1): void {
		this.peers ??= new Map();
		// A server socket may hear from any number of remotes: past the cap, one bucket for the rest.
		if (this.peers.size >= MAX_PEERS && !this.peers.has(remote)) remote = OTHER_REMOTES;
		let p = this.peers.get(remote);
		if (!p) {
			if (sign < 0) return;
			p = {
				remote,
				bytesSent: 0,
				bytesReceived: 0,
				datagramsSent: 0,
				datagramsReceived: 0,
				first: at,
				last: at,
			};
			this.peers.set(remote, p);
		}
		if (sent) {
			p.bytesSent += sign * bytes;
			p.datagramsSent += sign;
		} else {
			p.bytesReceived += sign * bytes;
			p.datagramsReceived += sign;
		}
		this.datagrams += sign;
		if (sign > 0) p.last = at;
	}
}

const NO_OPTIONS: OptionChange[] = [];
const NO_ERRORS: SocketError[] = [];
const NO_INDEXES: number[] = [];
/** What an unused family reads as (two: the summary tells the families apart by identity). */
const EMPTY: readonly [Tally, Tally] = [new Tally(), new Tally()];

function statusName(status: number): string {
	return explainStatus(status).name;
}

/** NTSTATUS severity 3 (bits 31-30): an error. */
export function isFailure(status: number): boolean {
	return status >>> 30 === 3;
}

/** A socket's PID source when it comes from the EPROCESS → PID map. */
const MAP_SOURCE: Readonly<Record<PidSource, SocketPidSource>> = {
	'afd-create': 'process-map',
	mof: 'kernel-process',
	'reliable-location': 'reliable-location',
	header: 'caller-header',
};

/** Which family's numbers to report for one class of counter: the one that saw more. */
function pick(t: readonly [Tally, Tally], weight: (t: Tally) => number[]): Tally {
	const [l, m] = [weight(t[LEGACY]), weight(t[MODERN])];
	for (let k = 0; k < l.length; k++)
		if (l[k] !== m[k]) return l[k]! > m[k]! ? t[LEGACY] : t[MODERN];
	return t[MODERN];
}

export class LiveSocket {
	readonly endpoint: string;
	readonly generation: number;
	origin: SocketOrigin;
	eprocess: string | null;
	/** From the create event (UserModePid / ProcessId), or the listener's for an accepted socket. */
	pid: number | null = null;
	pidSource: 'create' | 'listener' | null = null;
	/**
	 * Unfinished nested sends (1003) by thread: the depth of enters without their exit. One thread
	 * at a time is usual: its depth is kept here, any other's in a map made when needed.
	 */
	#sendTid = -2;
	#sendTidDepth = 0;
	#sendDepths: Map<number, number> | null = null;
	/** Per thread, the last datagram send counted at its enter and not yet exited. */
	datagramInFlight: Map<number, { bytes: number; remote: string | null }> | null = null;
	/** Legacy: the address of the last sendto posted (21/22), for its completion (28). */
	lastSendTo: string | null = null;
	family: number | null = null;
	type: number | null = null;
	protocol: number | null = null;
	local: string | null = null;
	remote: string | null = null;
	listening = false;
	listener: LiveSocket | null = null;
	accepted = false;
	modernCreate = false;
	legacyCreate = false;
	/** Events other than its create and the accept that named it: a create after one starts a new socket. */
	activity = 0;
	/** Each family's view, made when the family first counts something (most sockets: one). */
	#legacy: Tally | null = null;
	#modern: Tally | null = null;
	/** Which families named it, as bits (1 << family). */
	#families = 0;
	/** Record indexes of its events, as many as the tracker keeps (none: only counted). */
	readonly events: IndexList | null;
	eventCount = 0;
	readonly first: Mark;
	lastTicks: number;
	lastIndex: number;
	opened: Mark | null = null;
	bound: Mark | null = null;
	closeRequested: Mark | null = null;
	cleanupStarted: Mark | null = null;
	closed: Mark | null = null;
	/** Its Endpoint was reused without a cleanup event: where it was last seen. */
	reusedWithoutCleanup = false;
	abort: AbortInfo | null = null;
	peerDisconnect: Mark | null = null;
	bindFailure: SocketError | null = null;
	createFailure: SocketError | null = null;
	/** Shared empty lists until the first entry. */
	afterClose: number[] = NO_INDEXES;
	dropEvents: number[] = NO_INDEXES;
	tinyStorm: number | null = null;
	/** Close/cleanup events seen, as bits (see CLOSE_BITS in tracker.ts), to absorb the other family's. */
	closeBits = 0;

	constructor(
		endpoint: string,
		generation: number,
		origin: SocketOrigin,
		eprocess: string | null,
		ticks: number,
		index: number,
		maxEvents: number,
	) {
		this.endpoint = endpoint;
		this.generation = generation;
		this.origin = origin;
		this.eprocess = eprocess;
		this.events = maxEvents > 0 ? new IndexList(maxEvents) : null;
		this.first = { ticks, index };
		this.lastTicks = ticks;
		this.lastIndex = index;
	}

	get key(): string {
		return `${this.endpoint}#${this.generation}`;
	}

	/** The depth of unfinished nested sends on a thread (0: none). */
	sendDepthOf(tid: number): number {
		return tid === this.#sendTid ? this.#sendTidDepth : (this.#sendDepths?.get(tid) ?? 0);
	}

	setSendDepth(tid: number, depth: number): void {
		if (tid !== this.#sendTid && (this.#sendTidDepth > 0 || this.#sendDepths?.has(tid))) {
			(this.#sendDepths ??= new Map()).set(tid, depth);
			return;
		}
		// Its own thread, or a thread with nothing unfinished taking over a slot at depth 0.
		this.#sendTid = tid;
		this.#sendTidDepth = depth;
	}

	/** One family's view, made on first use. */
	tally(family: Family): Tally {
		return family === LEGACY ? (this.#legacy ??= new Tally()) : (this.#modern ??= new Tally());
	}

	/** Both families' views; a family that never counted anything reads as an empty one. */
	get tallies(): readonly [Tally, Tally] {
		return [this.#legacy ?? EMPTY[LEGACY], this.#modern ?? EMPTY[MODERN]];
	}

	/** Records that an event names this socket (once, though it may name it twice). */
	see(family: Family, ticks: number, index: number): void {
		this.#families |= 1 << family;
		if (this.eventCount > 0 && index === this.lastIndex) return;
		this.eventCount++;
		this.events?.push(index);
		this.lastTicks = ticks;
		this.lastIndex = index;
	}

	error(family: Family, at: Mark, op: string, status: number): SocketError {
		const e = { index: at.index, ticks: at.ticks, op, status, name: statusName(status) };
		const t = this.tally(family);
		if (t.errors === NO_ERRORS) t.errors = [];
		if (t.errors.length < MAX_LIST) t.errors.push(e);
		return e;
	}

	option(family: Family, at: Mark, option: number, value: number, status: number | null): void {
		const t = this.tally(family);
		if (t.options === NO_OPTIONS) t.options = [];
		const list = t.options;
		if (list.length >= MAX_LIST) return;
		const name =
			option === -1 ? 'WSAEventSelect' : (EVENT_MAPS.afdOption?.[option] ?? `option ${option}`);
		list.push({ index: at.index, ticks: at.ticks, option, name, value, status });
	}

	connectStart(family: Family, at: Mark, remote: string | undefined): void {
		const c = this.tally(family).connect;
		c.attempts++;
		c.start = at;
		c.done = false;
		c.outcome = 'pending';
		if (remote && !this.remote) this.remote = remote;
	}

	connectDone(family: Family, at: Mark, status: number): void {
		const c = this.tally(family).connect;
		if (c.outcome === null) c.attempts++; // its start is before the trace
		c.status = status;
		c.end = at;
		const ms = c.start && !c.done ? (at.ticks - c.start.ticks) / 10_000 : null;
		if (status === STATUS_PENDING) c.outcome = 'pending';
		else if (isFailure(status)) {
			c.outcome = 'failed';
			c.failedAfterMs = ms;
			this.error(family, at, 'connect', status);
		} else {
			c.outcome = 'connected';
			c.ms = ms;
		}
		c.done = status !== STATUS_PENDING;
	}

	/** A completed transfer proves that a connect still pending has succeeded. */
	transferred(family: Family, ticks: number, index: number): void {
		const c = this.tally(family).connect;
		if (c.outcome === 'pending' && this.type !== 2) {
			c.outcome = 'connected';
			c.status = 0;
			c.end = { ticks, index };
			c.done = true;
		}
	}

	drop(family: Family, index: number, reason: number, bytes: number): void {
		if (this.dropEvents === NO_INDEXES) this.dropEvents = [];
		if (this.dropEvents.length < MAX_LINKED_EVENTS) this.dropEvents.push(index);
		const t = this.tally(family);
		t.dropped++;
		t.bytesDropped += bytes;
		t.dropReasons ??= new Map();
		const r = t.dropReasons.get(reason) ?? { count: 0, bytes: 0 };
		r.count++;
		r.bytes += bytes;
		t.dropReasons.set(reason, r);
	}

	/** The socket as reported at `endTicks`, its times told by `clock` (the trace's origin). */
	summary(clock: TickClock, processes: ProcessTable): SocketSummary {
		const firstEvent = timeMark(clock, this.first);
		const lastEvent = timeMark(clock, { ticks: this.lastTicks, index: this.lastIndex });
		// A socket usually opens at its first event and closes at its last: one mark serves both
		// (tens of thousands of summaries are held at once when an import ends).
		const mark = (m: Mark | null): TimeMark | null =>
			!m
				? null
				: sameMark(m, firstEvent)
					? firstEvent
					: sameMark(m, lastEvent)
						? lastEvent
						: timeMark(clock, m);
		const t = this.tallies;
		const send = pick(t, (x) => [x.bytesSent, x.sends, x.sendsPosted, x.sendFailures]);
		const recv = pick(t, (x) => [x.bytesReceived, x.receives, x.receivesPosted, x.receiveFailures]);
		const ind = pick(t, (x) => [x.bytesIndicated, x.indications]);
		const drop = pick(t, (x) => [x.dropped, x.bytesDropped]);
		const acc = pick(t, (x) => [x.accepts]);
		const opt = pick(t, (x) => [x.options.length]);
		const after = pick(t, (x) => [x.ioAfterClose]);
		const conn = this.#connectFamily();
		const connect = this.#connectInfo(conn);
		const errors = this.#errors(send, recv, conn);
		const connectFailed = connect?.outcome === 'failed';
		const bindFailed = this.bindFailure !== null && this.local === null;
		const failed = connectFailed || bindFailed || this.createFailure !== null;
		const closedMark = this.closed ?? this.cleanupStarted;
		const ended = closedMark !== null || this.closeRequested !== null || this.reusedWithoutCleanup;
		const state: SocketState = this.abort
			? 'aborted'
			: failed
				? 'failed'
				: ended
					? 'closed'
					: STATE_OPEN;
		let endedBy: EndedBy | null = null;
		if (this.reusedWithoutCleanup) endedBy = 'unknown';
		else if (this.abort) endedBy = this.abort.by === 'afd' ? 'afd-abort' : 'transport-abort';
		else if (
			this.peerDisconnect &&
			(this.closeRequested === null || this.peerDisconnect.ticks <= this.closeRequested.ticks)
		)
			endedBy = ended ? 'peer-disconnect' : null;
		else if (ended) endedBy = 'application';
		const firstError = connectFailed
			? connect!.statusName
			: bindFailed
				? this.bindFailure!.name
				: (this.createFailure?.name ??
					errors.find((e) => e.status !== STATUS_CANCELLED)?.name ??
					null);
		const pid = this.pid ?? processes.pidOf(this.eprocess, this.first.ticks);
		const pidSource: SocketPidSource | null =
			this.pid !== null
				? this.pidSource
				: pid === null
					? null
					: MAP_SOURCE[processes.sourceOf(this.eprocess, this.first.ticks)!];
		const flows = pick(t, (x) => [x.datagrams]).peers;
		const peers: PeerFlow[] = [...(flows?.values() ?? [])]
			.filter((p) => p.datagramsSent + p.datagramsReceived > 0)
			.map((p) => ({
				remote: p.remote,
				// Named after tracking, from the DNS answers of the trace (sockets/enrich.ts).
				remoteName: null,
				bytesSent: p.bytesSent,
				bytesReceived: p.bytesReceived,
				datagramsSent: p.datagramsSent,
				datagramsReceived: p.datagramsReceived,
				first: timeMark(clock, p.first),
				last: timeMark(clock, p.last),
			}));
		const dropReasons: DropReason[] = [...(drop.dropReasons ?? [])]
			.sort((a, b) => a[0] - b[0])
			.map(([reason, r]) => ({
				reason,
				name: EVENT_MAPS.afdDatagramDrop?.[reason] ?? `reason ${reason}`,
				count: r.count,
				bytes: r.bytes,
			}));
		return {
			key: this.key,
			pid,
			pidSource,
			process: processes.label(pid, this.first.ticks),
			eprocess: this.eprocess,
			endpoint: this.endpoint,
			generation: this.generation,
			origin:
				this.modernCreate || (this.legacyCreate && !this.accepted)
					? 'created'
					: this.accepted
						? 'accepted'
						: this.origin,
			family: this.family,
			type: this.type,
			protocol: this.protocol,
			local: this.local,
			remote: this.remote,
			listening: this.listening,
			listener: this.listener?.key ?? null,
			accepts: acc.accepts,
			opened: mark(this.opened),
			closed: mark(closedMark),
			closeRequested: mark(this.closeRequested),
			firstEvent,
			lastEvent,
			state,
			endedBy,
			connect,
			bytesSent: send.bytesSent,
			bytesReceived: recv.bytesReceived,
			sends: send.sends,
			receives: recv.receives,
			sendsPosted: send.sendsPosted,
			receivesPosted: recv.receivesPosted,
			bytesSendPosted: send.bytesSendPosted,
			bytesReceivePosted: recv.bytesReceivePosted,
			sendFailures: send.sendFailures,
			receiveFailures: recv.receiveFailures,
			nestedSendExits: send.nestedSendExits,
			nestedSendBytes: send.nestedSendBytes,
			peers: listOrNone(peers),
			indications: ind.indications,
			bytesIndicated: ind.bytesIndicated,
			datagramsDropped: drop.dropped,
			bytesDropped: drop.bytesDropped,
			dropReasons: listOrNone(dropReasons),
			dropEvents: listOrNone([...this.dropEvents]),
			options: listOrNone([...opt.options]),
			errors: listOrNone(errors),
			error: firstError,
			abort: this.abort,
			peerDisconnect: this.peerDisconnect?.index ?? null,
			ioAfterClose: after.ioAfterClose,
			ioAfterCloseEvents: listOrNone([...this.afterClose]),
			tinySends: send.tinySends,
			tinySendStorm: this.tinyStorm,
			legacy: (this.#families & (1 << LEGACY)) !== 0,
			modern: (this.#families & (1 << MODERN)) !== 0,
			eventCount: this.eventCount,
			events: this.events?.toArray() ?? NO_EVENTS,
		};
	}

	/** The family whose connect says the most: a finished outcome beats a pending one. */
	#connectFamily(): Tally {
		const rank = (c: ConnectState) =>
			c.outcome === 'connected' || c.outcome === 'failed' ? 2 : c.attempts > 0 ? 1 : 0;
		const [l, m] = this.tallies;
		return rank(l.connect) > rank(m.connect) ? l : m;
	}

	#connectInfo(t: Tally): ConnectInfo | null {
		const c = t.connect;
		if (c.attempts === 0) return null;
		let { start, ms, failedAfterMs } = c;
		// An outcome with no start of its own (legacy 6 after a ConnectEx that returned
		// STATUS_PENDING): the other family's pending attempt is where it started.
		const other = this.tallies[t === this.tallies[LEGACY] ? MODERN : LEGACY].connect;
		if (!start && c.end && other.outcome === 'pending' && other.start) {
			const lateMs = (c.end.ticks - other.start.ticks) / 10_000;
			if (lateMs >= 0) {
				start = other.start;
				if (c.outcome === 'connected') ms = lateMs;
				else if (c.outcome === 'failed') failedAfterMs = lateMs;
			}
		}
		return {
			attempts: Math.max(c.attempts, other.attempts),
			outcome: c.outcome ?? 'pending',
			ms: c.outcome === 'connected' ? ms : null,
			failedAfterMs,
			status: c.outcome === 'pending' ? null : c.status,
			statusName: c.outcome === 'pending' || c.status === null ? null : statusName(c.status),
			startIndex: start?.index ?? null,
			endIndex: c.end?.index ?? null,
		};
	}

	/** Errors by operation, each operation's from the family its counts come from. */
	#errors(send: Tally, recv: Tally, conn: Tally): SocketError[] {
		const [l, m] = this.tallies;
		const chosen = (op: string): Tally => {
			if (op === 'send') return send;
			if (op === 'receive') return recv;
			if (op === 'connect') return conn;
			return m.errors.some((e) => e.op === op) ? m : l;
		};
		return [...l.errors, ...m.errors]
			.filter((e) => chosen(e.op).errors.includes(e))
			.sort((a, b) => a.index - b.index);
	}
}

const sameMark = (m: Mark, t: TimeMark): boolean => m.index === t.index && m.ticks === t.ticks;

export function timeMark(clock: TickClock, m: Mark): TimeMark {
	return {
		ticks: m.ticks,
		filetime: clock.filetime(m.ticks),
		iso: clock.iso(m.ticks),
		index: m.index,
	};
}
