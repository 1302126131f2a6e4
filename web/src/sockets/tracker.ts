// Socket reconstruction: a state machine fed one Winsock-AFD event at a time, in time order.
//
// Identity. A socket is its Endpoint address plus a generation: AFD reuses endpoint memory after
// cleanup, so the n-th socket seen on one address is generation n (counted per address, whatever
// the process). Live sockets are found by Endpoint alone, which the kernel never shares between
// two live sockets. The owning process is the Process field (EPROCESS); the header PID is often
// a kernel or worker context's. PIDs come from the create event (UserModePid / ProcessId, which
// also teaches the EPROCESS → PID map and overwrites it: a new process may get a dead one's
// EPROCESS), else from that map at the socket's first event (or, for a socket older than every
// mapping, the first one learned: back-fill), which kernel MOF process events and header PIDs at
// Locations where they are the caller's also teach. A header PID at a Location known to be
// unreliable, or at or below the System PID, teaches nothing; at a Location not known either way
// the enter of an application call (legacy: a posted request) gives a weak guess that any trusted
// source replaces (header-pid.ts). What each event id and Location means comes from the
// generated tables (schema/winsock-semantics.json → generated/afd-semantics.ts): the tracker
// dispatches on each event's role and reads the fields the table names (afd-roles.ts).
//
// Lifecycle: create (1, 1000) → bind (2/3, 1029/1030) → connect (4/5 → 6, 1017-1021) or listen
// (1037, or connections indicated on it: 35/36, 3000/3001) and accept (15/16, 1023-1027) → data
// → close (13, 1001 enter) → cleanup (14, 1002 exit), which ends the socket. Aborts (7, 8, 1032)
// and peer disconnects (41, 3006) are recorded as they come.
//
// Rules where the events leave room:
// - Enter/exit events: the exit's Status is the outcome. Bytes are in the phase the table names:
//   receives at the exit (the enter is the buffer offered: "posted"); AfdSend at the exit, once
//   per call (send-nesting.ts: nested pairs, buffered completions, unknown Locations); datagram
//   sends at the enter (their exit is optional, see #datagramSend). An exit with STATUS_PENDING is
//   neither completed nor failed. A connect enter starts the latency clock, its exit (or legacy 6)
//   stops it. Events with no EnterExit field, and EnterExit 2-4, count as exits (never as calls).
// - Datagram sockets keep their bytes per remote (the address of each datagram, else the socket's
//   remote); a socket whose create is missing is SOCK_DGRAM when it logs datagram-only events.
// - Legacy 18-22 are posted operations, 23-28 completions (bytes), 9-12 failures.
// - Data indications (37-39, 3003/3004) are counted apart and never as received bytes.
// - Legacy and enter/exit events of one operation: see live-socket.ts (per class of counter the
//   family that saw more, never the sum). A create of the other family merges into a socket that
//   has done nothing else yet; a close or cleanup of the other family after the socket ended is
//   absorbed into it instead of starting a new one.
// - A create on a live Endpoint that has already done something (or belongs to another process)
//   means its cleanup was not in the trace: the old socket ends ("unknown"), a new generation
//   starts. Any other event on an unknown Endpoint starts a socket that existed before the trace
//   (or, if the address had been cleaned up, one whose create is missing).
// - Accepts: 1024/1027 exits name the listening Endpoint and the AcceptEndpoint; the accepted
//   socket inherits the listener's process, family, type, protocol and local address. Legacy
//   15/16 name one endpoint: if it is listening it is the listener, else it is the accepted
//   socket, linked to the listener on which the same peer was last indicated (35/36).
// - AfdAbort (1032) with reason 4 or 18 (both indicated by the transport) is a transport abort,
//   any other reason an AFD abort; legacy 7 is AFD's, 8 the transport's.
// - I/O after close: an application request (an enter event, a legacy posted event, bind,
//   connect, option) on a socket after its closesocket; completions of earlier requests are not.
import type { DnsReport } from '../dns/dns-report.ts';
import type { EventIndex, Filetime, Milliseconds, Ticks } from '../decoder/units.ts';
import { TickClock } from '../decoder/time.ts';
import {
	ENTER_EXIT_PHASES,
	TRANSPORT_ABORT_REASONS,
	type AfdLocation,
} from '../generated/afd-semantics.ts';
import { EVENT_MAPS } from '../generated/schemas.ts';
import {
	addressOf,
	CONNECT,
	DATAGRAM,
	numOf,
	RECEIVE,
	REQUEST,
	roleOf,
	SEND,
	type EventRole,
} from './afd-roles.ts';
import { headerPidTrust, ownerCandidate } from './header-pid.ts';
import { locationOf } from './locations.ts';
import { sendStep } from './send-nesting.ts';
import {
	isFailure,
	LEGACY,
	LiveSocket,
	MAX_LINKED_EVENTS,
	MODERN,
	STATUS_PENDING,
	type Family,
	type Mark,
	type Tally,
} from './live-socket.ts';
import { ProcessTable, type ProcessInfo } from './processes.ts';
import { RateWindow } from './rate-window.ts';
import type { SocketSummary } from './socket.ts';
import type { EventOwners } from './event-owners.ts';
import { F, type AfdEventView, type ProcessEventView } from './view.ts';

