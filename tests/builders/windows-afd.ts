// Winsock-AFD logged the way Windows logs it (docs: real-trace-semantics.md, from NetBlame,
// CaYaTrace and a measured probe), written with the test ETL writer, with the figures a correct
// reconstruction must report. The figures come from what the script says the application did
// (`send(517)` sent 517 bytes, however many events Windows logs for it), never from a tracker.
//
// What Windows does and the script reproduces:
// - one TCP send is nested enter/exit pairs on one thread, 3047 → 3056 → 3073 → 3051, each with the
//   same length; a buffered send completes once more later (3024) on another thread;
// - a datagram send (SendMessageWithAddress 1013) carries its bytes at the enter; its exit may
//   not come at all;
// - a receive's enter carries the buffer offered (17,408 bytes), its exit the bytes read;
// - completions run on whatever thread was interrupted: their header PID and TID are another
//   process's (or System's, PID 4), at Locations known to be unreliable (4114, 4123, 4052, 3024,
//   AfdClose 2001 in PID 4);
// - sockets opened before the trace (no create), datagram sockets without a create, one datagram
//   socket talking to several remotes, and a dead process's EPROCESS reused by a new process.
// Locations not in the facts document's tables (4300, 3990-3993, 5024, 1099) stand for code
// sites a build may have that no source lists.

import {
	Lifecycles,
	AF_INET,
	SOCK_DGRAM,
	SOCK_STREAM,
	IPPROTO_TCP,
	IPPROTO_UDP,
	SYSTEM_CONTEXT,
} from './lifecycles.ts';
import type { Proc } from './lifecycles.ts';
import { AFD } from './afd-vocabulary.ts';
import type { EtlFile, PayloadValues } from './etl-writer.ts';

/** Where the header PID/TID of an event come from. */
type Context = 'caller' | 'system' | { pid: number; tid: number };

export interface ExpectedPeer {
	remote: string;
	bytesSent: number;
	bytesReceived: number;
	datagramsSent: number;
	datagramsReceived: number;
}

/** What the tracker must report for one socket (fields as in SocketSummary). */
export interface WindowsExpected {
	key: string;
	pid: number | null;
	pidSource: string | null;
	origin: 'created' | 'before-trace';
	type: number | null;
	remote: string | null;
	bytesSent: number;
	sends: number;
	sendsPosted: number;
	bytesSendPosted: number;
	bytesReceived: number;
	receives: number;
	receivesPosted: number;
	bytesReceivePosted: number;
	nestedSendExits: number;
	nestedSendBytes: number;
	peers: ExpectedPeer[];
	state: 'closed' | 'open at end of trace';
}

/** How each process's PID can be known from the trace (see expected()). */
interface ProcessFacts {
	proc: Proc;
	/** PIDs its creates named, with when (a reused EPROCESS names two). */
	creates: { ms: number; pid: number }[];
	reliable: boolean;
	mof: boolean;
}

export class WindowsAfd {
	readonly lc = new Lifecycles({ families: 'modern' });
	readonly sockets: WinSocket[] = [];
	readonly #facts = new Map<bigint, ProcessFacts>();