export interface TrackerOptions {
	/** FILETIME of tick 0: the trace's StartTime. */
	readonly origin: Filetime;
	/** Event indexes kept per socket (default: all; 0: none, they are only counted). */
	readonly maxEventsPerSocket?: number;
	/** A completed send of at most this many bytes is tiny (default 64). */
	readonly tinySendBytes?: number;
	/** This many tiny sends within tinySendWindowMs on one socket is a storm (default 50 in 1 s). */
	readonly tinySendCount?: number;
	readonly tinySendWindowMs?: Milliseconds;
	/** This many select/poll calls within pollWindowMs by one process is a busy loop (100 in 1 s). */
	readonly pollCount?: number;
	readonly pollWindowMs?: Milliseconds;
}

export type Thresholds = Required<Omit<TrackerOptions, 'origin' | 'maxEventsPerSocket'>>;

export const DEFAULT_THRESHOLDS: Thresholds = {
	tinySendBytes: 64,
	tinySendCount: 50,
	tinySendWindowMs: 1000,
	pollCount: 100,
	pollWindowMs: 1000,
};

/** A process's select/poll calls (legacy 30 posted, 31 completed). */
export interface PollActivity {
	readonly eprocess: string;
	readonly pid: number | null;
	readonly process: string;
	readonly selects: number;
	readonly completions: number;
	/** The call at which pollCount calls had fallen within pollWindowMs, or null. */
	readonly busyAt: number | null;
	/** Calls made while the rate stayed at or above the threshold. */
	readonly busyCalls: number;
	/** Record indexes of the first calls (up to 64). */
	readonly events: readonly number[];
}

export interface TrackedTrace {
	/** FILETIME of tick 0, as a decimal string. */
	readonly origin: string;
	/** Ticks of the last event seen. */
	readonly endTicks: Ticks;
	readonly afdEvents: number;
	/** In order of their first event. */
	readonly sockets: SocketSummary[];
	readonly processes: ProcessInfo[];
	readonly pollers: PollActivity[];
	readonly thresholds: Thresholds;
	/**
	 * Send exits at Locations not known either way that nesting judged the inner part of a send
	 * already counted (event indexes, ascending): the statistics leave their bytes out too.
	 * Absent in sockets stored before it was kept.
	 */
	readonly uncountedSends?: readonly number[];
	/** Every DNS lookup of the trace (DNS-Client, getaddrinfo); absent when it logs none. */
	readonly dns?: DnsReport;
	/**
	 * Who each event is about, through its socket or TCP connection (owners.ts), for the events'
	 * Owner column. Absent in sockets stored before it was kept (the column then says what the
	 * events' own records say).
	 */
	readonly owners?: EventOwners;
}

const SOCK_DGRAM = 2;
const TRANSPORT_ABORTS = new Set(TRANSPORT_ABORT_REASONS);
const MAX_POLL_EVENTS = 64;
const MAX_INDICATED = 4096;

interface Poller {
	eprocess: string;
	selects: number;
	completions: number;
	rate: RateWindow;
	busyAt: number | null;
	busyCalls: number;
	events: number[];
	firstTicks: Ticks;
}

const nonZero = (p: string | undefined): string | null => (p && p !== '0x0' ? p : null);

/**
 * A tracked trace from its overview and its sockets, its keys in the one order every writer of
 * one uses (a trace's JSON is the same whichever way it was made).
 */
export function withSockets(
	overview: Omit<TrackedTrace, 'sockets'>,
	sockets: SocketSummary[],
): TrackedTrace {
	const { origin, endTicks, afdEvents, ...rest } = overview;
	return { origin, endTicks, afdEvents, sockets, ...rest };
}