	/** A process; `announce: 'mof'` names its EPROCESS in a kernel rundown. */
	process(o: Parameters<Lifecycles['process']>[0]): Proc {
		const p = this.lc.process(o);
		if (!this.#facts.has(p.eprocess))
			this.#facts.set(p.eprocess, { proc: p, creates: [], reliable: false, mof: false });
		if (p.announce === 'mof') this.#facts.get(p.eprocess)!.mof = true;
		return p;
	}

	facts(p: Proc): ProcessFacts {
		return this.#facts.get(p.eprocess)!;
	}

	socket(
		proc: Proc,
		o: { at: number; type?: number; create?: boolean; endpoint?: bigint },
	): WinSocket {
		const s = new WinSocket(this, proc, o.at, o.type ?? SOCK_STREAM, o.endpoint);
		this.sockets.push(s);
		if (o.create ?? true) s.create();
		return s;
	}

	/** One AFD event with the header PID/TID of `ctx`. */
	event(
		s: WinSocket,
		ms: number,
		id: number,
		enterExit: number,
		location: number,
		ctx: Context,
		values: PayloadValues,
		reliable = false,
	): void {
		if (reliable && ctx === 'caller') this.facts(s.proc).reliable = true;
		this.lc.afdIn(
			s.proc,
			this.lc.at(ms),
			id,
			{ EnterExit: enterExit, Location: location, Endpoint: s.endpoint, ...values },
			ctx === 'caller' ? null : ctx === 'system' ? SYSTEM_CONTEXT : ctx,
		);
	}

	finish(): { file: EtlFile; expected: WindowsExpected[] } {
		const file = this.lc.w.finish();
		return { file, expected: this.sockets.map((s) => this.#expected(s)) };
	}

	/**
	 * A socket's PID is its create's; a socket without one gets its process's PID when the trace
	 * ties the EPROCESS to it at all: another socket's create (the one in force when the socket was
	 * first seen, else the first), the kernel's process events, or an event at a reliable Location.
	 */
	#expected(s: WinSocket): WindowsExpected {
		const f = this.facts(s.proc);
		let pid: number | null = s.x.pid;
		let pidSource: string | null = s.x.pid === null ? null : 'create';
		if (pid === null) {
			const c = f.creates.findLast((c) => c.ms <= s.firstMs) ?? f.creates[0];
			if (c) [pid, pidSource] = [c.pid, 'process-map'];
			else if (f.mof) [pid, pidSource] = [f.proc.pid, 'kernel-process'];
			else if (f.reliable) [pid, pidSource] = [f.proc.pid, 'reliable-location'];
		}
		return { ...s.x, pid, pidSource, peers: [...s.peers.values()] };
	}
}

export class WinSocket {
	readonly sc: WindowsAfd;
	readonly proc: Proc;
	readonly endpoint: bigint;
	readonly x: WindowsExpected;
	readonly peers = new Map<string, ExpectedPeer>();
	readonly firstMs: number;
	ms: number;

	constructor(sc: WindowsAfd, proc: Proc, at: number, type: number, endpoint?: bigint) {
		this.sc = sc;
		this.proc = proc;
		this.endpoint = endpoint ?? sc.lc.endpoint(proc);
		this.ms = at;
		this.firstMs = at;
		const ep = `0x${this.endpoint.toString(16)}`;
		this.x = {
			key: `${ep}#${sc.lc.generation(this.endpoint)}`,
			pid: null,
			pidSource: null,
			origin: 'before-trace',
			// A socket without a create shows it is a datagram socket by its datagram events.
			type: type === SOCK_DGRAM ? SOCK_DGRAM : null,
			remote: null,
			bytesSent: 0,
			sends: 0,
			sendsPosted: 0,
			bytesSendPosted: 0,
			bytesReceived: 0,
			receives: 0,
			receivesPosted: 0,
			bytesReceivePosted: 0,
			nestedSendExits: 0,
			nestedSendBytes: 0,
			peers: [],
			state: 'open at end of trace',
		};
		this.#type = type;
	}

	readonly #type: number;

	/** The next moment on this socket's clock (`ms` after the last). */
	#at(ms = 0.05): number {
		this.ms += ms;
		return this.ms;
	}

	#ev(
		id: number,
		enterExit: number,
		location: number,
		values: PayloadValues,
		ctx: Context = 'caller',
		reliable = false,
	): void {
		this.sc.event(this, this.#at(), id, enterExit, location, ctx, values, reliable);
	}

	#peer(remote: string): ExpectedPeer {
		let p = this.peers.get(remote);
		if (!p) {
			p = { remote, bytesSent: 0, bytesReceived: 0, datagramsSent: 0, datagramsReceived: 0 };
			this.peers.set(remote, p);
		}
		this.x.remote ??= remote;
		return p;
	}