export class SocketTracker {
	readonly processes = new ProcessTable();
	readonly #origin: Filetime;
	readonly #clock: TickClock;
	readonly #maxEvents: number;
	readonly #t: Thresholds;
	readonly #tinyWindow: number;
	readonly #pollWindow: number;
	readonly #live = new Map<string, LiveSocket>();
	/** The last socket ended on each Endpoint, to absorb the other family's close events. */
	readonly #ended = new Map<string, LiveSocket>();
	readonly #generations = new Map<string, number>();
	readonly #all: LiveSocket[] = [];
	readonly #pollers = new Map<string, Poller>();
	readonly #uncountedSends: number[] = [];
	/** Peer 'addr:port' → the listener it was last indicated on (legacy accept linking). */
	readonly #indicated = new Map<string, LiveSocket>();
	#afdEvents = 0;
	#end = 0;

	constructor(options: TrackerOptions) {
		this.#origin = options.origin;
		this.#clock = new TickClock(options.origin);
		this.#maxEvents = options.maxEventsPerSocket ?? Infinity;
		const t: { -readonly [K in keyof Thresholds]: number } = { ...DEFAULT_THRESHOLDS };
		for (const k of Object.keys(t) as (keyof Thresholds)[]) t[k] = options[k] ?? t[k];
		this.#t = t;
		this.#tinyWindow = this.#t.tinySendWindowMs * 10_000;
		this.#pollWindow = this.#t.pollWindowMs * 10_000;
	}

	/** Reads one process event (names, and EPROCESS → PID from MOF events). */
	process(v: ProcessEventView): void {
		if (v.ticks > this.#end) this.#end = v.ticks;
		this.processes.onEvent(v);
	}

	/** Reads one Winsock-AFD event. Events must come in time order. */
	afd(v: AfdEventView): void {
		this.#afdEvents++;
		const r = roleOf(v.id);
		const ticks = v.ticks;
		const index = v.index;
		if (ticks > this.#end) this.#end = ticks;
		const fam = r.family;
		// EnterExit 2-4 (AFD internal, TCP/IP-caused, AFD-caused) are completions, never calls.
		const phase = fam === MODERN ? v.num(F.EnterExit) : undefined;
		const exit = phase === undefined || (ENTER_EXIT_PHASES[phase] ?? 'exit') === 'exit';
		const location = fam === MODERN ? v.num(F.Location) : undefined;
		const eprocess = nonZero(v.ptr(F.Process));
		if (eprocess && v.headerPid !== null && ownerCandidate(v.headerPid))
			this.#headerPid(eprocess, v.headerPid, ticks, r, exit, location);
		const role = r.role;
		if (role === 'poll-request') return this.#poll(eprocess, ticks, index);
		if (role === 'create') return this.#create(v, r, fam, exit, eprocess);
		if (r.acceptEndpoint >= 0) return this.#acceptWithEndpoint(v, r, exit, eprocess);
		if (fam === LEGACY && role === 'connect-indication') return this.#indication(v, r, eprocess);
		const ep = nonZero(v.ptr(r.endpoint));
		if (!ep) return; // RIO and NRT events name no socket
		const bit = r.closeBits[exit ? 1 : 0]!;
		const s = this.#lookup(ep, eprocess, ticks, index, bit);
		s.see(fam, ticks, index);
		s.closeBits |= bit;
		const t = s.tally(fam);
		if (s.closeRequested && r.bits & REQUEST && (fam === LEGACY || !exit))
			this.#afterClose(s, t, index);
		// Close events and a legacy accept naming the accepted socket are not "doing something".
		if (!bit && !(fam === LEGACY && role === 'accept')) s.activity++;
		if (fam === LEGACY) this.#legacy(v, r, s, t);
		else this.#modern(v, r, s, t, exit, location === undefined ? undefined : locationOf(location));
	}

	/**
	 * What a header PID (above the System PID) teaches about an EPROCESS (header-pid.ts): at a
	 * Location where it is the caller's, the PID (unless a create or the kernel already said); a
	 * weak guess when the event is the caller's own (the enter of an application call, a legacy
	 * posted request) at a Location not known either way, kept only until a trusted source
	 * speaks; otherwise nothing.
	 */
	#headerPid(
		eprocess: string,
		pid: number,
		ticks: Ticks,
		r: EventRole,
		exit: boolean,
		location: number | undefined,
	): void {
		if (this.processes.hasStrongPid(eprocess)) return;
		const own = r.callerPhase === 'any' || (r.callerPhase === 'enter' && !exit);
		const trust = headerPidTrust(location, own);
		if (trust === 'caller') this.processes.learnPid(eprocess, pid, ticks, 'reliable-location');
		else if (trust === 'guess') this.processes.learnPid(eprocess, pid, ticks, 'header');
	}

	#mark(v: AfdEventView): Mark {
		return { ticks: v.ticks, index: v.index };
	}