	/** AfdCreate at the reliable Locations 1002 (enter) and 1012 (exit). */
	create(): this {
		const udp = this.#type === SOCK_DGRAM;
		const v = {
			AddressFamily: AF_INET,
			SocketType: this.#type,
			Protocol: udp ? IPPROTO_UDP : IPPROTO_TCP,
			ProcessId: this.proc.pid,
		};
		this.#ev(AFD.AfdCreate!, 0, 1002, v, 'caller', true);
		this.#ev(AFD.AfdCreate!, 1, 1012, { ...v, Status: 0 }, 'caller', true);
		this.sc.facts(this.proc).creates.push({ ms: this.firstMs, pid: this.proc.pid });
		Object.assign(this.x, { pid: this.proc.pid, origin: 'created', type: this.#type });
		return this;
	}

	/**
	 * Bind at 7010/7022, connect at 5023 (its exit at a Location no source lists); `status`: how the
	 * connect ended, `exitAfterMs` later (a refused or timed-out connect fails with an NTSTATUS).
	 */
	connect(local: string, remote: string, o: { status?: number; exitAfterMs?: number } = {}): this {
		this.#ev(AFD.AfdBindWithAddress!, 0, 7010, { Address: '0.0.0.0:0' }, 'caller', true);
		this.#ev(AFD.AfdBindWithAddress!, 1, 7022, { Status: 0, Address: local }, 'caller', true);
		this.#ev(AFD.AfdConnectWithAddress!, 0, 5023, { Address: remote }, 'caller', true);
		this.ms += o.exitAfterMs ?? 0;
		this.#ev(AFD.AfdConnectWithAddress!, 1, 5024, { Status: o.status ?? 0, Address: remote });
		this.x.remote ??= remote;
		return this;
	}

	#sendValues(n: number): PayloadValues {
		return { BufferCount: 1, Buffer: 0x1d4c8e20000n, BufferLength: n };
	}

	/**
	 * One TCP send of `n` bytes: 3047 → 3056 → 3073 → 3051 on the caller's thread; `buffered`: the
	 * data is buffered and AfdRestartBufferSend completes it again later (3024) on a System thread.
	 */
	send(n: number, o: { buffered?: boolean } = {}): this {
		const v = this.#sendValues(n);
		this.#ev(AFD.AfdSend!, 0, 3047, v, 'caller', true);
		if (!o.buffered) {
			this.#ev(AFD.AfdSend!, 0, 3056, v);
			this.#ev(AFD.AfdSend!, 1, 3073, { ...v, Status: 0 });
		}
		this.#ev(AFD.AfdSend!, 1, 3051, { ...v, Status: 0 }, 'caller', true);
		if (o.buffered) this.#ev(AFD.AfdSend!, 1, 3024, { ...v, Status: 0 }, 'system');
		this.#sent(n);
		return this;
	}

	/** One send logged as nested pairs at Locations no source lists: the inner exit is a guess. */
	sendUnknownNested(n: number): this {
		const v = this.#sendValues(n);
		this.#ev(AFD.AfdSend!, 0, 3990, v);
		this.#ev(AFD.AfdSend!, 0, 3991, v);
		this.#ev(AFD.AfdSend!, 1, 3992, { ...v, Status: 0 });
		this.#ev(AFD.AfdSend!, 1, 3993, { ...v, Status: 0 });
		this.#sent(n);
		this.x.nestedSendExits++;
		this.x.nestedSendBytes += n;
		return this;
	}

	#sent(n: number): void {
		this.x.sends++;
		this.x.bytesSent += n;
		this.x.sendsPosted++;
		this.x.bytesSendPosted += n;
	}

	/**
	 * A receive offering `offered` bytes that reads `n`. `completion`: where the exit is logged: on
	 * the caller's thread (4109), or by another context at an unreliable Location (4114).
	 */
	recv(n: number, o: { offered?: number; completion?: Context } = {}): this {
		const offered = o.offered ?? 17_408;
		const v = { BufferCount: 1, Buffer: 0x1d4c8e30000n };
		const ctx = o.completion ?? 'caller';
		this.#ev(AFD.AfdReceive!, 0, 4106, { ...v, BufferLength: offered }, 'caller', true);
		this.#ev(
			AFD.AfdReceive!,
			1,
			ctx === 'caller' ? 4109 : 4114,
			{ ...v, BufferLength: n, Status: 0 },
			ctx,
			ctx === 'caller',
		);
		this.x.receives++;
		this.x.bytesReceived += n;
		this.x.receivesPosted++;
		this.x.bytesReceivePosted += offered;
		return this;
	}

	/** Only the completion of a receive posted before the trace, in another context (4123). */
	recvCompletionOnly(n: number, ctx: Context): this {
		this.#ev(
			AFD.AfdReceive!,
			1,
			4123,
			{ BufferCount: 1, Buffer: 0x1d4c8e30000n, BufferLength: n, Status: 0 },
			ctx,
		);
		this.x.receives++;
		this.x.bytesReceived += n;
		return this;
	}

	/** SendMessageWithAddress: bytes at the enter (3100); the exit (3200) only when `exit`. */
	sendto(remote: string, n: number, o: { exit?: boolean } = {}): this {
		const v = { ...this.#sendValues(n), Address: remote };
		this.#ev(AFD.AfdSendMessageWithAddress!, 0, 3100, v, 'caller', true);
		if (o.exit)
			this.#ev(AFD.AfdSendMessageWithAddress!, 1, 3200, { ...v, Status: 0 }, 'caller', true);
		this.#sent(n);
		const p = this.#peer(remote);
		p.bytesSent += n;
		p.datagramsSent++;
		return this;
	}

	/**
	 * ReceiveMessageWithAddress: the enter offers 1472 bytes (at a Location no source lists); the
	 * exit reads `n` from `remote`, asynchronously (4052, in System's context) or not (4201).
	 */
	recvfrom(remote: string, n: number, o: { async?: boolean } = {}): this {
		const v = { BufferCount: 1, Buffer: 0x1d4c8e40000n };
		const async = o.async ?? true;
		this.#ev(AFD.AfdReceiveMessageWithAddress!, 0, 4300, { ...v, BufferLength: 1472 });
		this.#ev(
			AFD.AfdReceiveMessageWithAddress!,
			1,
			async ? 4052 : 4201,
			{ ...v, BufferLength: n, Status: 0, Address: remote },
			async ? 'system' : 'caller',
			!async,
		);
		this.x.receives++;
		this.x.bytesReceived += n;
		this.x.receivesPosted++;
		this.x.bytesReceivePosted += 1472;
		const p = this.#peer(remote);
		p.bytesReceived += n;
		p.datagramsReceived++;
		return this;
	}

	/** closesocket: AfdClose 2000 (caller) and 2001 logged in System (PID 4); AfdCleanup. */
	close(o: { closeIn?: Context } = {}): this {
		const ctx = o.closeIn ?? 'caller';
		this.#ev(AFD.AfdClose!, 0, 2000, {}, ctx, ctx === 'caller');
		this.#ev(AFD.AfdClose!, 1, 2001, { Status: 0 }, 'system');
		this.#ev(AFD.AfdCleanup!, 0, 1099, {}, 'system');
		this.#ev(AFD.AfdCleanup!, 1, 1099, { Status: 0 }, 'system');
		this.x.state = 'closed';
		return this;
	}
}