	#lookup(ep: string, eprocess: string | null, ticks: Ticks, index: EventIndex, closeBit = 0) {
		const s = this.#live.get(ep);
		if (s) return s;
		const ended = this.#ended.get(ep);
		// The other family's close or cleanup of a socket that has just ended.
		if (ended && closeBit && !(ended.closeBits & closeBit)) return ended;
		return this.#open(ep, eprocess, ended ? 'missing-create' : 'before-trace', ticks, index);
	}

	#open(
		ep: string,
		eprocess: string | null,
		origin: LiveSocket['origin'],
		ticks: Ticks,
		index: EventIndex,
	): LiveSocket {
		const generation = this.#generations.get(ep) ?? 0;
		this.#generations.set(ep, generation + 1);
		const s = new LiveSocket(ep, generation, origin, eprocess, ticks, index, this.#maxEvents);
		this.#live.set(ep, s);
		this.#all.push(s);
		return s;
	}

	#retire(s: LiveSocket): void {
		if (this.#live.get(s.endpoint) === s) this.#live.delete(s.endpoint);
		this.#ended.set(s.endpoint, s);
	}

	#create(
		v: AfdEventView,
		r: EventRole,
		fam: Family,
		exit: boolean,
		eprocess: string | null,
	): void {
		const ep = nonZero(v.ptr(r.endpoint));
		if (!ep) return;
		let s = this.#live.get(ep);
		const otherProcess = s && eprocess && s.eprocess && s.eprocess !== eprocess;
		const used = s && (s.activity > 0 || s.closeRequested || s.cleanupStarted);
		if (s && (used || otherProcess)) {
			// The old socket's cleanup is not in the trace: it ends where it was last seen.
			s.reusedWithoutCleanup = true;
			this.#retire(s);
			s = undefined;
		}
		s ??= this.#open(ep, eprocess, 'created', v.ticks, v.index);
		s.see(fam, v.ticks, v.index);
		s.eprocess ??= eprocess;
		s.opened ??= this.#mark(v);
		if (fam === MODERN) s.modernCreate = true;
		else s.legacyCreate = true;
		s.family ??= v.num(F.AddressFamily) ?? null;
		s.type ??= v.num(F.SocketType) ?? null;
		s.protocol ??= v.num(F.Protocol) ?? null;
		const pid = numOf(v, r.pid);
		if (pid !== undefined && pid > 0) {
			if (s.pid === null) {
				s.pid = pid;
				s.pidSource = 'create';
			}
			if (eprocess) this.processes.learnPid(eprocess, pid, v.ticks, 'afd-create');
		}
		const status = exit ? numOf(v, r.status) : undefined;
		if (status !== undefined && isFailure(status))
			s.createFailure = s.error(fam, this.#mark(v), 'create', status);
	}

	#legacy(v: AfdEventView, r: EventRole, s: LiveSocket, t: Tally): void {
		switch (r.role) {
			case 'bind':
				return this.#bound(s, t, LEGACY, v, numOf(v, r.status) ?? 0, addressOf(v, r));
			case 'connect-request':
				return s.connectStart(LEGACY, this.#mark(v), addressOf(v, r));
			case 'connect-completion':
				return s.connectDone(LEGACY, this.#mark(v), numOf(v, r.status) ?? 0);
			case 'abort':
				return this.#abort(
					s,
					v,
					r.abortBy === 'afd' ? 'afd' : 'transport',
					numOf(v, r.reason) ?? 0,
				);
			case 'send-failure':
				t.sendFailures++;
				s.error(LEGACY, this.#mark(v), 'send', numOf(v, r.status) ?? 0);
				return;
			case 'receive-failure':
				t.receiveFailures++;
				s.error(LEGACY, this.#mark(v), 'receive', numOf(v, r.status) ?? 0);
				return;
			case 'close':
				return this.#closeRequest(s, LEGACY, v, numOf(v, r.status));
			case 'cleanup':
				return this.#cleanup(s, LEGACY, v, numOf(v, r.status));
			case 'accept':
				return this.#legacyAccept(s, t, v, r);
			case 'accept-failure':
				s.error(LEGACY, this.#mark(v), 'accept', numOf(v, r.status) ?? 0);
				return;
			case 'send-request':
				t.sendsPosted++;
				t.bytesSendPosted += numOf(v, r.bytes) ?? 0;
				// A sendto names its remote: its completion's, and the socket's if it has none.
				if (r.address >= 0) {
					s.lastSendTo = addressOf(v, r) ?? null;
					this.#peer(s, s.lastSendTo ?? undefined);
				}
				return;
			case 'receive-request':
				t.receivesPosted++;
				t.bytesReceivePosted += numOf(v, r.bytes) ?? 0;
				return;
			case 'receive-completion': {
				const bytes = numOf(v, r.bytes) ?? 0;
				const from = addressOf(v, r);
				t.receives++;
				t.bytesReceived += bytes;
				this.#peer(s, from);
				const remote = r.bits & DATAGRAM || s.type === SOCK_DGRAM ? (from ?? s.remote) : null;
				if (remote) t.datagram(remote, false, bytes, this.#mark(v));
				s.transferred(LEGACY, v.ticks, v.index);
				return;
			}
			case 'send-completion': {
				const bytes = numOf(v, r.bytes) ?? 0;
				this.#sent(s, t, LEGACY, v, bytes);
				// A sendto's completion names no remote: its request did.
				const remote =
					r.bits & DATAGRAM ? (s.lastSendTo ?? s.remote) : s.type === SOCK_DGRAM ? s.remote : null;
				if (remote) t.datagram(remote, true, bytes, this.#mark(v));
				return;
			}
			case 'option':
				return s.option(
					LEGACY,
					this.#mark(v),
					numOf(v, r.option) ?? 0,
					numOf(v, r.value) ?? 0,
					null,
				);
			case 'poll-completion': {
				const err = numOf(v, r.status) ?? 0;
				if (isFailure(err)) s.error(LEGACY, this.#mark(v), 'select', err);
				const p = s.eprocess ? this.#pollers.get(s.eprocess) : undefined;
				if (p) p.completions++;
				return;
			}
			case 'event-select':
				return s.option(LEGACY, this.#mark(v), -1, numOf(v, r.value) ?? 0, null);
			case 'drop':
				this.#peer(s, addressOf(v, r));
				return s.drop(LEGACY, v.index, numOf(v, r.reason) ?? 0, numOf(v, r.bytes) ?? 0);
			case 'data-indication':
				t.indications++;
				t.bytesIndicated += numOf(v, r.bytes) ?? 0;
				return;
			case 'disconnect':
				s.peerDisconnect ??= this.#mark(v);
				return;
		}
	}

	#modern(
		v: AfdEventView,
		r: EventRole,
		s: LiveSocket,
		t: Tally,
		exit: boolean,
		loc: AfdLocation | undefined,
	): void {
		const kind = r.bits;
		const status = exit ? (numOf(v, r.status) ?? 0) : 0;
		// A socket whose create is not in the trace shows its type by its datagram events.
		if (kind & DATAGRAM && s.type === null) s.type = SOCK_DGRAM;
		if (kind & (SEND | RECEIVE)) {
			const address = r.addressAt === (exit ? 'exit' : 'enter') ? addressOf(v, r) : undefined;
			this.#peer(s, address);
			const remote = s.type === SOCK_DGRAM || kind & DATAGRAM ? (address ?? s.remote) : null;
			if (kind & SEND) {
				if (r.bytesAt === 'enter') this.#datagramSend(v, r, s, t, exit, status, remote);
				else this.#streamSend(v, r, s, t, exit, status, remote, loc);
				return;
			}
			if (!exit) {
				t.receivesPosted++;
				t.bytesReceivePosted += numOf(v, r.bytes) ?? 0;
			} else if (status === STATUS_PENDING) return;
			else if (isFailure(status)) {
				t.receiveFailures++;
				s.error(MODERN, this.#mark(v), 'receive', status);
			} else {
				const bytes = numOf(v, r.bytes) ?? 0;
				t.receives++;
				t.bytesReceived += bytes;
				if (remote) t.datagram(remote, false, bytes, this.#mark(v));
				s.transferred(MODERN, v.ticks, v.index);
			}
			return;
		}
		if (kind & CONNECT) {
			const remote = addressOf(v, r);
			if (!exit) s.connectStart(MODERN, this.#mark(v), remote);
			else {
				if (remote) this.#peer(s, remote);
				s.connectDone(MODERN, this.#mark(v), status);
			}
			return;
		}
		switch (r.role) {
			case 'close':
				if (!exit) return this.#closeRequest(s, MODERN, v, undefined);
				if (isFailure(status)) s.error(MODERN, this.#mark(v), 'close', status);
				return;
			case 'cleanup':
				if (!exit) {
					s.cleanupStarted ??= this.#mark(v);
					return;
				}
				return this.#cleanup(s, MODERN, v, status);
			case 'accept':
				if (exit && isFailure(status)) s.error(MODERN, this.#mark(v), 'accept', status);
				else if (exit && status !== STATUS_PENDING) t.accepts++;
				return;
			case 'bind':
				if (!exit) t.bindAttempted = true;
				else this.#bound(s, t, MODERN, v, status, addressOf(v, r));
				return;
			case 'abort': {
				const reason = numOf(v, r.reason) ?? 0;
				const byTransport =
					r.abortBy === 'reason' ? TRANSPORT_ABORTS.has(reason) : r.abortBy === 'transport';
				return this.#abort(s, v, byTransport ? 'transport' : 'afd', reason);
			}
			case 'drop':
				this.#peer(s, addressOf(v, r));
				return s.drop(MODERN, v.index, numOf(v, r.reason) ?? 0, numOf(v, r.bytes) ?? 0);
			case 'option':
				if (exit)
					s.option(MODERN, this.#mark(v), numOf(v, r.option) ?? 0, numOf(v, r.value) ?? 0, status);
				return;
			case 'listen':
				if (exit && !isFailure(status) && status !== STATUS_PENDING) s.listening = true;
				else if (exit && isFailure(status)) s.error(MODERN, this.#mark(v), 'listen', status);
				return;
			case 'connect-indication':
				s.listening = true;
				return;
			case 'data-indication':
				t.indications++;
				t.bytesIndicated += numOf(v, r.bytes) ?? 0;
				return;
			case 'disconnect':
				s.peerDisconnect ??= this.#mark(v);
				return;
		}
	}

	/**
	 * A send whose bytes are at the exit (AfdSend): what each enter and exit is, send-nesting.ts
	 * decides (nested pairs on one thread, buffered completions, unknown Locations).
	 */
	#streamSend(
		v: AfdEventView,
		r: EventRole,
		s: LiveSocket,
		t: Tally,
		exit: boolean,
		status: number,
		remote: string | null,
		loc: AfdLocation | undefined,
	): void {
		switch (sendStep(s, v.tid ?? -1, exit, r.nests, status === STATUS_PENDING, loc)) {
			case 'request':
				t.sendsPosted++;
				t.bytesSendPosted += numOf(v, r.bytes) ?? 0;
				return;
			case 'nested':
				t.nestedSendExits++;
				t.nestedSendBytes += numOf(v, r.bytes) ?? 0;
				this.#uncountedSends.push(v.index);
				return;
			case 'outcome':
				break;
			default:
				return;
		}
		if (isFailure(status)) {
			t.sendFailures++;
			s.error(MODERN, this.#mark(v), 'send', status);
			return;
		}
		const bytes = numOf(v, r.bytes) ?? 0;
		this.#sent(s, t, MODERN, v, bytes);
		if (remote) t.datagram(remote, true, bytes, this.#mark(v));
	}

	/**
	 * A datagram send whose bytes are at the enter (SendMessageWithAddress): its exit is optional.
	 * The exit counts only on a socket whose datagram-send enters are not in the trace; a failed
	 * exit takes back the datagram its thread's enter counted.
	 */
	#datagramSend(
		v: AfdEventView,
		r: EventRole,
		s: LiveSocket,
		t: Tally,
		exit: boolean,
		status: number,
		remote: string | null,
	): void {
		const tid = v.tid ?? -1;
		const bytes = numOf(v, r.bytes) ?? 0;
		if (!exit) {
			t.sendsPosted++;
			t.bytesSendPosted += bytes;
			t.datagramSendEnters++;
			this.#sent(s, t, MODERN, v, bytes);
			if (remote) t.datagram(remote, true, bytes, this.#mark(v));
			(s.datagramInFlight ??= new Map()).set(tid, { bytes, remote });
			return;
		}
		const inFlight = s.datagramInFlight?.get(tid);
		s.datagramInFlight?.delete(tid);
		if (status === STATUS_PENDING) return;
		if (isFailure(status)) {
			t.sendFailures++;
			s.error(MODERN, this.#mark(v), 'send', status);
			if (!inFlight) return;
			t.sends--;
			t.bytesSent -= inFlight.bytes;
			if (inFlight.remote) t.datagram(inFlight.remote, true, inFlight.bytes, this.#mark(v), -1);
			return;
		}
		if (t.datagramSendEnters > 0) return;
		this.#sent(s, t, MODERN, v, bytes);
		// Its enter, which has the address by the table, is not in the trace: the exit's, if any.
		const to = addressOf(v, r) ?? remote;
		this.#peer(s, to ?? undefined);
		if (to) t.datagram(to, true, bytes, this.#mark(v));
	}

	/** Bind outcome: the bound local address on success. */
	#bound(
		s: LiveSocket,
		t: Tally,
		fam: Family,
		v: AfdEventView,
		status: number,
		local: string | undefined,
	): void {
		t.bindAttempted = true;
		if (status === STATUS_PENDING) return;
		if (isFailure(status)) {
			const e = s.error(fam, this.#mark(v), 'bind', status);
			s.bindFailure ??= e;
			return;
		}
		if (local && !s.local) s.local = local;
		s.bound ??= this.#mark(v);
	}

	#sent(s: LiveSocket, t: Tally, fam: Family, v: AfdEventView, bytes: number): void {
		t.sends++;
		t.bytesSent += bytes;
		s.transferred(fam, v.ticks, v.index);
		if (bytes > this.#t.tinySendBytes) return;
		t.tinySends++;
		t.tinyRate ??= new RateWindow(this.#t.tinySendCount, this.#tinyWindow);
		if (t.tinyRate.hit(v.ticks)) s.tinyStorm ??= v.index;
	}

	/** A peer address from data transfers, when connect or accept did not give one. */
	#peer(s: LiveSocket, address: string | undefined): void {
		if (address && !s.remote) s.remote = address;
	}

	#closeRequest(s: LiveSocket, fam: Family, v: AfdEventView, status: number | undefined): void {
		s.closeRequested ??= this.#mark(v);
		if (status !== undefined && isFailure(status)) s.error(fam, this.#mark(v), 'close', status);
	}

	#cleanup(s: LiveSocket, fam: Family, v: AfdEventView, status: number | undefined): void {
		if (status !== undefined && isFailure(status)) s.error(fam, this.#mark(v), 'close', status);
		if (s.closed) return; // the other family's cleanup of a socket already ended
		s.closed = this.#mark(v);
		this.#retire(s);
	}

	#abort(s: LiveSocket, v: AfdEventView, by: 'afd' | 'transport', reason: number): void {
		if (s.abort) return;
		s.abort = {
			by,
			reason,
			reasonName: EVENT_MAPS.afdAbort?.[reason] ?? null,
			index: v.index,
		};
	}

	#afterClose(s: LiveSocket, t: Tally, index: EventIndex): void {
		t.ioAfterClose++;
		if (s.afterClose.length < MAX_LINKED_EVENTS && !s.afterClose.includes(index))
			(s.afterClose = s.afterClose.length ? s.afterClose : []).push(index);
	}

	/** A connection indicated on a listening socket (legacy 35/36: they name the listener). */
	#indication(v: AfdEventView, r: EventRole, eprocess: string | null): void {
		const ep = nonZero(v.ptr(r.endpoint));
		if (!ep) return;
		const s = this.#lookup(ep, eprocess, v.ticks, v.index);
		s.see(LEGACY, v.ticks, v.index);
		s.activity++;
		s.listening = true;
		const peer = addressOf(v, r);
		if (!peer) return;
		if (this.#indicated.size >= MAX_INDICATED)
			this.#indicated.delete(this.#indicated.keys().next().value!);
		this.#indicated.set(peer, s);
	}

	/** Legacy 15/16: the listener's accept, or the accepted socket's (see the rules above). */
	#legacyAccept(s: LiveSocket, t: Tally, v: AfdEventView, r: EventRole): void {
		const status = numOf(v, r.status) ?? 0;
		if (s.listening) {
			s.activity++;
			if (isFailure(status)) s.error(LEGACY, this.#mark(v), 'accept', status);
			else t.accepts++;
			return;
		}
		if (isFailure(status)) {
			s.error(LEGACY, this.#mark(v), 'accept', status);
			return;
		}
		const peer = addressOf(v, r);
		const listener = peer ? this.#indicated.get(peer) : undefined;
		if (peer) this.#indicated.delete(peer);
		this.#accepted(s, listener ?? null, peer, LEGACY, v);
	}

	/** 1024/1027: accept on a listening Endpoint, naming the accepted one on exit. */
	#acceptWithEndpoint(v: AfdEventView, r: EventRole, exit: boolean, eprocess: string | null): void {
		const ep = nonZero(v.ptr(r.endpoint));
		const acceptEp = exit ? nonZero(v.ptr(r.acceptEndpoint)) : null;
		if (ep) {
			const l = this.#lookup(ep, eprocess, v.ticks, v.index);
			l.see(MODERN, v.ticks, v.index);
			l.activity++;
			if (l.closeRequested && !exit) this.#afterClose(l, l.tally(MODERN), v.index);
			const status = numOf(v, r.status) ?? 0;
			if (exit && isFailure(status)) l.error(MODERN, this.#mark(v), 'accept', status);
			else if (exit && status !== STATUS_PENDING) {
				l.tally(MODERN).accepts++;
				l.listening = true;
			}
			if (!exit || !acceptEp || isFailure(status) || status === STATUS_PENDING) return;
			// AcceptEx accepts into a socket the application created: that one goes on.
			const a =
				this.#live.get(acceptEp) ?? this.#open(acceptEp, eprocess, 'accepted', v.ticks, v.index);
			a.see(MODERN, v.ticks, v.index);
			this.#accepted(a, l, addressOf(v, r), MODERN, v);
		}
	}

	#accepted(
		a: LiveSocket,
		listener: LiveSocket | null,
		peer: string | undefined,
		fam: Family,
		v: AfdEventView,
	): void {
		a.accepted = true;
		a.opened ??= this.#mark(v);
		if (peer && !a.remote) a.remote = peer;
		if (listener && listener !== a) {
			a.listener ??= listener;
			a.eprocess ??= listener.eprocess;
			if (a.pid === null && listener.pid !== null) {
				a.pid = listener.pid;
				a.pidSource = 'listener';
			}
			a.family ??= listener.family;
			a.type ??= listener.type;
			a.protocol ??= listener.protocol;
			a.local ??= listener.local;
			if (fam === LEGACY) listener.tally(LEGACY).accepts++;
		}
	}

	#poll(eprocess: string | null, ticks: Ticks, index: EventIndex): void {
		if (!eprocess) return;
		let p = this.#pollers.get(eprocess);
		if (!p) {
			p = {
				eprocess,
				selects: 0,
				completions: 0,
				rate: new RateWindow(this.#t.pollCount, this.#pollWindow),
				busyAt: null,
				busyCalls: 0,
				events: [],
				firstTicks: ticks,
			};
			this.#pollers.set(eprocess, p);
		}
		p.selects++;
		if (p.events.length < MAX_POLL_EVENTS) p.events.push(index);
		if (p.rate.hit(ticks)) {
			p.busyAt ??= index;
			p.busyCalls++;
		}
	}

	/** How many sockets there are so far. */
	get socketCount(): number {
		return this.#all.length;
	}

	/**
	 * The sockets as they stand, one summary at a time in order of their first event: a reader
	 * that writes each out holds one summary, not all of them.
	 */
	*summaries(): Generator<SocketSummary> {
		for (const s of this.#all) yield s.summary(this.#clock, this.processes);
	}

	/** The sockets as they stand: ended ones, and live ones as open at the end of the trace. */
	snapshot(): TrackedTrace {
		return withSockets(this.overview(), [...this.summaries()]);
	}

	/**
	 * Each socket's summary, for a tracker that is done (the end of an import): each socket's state
	 * is let go once its summary is made, so that the states of every socket and their summaries
	 * are not held at once. The tracker holds no socket after; take its overview() first.
	 */
	*drain(): Generator<SocketSummary> {
		this.#live.clear();
		this.#ended.clear();
		this.#indicated.clear();
		const all: (LiveSocket | undefined)[] = this.#all.splice(0);
		for (let i = 0; i < all.length; i++) {
			const socket = all[i]!;
			yield socket.summary(this.#clock, this.processes);
			// Its summary holds a copy of its event indexes: theirs are freed at once.
			socket.events?.free();
			// A socket accepted later may still name it as its listener: that keeps it, not this.
			all[i] = undefined;
		}
	}

	/** All of the snapshot but the sockets. */
	overview(): Omit<TrackedTrace, 'sockets'> {
		const pollers = [...this.#pollers.values()].map((p): PollActivity => {
			const pid = this.processes.pidOf(p.eprocess, p.firstTicks);
			return {
				eprocess: p.eprocess,
				pid,
				process: this.processes.label(pid, p.firstTicks),
				selects: p.selects,
				completions: p.completions,
				busyAt: p.busyAt,
				busyCalls: p.busyCalls,
				events: [...p.events],
			};
		});
		return {
			origin: this.#origin.toString(),
			endTicks: this.#end,
			afdEvents: this.#afdEvents,
			processes: this.processes.list(),
			pollers,
			thresholds: { ...this.#t },
			uncountedSends: [...this.#uncountedSends],
		};
	}
}