/**
 * The scenario the tests read: every behaviour above at least once.
 * - edge.exe: a TCP connection with nested, buffered and unknown-Location sends and receives
 *   completed in other contexts; a UDP socket talking to two DNS servers, sends with and without
 *   exits; a socket from before the trace (PID from its create elsewhere, back-filled).
 * - dnscache (svchost.exe, never announced): a UDP socket without a create, two peers, PID from the
 *   reliable Location of its first send.
 * - old.exe: a socket from before the trace whose first event is a completion logged in edge.exe's
 *   context (4123): its PID comes only later, from a send at a reliable Location.
 * - ghost.exe: a socket from before the trace with only unreliable events and AfdClose in PID 4:
 *   no PID.
 * - indexer.exe (named by the kernel's rundown): a socket from before the trace, PID from the
 *   kernel's process events.
 * - a dead process's EPROCESS reused by a new one: sockets without a create get the PID in force
 *   when they were first seen.
 */
export function windowsScenario(): { file: EtlFile; expected: WindowsExpected[] } {
	const sc = new WindowsAfd();
	const edge = sc.process({ pid: 6100, name: 'msedge.exe', eprocess: 0xffffa50c61000080n });
	const dns = sc.process({
		pid: 2400,
		name: 'svchost.exe',
		eprocess: 0xffffa50c24000080n,
		announce: 'none',
	});
	const old = sc.process({ pid: 7300, name: 'old.exe', eprocess: 0xffffa50c73000080n });
	const ghost = sc.process({ pid: 8800, name: 'ghost.exe', eprocess: 0xffffa50c88000080n });
	const indexer = sc.process({
		pid: 9100,
		name: 'indexer.exe',
		eprocess: 0xffffa50c91000080n,
		announce: 'mof',
	});
	const edgeCtx = { pid: edge.pid, tid: edge.tid };

	// Sockets from before the trace, first seen before any create of their process.
	sc.socket(edge, { at: 2, create: false }).send(300).recv(1200, { completion: 'system' });
	sc.socket(old, { at: 3, create: false })
		.recvCompletionOnly(640, edgeCtx)
		.send(90)
		.recv(2000, { completion: edgeCtx });
	sc.socket(ghost, { at: 4, create: false })
		.recvCompletionOnly(77, edgeCtx)
		.close({ closeIn: 'system' });
	sc.socket(indexer, { at: 5, create: false }).recvCompletionOnly(512, 'system');

	sc.socket(edge, { at: 10 })
		.connect('0.0.0.0:50443', '20.190.160.1:443')
		.send(517)
		.recv(4000, { completion: 'system' })
		.send(1200, { buffered: true })
		.recv(900)
		.sendUnknownNested(260)
		.recv(18_000, { offered: 65_536, completion: { pid: 1337, tid: 1412 } })
		.close();
	sc.socket(edge, { at: 20, type: SOCK_DGRAM })
		.sendto('192.168.1.1:53', 40)
		.sendto('8.8.8.8:53', 40, { exit: true })
		.recvfrom('192.168.1.1:53', 120)
		.recvfrom('8.8.8.8:53', 136, { async: false })
		.sendto('192.168.1.1:53', 33)
		.close();
	sc.socket(dns, { at: 30, type: SOCK_DGRAM, create: false })
		.sendto('192.168.1.1:53', 45)
		.sendto('[2001:4860:4860::8888]:53', 45, { exit: true })
		.recvfrom('[2001:4860:4860::8888]:53', 200)
		.recvfrom('192.168.1.1:53', 180);

	// EPROCESS reuse: reused.exe (5000) dies, next.exe (5100) gets its EPROCESS.
	const shared = 0xffffa50c50000080n;
	const first = sc.process({ pid: 5000, name: 'reused.exe', eprocess: shared });
	const second = sc.process({ pid: 5100, name: 'next.exe', eprocess: shared });
	sc.socket(first, { at: 40 }).connect('0.0.0.0:50500', '10.0.0.1:80').send(10).close();
	sc.socket(first, { at: 45, create: false }).recvCompletionOnly(11, 'system');
	sc.socket(second, { at: 60 }).connect('0.0.0.0:50501', '10.0.0.2:80').send(12).close();
	sc.socket(second, { at: 70, create: false }).recvCompletionOnly(13, 'system');
	return sc.finish();
}
