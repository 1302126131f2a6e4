// The bundled sample trace (public/sample.etl) and its ground truth
// (tests/fixtures/sample/sample.truth.json): a deterministic, realistic Winsock-AFD session
// written with the test ETL writer. scripts/make-sample.ts writes the files; sample.test.ts
// checks that the committed files equal a fresh build byte for byte.
//
// Scenario (4 CPUs, build 22621, 64-bit, QPC 10 MHz, 64 KiB uncompressed buffers, logger
// "winsock", about 4.3 s from 2026-03-14T09:26:53.5897932Z):
// - Kernel-Process ProcessStart events name the processes.
// - chrome.exe (4120): TLS connections to :443 over IPv4 and IPv6 with modern enter/exit events
//   (create 1000, bind 1030, connect 1018, send 1003, receive 1004, close 1001, cleanup 1002),
//   one ended by a transport disconnect (3006), one still open at the end, and DNS over UDP to
//   192.168.1.1:53 and [fe80::1%12]:53 (option 1035, sendto 1007, recvfrom 1009, a dropped
//   datagram 1033). Transport-side events (3000+) carry header PID 4.
// - svchost.exe (1337): listens on 0.0.0.0:8080 (bind, listen 1037), accepts (3001 indication,
//   accept 1024 with AcceptEndpoint), serves requests; one connection is aborted (1032, reason 4)
//   and its pending receive fails with STATUS_CONNECTION_RESET.
// - curl.exe (5200): a connect to 10.0.0.5:8081 refused (STATUS_CONNECTION_REFUSED) and one to
//   203.0.113.9:443 that times out (STATUS_IO_TIMEOUT).
// - legacyapp.exe (2222): the legacy events 1, 2, 4, 6, 18, 24, 23, 13, 14 in EVENT32 records
//   (4-byte pointers).
// Logged the way Windows logs it (docs: real-trace-semantics.md): Locations from the sources where
// they name one (create 1002/1012, bind 7010/7022, connect 5023, send 3047/3051, receive
// 4106/4109, close 2000/2001; the others are code sites no source lists); each send is nested
// enter/exit pairs (3047 → 3056 → 3073 → 3051) and a large one is buffered and completed again
// later (3024) on a System thread; receives that wait complete in System's context (4114, header
// PID 4), as does AfdClose's exit (2001). See windowsLogging() and dnsCacheFromBeforeTrace().

import { addSampleNetEvents } from './sample-net.ts';
import { filetimeFromIso, filetimeToIso } from './bytes.ts';
import { EtlWriter, type EtlFile, type PayloadValues, type RecordKindName } from './etl-writer.ts';
import { AfdScenario, type AfdThread, type Header } from './afd-scenario.ts';
import {
	AF_INET,
	AF_INET6,
	IPPROTO_TCP,
	IPPROTO_UDP,
	SOCK_DGRAM,
	SOCK_STREAM,
	STATUS_CONNECTION_REFUSED,
	STATUS_CONNECTION_RESET,
	STATUS_IO_TIMEOUT,
	STATUS_SUCCESS,
	afdId,
	ntstatusName,
	sourced,
	type LocationTable,
	AFD,
} from './afd-vocabulary.ts';

export const SAMPLE_START_ISO = '2026-03-14T09:26:53.5897932Z';
export const SAMPLE_SEED = 0x50c5c0de;

const START = filetimeFromIso(SAMPLE_START_ISO);

function statusName(status: number): string {
	const n = ntstatusName(status);
	if (!n) throw new Error(`no NTSTATUS name for 0x${status.toString(16)}`);
	return n;
}

function hex(v: bigint): string {
	return `0x${v.toString(16)}`;
}

// ---------------------------------------------------------------------------------------------
// Ground truth types (serialised to JSON: FILETIMEs and pointers as strings)

export interface ProcessTruth {
	pid: number;
	name: string;
	image: string;
	eprocess: string;
	parentPid: number;
	sessionId: number;
	/** FILETIME (decimal string) of the ProcessStart event = CreateTime. */
	created: string;
	createdIso: string;
	/** Pointer width of this process's AFD records (4 = EVENT32). */
	pointerSize: 4 | 8;
	/** AFD events whose Process field is this EPROCESS (header PID may be 4 for 3000+). */
	afdEvents: number;
}

export type SocketOutcome = 'ok' | 'refused' | 'timeout' | 'aborted' | 'remote-disconnect';

export interface SocketTruth {
	pid: number;
	process: string;
	endpoint: string;
	family: number;
	type: number;
	protocol: number;
	/** Local address from the bind exit (or the listener's for accepted sockets). */
	local: string | null;
	/** Peer: the connect/accept address, or the first sendto destination. */
	remote: string | null;
	/** Datagram sockets: bytes per remote, in order of their first datagram. */
	peers: { remote: string; bytesSent: number; bytesReceived: number }[];
	/**
	 * How the socket came to be: created (1000 / legacy 1), accepted (1024 AcceptEndpoint), or
	 * opened before the trace (no create).
	 */
	origin: 'created' | 'accepted' | 'before-trace';
	/** How its PID can be known: its create, its listener's, or another socket's create (map). */
	pidSource: 'create' | 'listener' | 'process-map';
	/** FILETIME decimal strings: the create enter (or accept exit; null before the trace) and the cleanup exit. */
	opened: string | null;
	openedIso: string | null;
	/** Its first event. */
	firstSeen: string;
	closed: string | null;
	closedIso: string | null;
	bytesSent: number;
	bytesReceived: number;
	/** At the end of the trace. */
	state: 'open' | 'listening' | 'closed';
	outcome: SocketOutcome;
	/** NTSTATUS name of the failure, if any. */
	error: string | null;
	/** AfdAbort Reason, when aborted. */
	abortReason: number | null;
	/** Events 1-41 (legacy) rather than 1000+. */
	legacy: boolean;
	pointerSize: 4 | 8;
	/** AFD events that name this endpoint (Endpoint or AcceptEndpoint field). */
	events: number;
}

export interface SampleTruth {
	about: string;
	conventions: string[];
	generator: { script: string; module: string; seed: number };
	session: {
		startTime: string;
		startTimeIso: string;
		endTime: string;
		endTimeIso: string;
		t0: string;
		perfFreq: string;
		clock: number;
		cpus: number;
		build: number;
		pointerSize: number;
		bufferSize: number;
		loggerName: string;
		logFileName: string;
		buffersWritten: number;
		fileSize: number;
		/** SequenceNumber of each buffer in file order (0 = header buffer). */
		bufferSequence: number[];
		/** CPU of each buffer in file order. */
		bufferCpu: number[];
	};
	processes: ProcessTruth[];
	sockets: SocketTruth[];
	/** Count of AFD events per event id (all versions 0), both EnterExit phases included. */
	afdEventCounts: Record<string, number>;
	/** AFD events per header type: 0x12 (EVENT32) and 0x13 (EVENT64). */
	afdEventsByHeaderType: Record<string, number>;
	/** Events per provider GUID. */
	eventsByProvider: Record<string, number>;
	/** All records by kind, the logfile header record included. */
	recordsByKind: Partial<Record<RecordKindName, number>>;
	totalRecords: number;
}

export interface SampleResult {
	file: EtlFile;
	truth: SampleTruth;
	/** The truth as written to sample.truth.json (tab-indented, trailing newline). */
	json: string;
}

// ---------------------------------------------------------------------------------------------
// Scenario machinery

interface Proc {
	pid: number;
	name: string;
	image: string;
	eprocess: bigint;
	parentPid: number;
	parentTid: number;
	sessionId: number;
	ptr: 4 | 8;
	created: bigint;
}

type Thread = AfdThread<Proc>;

interface Sock {
	proc: Proc;
	endpoint: bigint;
	family: number;
	type: number;
	protocol: number;
	local: string | null;
	remote: string | null;
	peers: Map<string, { remote: string; bytesSent: number; bytesReceived: number }>;
	origin: 'created' | 'accepted' | 'before-trace';
	opened: bigint | null;
	firstSeen: bigint;
	closed: bigint | null;
	sent: number;
	received: number;
	state: 'open' | 'listening' | 'closed';
	outcome: SocketOutcome;
	error: string | null;
	abortReason: number | null;
	legacy: boolean;
}

/**
 * Code-site ids for the Location field (enter, exit): the codes Windows logs where a source names
 * them (real-trace-semantics.md), else small numbers no source lists (unknown Locations).
 */
const LOCATION: LocationTable = {
	[afdId('AfdCreate')]: [sourced(1002), sourced(1012)],
	[afdId('AfdClose')]: [sourced(2000), sourced(2001)],
	[afdId('AfdCleanup')]: [22, 23],
	[afdId('AfdSend')]: [sourced(3047), sourced(3051)],
	[afdId('AfdReceive')]: [sourced(4106), sourced(4109)],
	[afdId('AfdSendToWithAddress')]: [34, 35],
	[afdId('AfdReceiveFromWithAddress')]: [36, 37],
	[afdId('AfdSendMessageWithAddress')]: [sourced(3100), sourced(3200)],
	[afdId('AfdReceiveMessageWithAddress')]: [38, 39],
	[afdId('AfdConnectWithAddress')]: [sourced(5023), 41],
	[afdId('AfdAcceptWithAddress')]: [44, 45],
	[afdId('AfdBindWithAddress')]: [sourced(7010), sourced(7022)],
	[afdId('AfdAbort')]: [60, 61],
	[afdId('AfdDatagramDropWithAddress')]: [62, 63],
	[afdId('AfdOption')]: [64, 65],
	[afdId('AfdListen')]: [70, 71],
	[afdId('AfdConnectIndicationWithAddress')]: [80, 81],
	[afdId('AfdDataIndication')]: [82, 83],
	[afdId('AfdDisconnect')]: [84, 85],
};

const SYSTEM_THREADS: readonly number[] = [88, 92, 104, 112];

class Scenario extends AfdScenario<Proc> {
	/** Completions logged in System's context so far (picks its thread without the PRNG). */
	systemEvents = 0;
	readonly procs: Proc[] = [];
	readonly sockets: Sock[] = [];
	readonly systemThreads = SYSTEM_THREADS;
	/** AFD events per Process field value and per endpoint named (Endpoint / AcceptEndpoint). */
	readonly perProcess = new Map<bigint, number>();
	readonly perEndpoint = new Map<bigint, number>();

	constructor() {
		super({
			writer: new EtlWriter({
				pointerSize: 8,
				cpus: 4,
				bufferSize: 65536,
				compress: false,
				clock: 1,
				perfFreq: 10_000_000n,
				cpuSpeedMHz: 2995,
				startTime: START,
				bootTime: START - 4_271_250_000_000n, // ~4 days 22 h of uptime
				build: 22621,
				version: [10, 0, 1, 5],
				loggerName: 'winsock',
				logFileName: 'C:\\Users\\alice\\AppData\\Local\\Temp\\winsock.etl',
				timeZoneBias: 0,
				controllerPid: 7788,
				controllerTid: 7792,
				loggerId: 0x22,
			}),
			seed: SAMPLE_SEED,
			locations: LOCATION,
			migrate: 0.08,
			systemThreads: SYSTEM_THREADS,
		});
		this.onAfd = ({ th, values }) => {
			const bump = (m: Map<bigint, number>, k: bigint): void => {
				m.set(k, (m.get(k) ?? 0) + 1);
			};
			bump(this.perProcess, th.proc.eprocess);
			for (const key of ['Endpoint', 'AcceptEndpoint']) {
				const v = values[key];
				if (
					v !== undefined &&
					typeof v !== 'string' &&
					!(v instanceof Uint8Array) &&
					BigInt(v) !== 0n
				) {
					bump(this.perEndpoint, BigInt(v));
				}
			}
		};
		// Hook 0x0050 PartitionInfoExtension follows the logfile header in most real files.
		this.w.addHeaderRecord({
			kind: 'system',
			hookId: 0x50,
			pid: 7788,
			tid: 7792,
			payload: new Uint8Array(48),
		});
	}

	/** FILETIME at `ms` milliseconds (fractional allowed, 100 ns resolution) into the session. */
	at(ms: number): bigint {
		return START + BigInt(Math.round(ms * 10_000));
	}

	process(
		p: Omit<Proc, 'created'>,
		createdMs: number,
		threads: { tid: number; cpu: number }[],
	): Thread[] {
		const proc: Proc = { ...p, created: this.at(createdMs) };
		this.procs.push(proc);
		this.processStart(
			this.rng.int(0, 3),
			proc.created,
			{ pid: p.parentPid, tid: p.parentTid },
			{ pid: p.pid, sessionId: p.sessionId, image: p.image },
		);
		return threads.map((t) => ({ proc, tid: t.tid, cpu: t.cpu }));
	}

	newSocket(th: Thread, t: bigint, family: number, type: number, protocol: number): Sock {
		const s: Sock = {
			proc: th.proc,
			endpoint: this.endpoint(th.proc),
			family,
			type,
			protocol,
			local: null,
			remote: null,
			peers: new Map(),
			origin: 'created',
			opened: t,
			firstSeen: t,
			closed: null,
			sent: 0,
			received: 0,
			state: 'open',
			outcome: 'ok',
			error: null,
			abortReason: null,
			legacy: false,
		};
		this.sockets.push(s);
		return s;
	}

	/** socket() → AfdCreate enter/exit. */
	create(th: Thread, t: bigint, family: number, type: number, protocol: number): [Sock, bigint] {
		const s = this.newSocket(th, t, family, type, protocol);
		const te = this.createCall(th, t, this.delay(0.02, 0.09), s.endpoint, family, type, protocol);
		return [s, te];
	}

	bind(th: Thread, s: Sock, t: bigint, request: string, bound: string): bigint {
		s.local = bound;
		return this.bindCall(th, t, this.delay(0.01, 0.05), s.endpoint, request, bound);
	}

	send(th: Thread, s: Sock, t: bigint, len: number): bigint {
		const v = {
			Endpoint: s.endpoint,
			BufferCount: 1,
			Buffer: this.buffer(th.proc),
			BufferLength: len,
		};
		s.sent += len;
		const dur = this.delay(0.01, 0.12);
		const te = this.call(
			th,
			t,
			dur,
			AFD.AfdSend!,
			v,
			{ ...v, Status: STATUS_SUCCESS },
			{
				inner: (cpu) => {
					if (!buffered(len)) nestedSend(this, th, t, t + dur, cpu, v);
				},
			},
		);
		if (buffered(len)) bufferedCompletion(this, th, te, v);
		return te;
	}

	/** A receive posted with `cap` bytes of buffer that completes after `wait` with `len` bytes. */
	receive(
		th: Thread,
		s: Sock,
		t: bigint,
		wait: bigint,
		cap: number,
		len: number,
		status = STATUS_SUCCESS,
		indicate = true,
	): bigint {
		const buf = this.buffer(th.proc);
		const v = { Endpoint: s.endpoint, BufferCount: 1, Buffer: buf };
		if (indicate && len > 0 && status === STATUS_SUCCESS) {
			// The transport indicates the data just before the receive completes.
			this.transport(th, t + wait - this.delay(0.005, 0.03), AFD.AfdDataIndication!, {
				Endpoint: s.endpoint,
				Buffer: 0xffffa50c33000000n + BigInt(this.rng.int(0, 0xfff) * 0x100),
				BufferLength: len,
			});
		}
		if (status === STATUS_SUCCESS) s.received += len;
		return this.call(
			th,
			t,
			wait,
			AFD.AfdReceive!,
			{ ...v, BufferLength: cap },
			{ ...v, BufferLength: len, Status: status },
			{ exitIn: receiveCompletion(this, wait) },
		);
	}

	/** closesocket(): AfdClose then AfdCleanup, as enter/exit pairs. */
	close(th: Thread, s: Sock, t: bigint): bigint {
		let te = this.call(
			th,
			t,
			this.delay(0.01, 0.04),
			AFD.AfdClose!,
			{ Endpoint: s.endpoint },
			{
				Endpoint: s.endpoint,
				Status: STATUS_SUCCESS,
			},
			{ exitIn: { location: LOCATION[AFD.AfdClose!]![1], header: systemContext(this) } },
		);
		te = this.call(
			th,
			te + this.delay(0.002, 0.02),
			this.delay(0.01, 0.05),
			AFD.AfdCleanup!,
			{
				Endpoint: s.endpoint,
			},
			{ Endpoint: s.endpoint, Status: STATUS_SUCCESS },
		);
		s.closed = te;
		s.state = 'closed';
		return te;
	}

	/** A TCP client connection doing `exchanges` request/response rounds. */
	tcpClient(
		th: Thread,
		startMs: number,
		c: {
			family: number;
			local: string;
			remote: string;
			rttMs: number;
			exchanges: number;
			end: 'close' | 'remote-disconnect' | 'open';
			thinkMs: [number, number];
		},
	): Sock {
		let t = this.at(startMs);
		const [s, t1] = this.create(th, t, c.family, SOCK_STREAM, IPPROTO_TCP);
		const any = c.family === AF_INET ? '0.0.0.0:0' : '[::]:0';
		t = this.bind(th, s, t1 + this.delay(0.01, 0.05), any, c.local);
		s.remote = c.remote;
		const rtt = BigInt(Math.round(c.rttMs * 10_000));
		t = this.call(
			th,
			t + this.delay(0.01, 0.1),
			rtt + this.delay(0.1, 2),
			AFD.AfdConnectWithAddress!,
			{ Endpoint: s.endpoint, Address: c.remote },
			{ Endpoint: s.endpoint, Status: STATUS_SUCCESS, Address: c.remote },
		);
		// TLS handshake, then requests and responses.
		t = this.send(th, s, t + this.delay(0.05, 0.3), 517);
		t = this.receive(
			th,
			s,
			t + this.delay(0.01, 0.05),
			rtt + this.delay(1, 4),
			65536,
			this.rng.int(3800, 5600),
		);
		t = this.send(th, s, t + this.delay(0.2, 1.5), this.rng.int(64, 126));
		for (let i = 0; i < c.exchanges; i++) {
			t += this.delay(c.thinkMs[0], c.thinkMs[1]);
			t = this.send(th, s, t, this.rng.int(90, 1800));
			const parts = this.rng.int(1, 3);
			for (let k = 0; k < parts; k++) {
				const wait = k === 0 ? rtt + this.delay(0.5, 25) : this.delay(0.05, 2);
				t = this.receive(th, s, t + this.delay(0.01, 0.1), wait, 65536, this.rng.int(200, 16_384));
			}
		}
		if (c.end === 'open') return s;
		t += this.delay(c.thinkMs[0], c.thinkMs[1]);
		if (c.end === 'remote-disconnect') {
			// The server closes: the transport indicates the disconnect and the pending receive
			// completes with 0 bytes (graceful EOF).
			const recvAt = t;
			const fin = t + this.delay(20, 60);
			this.transport(th, fin, AFD.AfdDisconnect!, { Endpoint: s.endpoint, Status: STATUS_SUCCESS });
			t = this.receive(th, s, recvAt, fin - recvAt + this.delay(0.01, 0.05), 65536, 0);
			s.outcome = 'remote-disconnect';
		}
		this.close(th, s, t + this.delay(0.05, 1));
		return s;
	}

	/** UDP DNS exchange with `server` (e.g. '192.168.1.1:53'). */
	dns(
		th: Thread,
		startMs: number,
		c: { family: number; server: string; local: string; queries: number; drop: boolean },
	): Sock {
		let t = this.at(startMs);
		const [s, t1] = this.create(th, t, c.family, SOCK_DGRAM, IPPROTO_UDP);
		// SIO_UDP_CONNRESET off (AFD option 11), as the Windows DNS client does.
		t = this.call(
			th,
			t1 + this.delay(0.01, 0.03),
			this.delay(0.005, 0.02),
			AFD.AfdOption!,
			{ Endpoint: s.endpoint, Option: 11, Value: 0 },
			{ Endpoint: s.endpoint, Option: 11, Value: 0, Status: STATUS_SUCCESS },
		);
		const any = c.family === AF_INET ? '0.0.0.0:0' : '[::]:0';
		t = this.bind(th, s, t + this.delay(0.01, 0.03), any, c.local);
		s.remote = c.server;
		const peer = { remote: c.server, bytesSent: 0, bytesReceived: 0 };
		s.peers.set(c.server, peer);
		for (let q = 0; q < c.queries; q++) {
			const len = this.rng.int(28, 60);
			const buf = this.buffer(th.proc);
			const v = { Endpoint: s.endpoint, BufferCount: 1, Buffer: buf, BufferLength: len };
			s.sent += len;
			peer.bytesSent += len;
			t = this.call(
				th,
				t + this.delay(0.02, 0.2),
				this.delay(0.02, 0.08),
				AFD.AfdSendToWithAddress!,
				{ ...v, Address: c.server },
				{ ...v, Status: STATUS_SUCCESS, Address: c.server },
			);
			const answer = this.rng.int(len + 16, len + 220);
			const rbuf = this.buffer(th.proc);
			const rv = { Endpoint: s.endpoint, BufferCount: 1, Buffer: rbuf };
			const wait = this.delay(2, 14);
			this.transport(th, t + wait - this.delay(0.01, 0.03), AFD.AfdDataIndicationWithAddress!, {
				Endpoint: s.endpoint,
				Buffer: 0xffffa50c34000000n + BigInt(this.rng.int(0, 0xfff) * 0x100),
				BufferLength: answer,
				Address: c.server,
			});
			s.received += answer;
			peer.bytesReceived += answer;
			t = this.call(
				th,
				t + this.delay(0.01, 0.05),
				wait,
				AFD.AfdReceiveFromWithAddress!,
				{ ...rv, BufferLength: 1472 },
				{ ...rv, BufferLength: answer, Status: STATUS_SUCCESS, Address: c.server },
			);
			if (c.drop && q === 0) {
				// A duplicate answer arrives with no receive posted and the socket's buffer quota
				// exhausted: dropped (AFD_DGRAM_DROP reason 2, insufficient local buffer space).
				const [, lx] = LOCATION[AFD.AfdDatagramDropWithAddress!]!;
				this.afd(
					th,
					t + this.delay(0.2, 1.5),
					AFD.AfdDatagramDropWithAddress!,
					{
						EnterExit: 1,
						Location: lx,
						Endpoint: s.endpoint,
						Buffer: 0,
						BufferLength: answer,
						Address: c.server,
						Reason: 2,
					},
					{ transport: true },
				);
			}
		}
		this.close(th, s, t + this.delay(0.1, 2));
		return s;
	}
}

// ---------------------------------------------------------------------------------------------
// Logged the way Windows logs it (real-trace-semantics.md). None of this draws on the PRNG, so the
// scenario's times, lengths and endpoints are those of the plain enter/exit model.

/** Sends of more than this are buffered by AFD and completed again later (3024). */
const BUFFERED_SEND = 16_000;

function buffered(len: number): boolean {
	return len > BUFFERED_SEND;
}

/** The System context of the next completion logged on an interrupted thread. */
function systemContext(sc: Scenario): Header {
	const tid = sc.systemThreads[sc.systemEvents++ % sc.systemThreads.length]!;
	return { pid: 4, tid };
}

/** The inner pair of one send: 3056 enter and 3073 exit, on the caller's thread, same length. */
function nestedSend(
	sc: Scenario,
	th: Thread,
	enter: bigint,
	exit: bigint,
	cpu: number,
	v: PayloadValues,
): void {
	sc.afd(th, enter + 1n, AFD.AfdSend!, { EnterExit: 0, Location: sourced(3056), ...v }, { cpu });
	sc.afd(
		th,
		exit - 1n,
		AFD.AfdSend!,
		{ EnterExit: 1, Location: sourced(3073), ...v, Status: 0 },
		{ cpu },
	);
}

/** AfdRestartBufferSend completing a buffered send again (3024), 5 µs later on a System thread. */
function bufferedCompletion(sc: Scenario, th: Thread, exit: bigint, v: PayloadValues): void {
	const header = systemContext(sc);
	sc.afd(
		th,
		exit + 50n,
		AFD.AfdSend!,
		{ EnterExit: 1, Location: sourced(3024), ...v, Status: 0 },
		{ cpu: header.tid % sc.w.cpus, header },
	);
}

/** A receive that waited (over 1 ms) completes in System's context, at 4114; else on the caller's. */
function receiveCompletion(
	sc: Scenario,
	wait: bigint,
): { location: number; header: Header } | undefined {
	return wait > 10_000n ? { location: sourced(4114), header: systemContext(sc) } : undefined;
}

/**
 * svchost.exe's DNS client socket, open since before the trace (no create, no bind), asking two
 * DNS servers: SendMessageWithAddress (1013) carries its bytes at the enter, and only some sends
 * have an exit; ReceiveMessageWithAddress (1015) completes asynchronously (4052) in System's
 * context. Its PID is learnt from svchost.exe's create of another socket, after its first event.
 */
function dnsCacheFromBeforeTrace(sc: Scenario, th: Thread, startMs: number): Sock {
	const s = sc.newSocket(th, sc.at(startMs), AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	s.origin = 'before-trace';
	s.opened = null;
	s.local = null;
	const servers = ['192.168.1.1:53', '8.8.8.8:53'];
	let t = sc.at(startMs);
	for (let q = 0; q < 4; q++) {
		const server = servers[q % 2]!;
		const peer = s.peers.get(server) ?? { remote: server, bytesSent: 0, bytesReceived: 0 };
		s.peers.set(server, peer);
		s.remote ??= server;
		const len = sc.rng.int(30, 60);
		const v = {
			Endpoint: s.endpoint,
			BufferCount: 1,
			Buffer: sc.buffer(th.proc),
			BufferLength: len,
			Address: server,
		};
		const [le, lx] = LOCATION[AFD.AfdSendMessageWithAddress!]!;
		sc.afd(th, t, AFD.AfdSendMessageWithAddress!, { EnterExit: 0, Location: le, ...v });
		if (q % 2 === 1)
			sc.afd(th, t + sc.delay(0.01, 0.03), AFD.AfdSendMessageWithAddress!, {
				EnterExit: 1,
				Location: lx,
				...v,
				Status: 0,
			});
		s.sent += len;
		peer.bytesSent += len;
		const answer = sc.rng.int(len + 16, len + 200);
		const rv = { Endpoint: s.endpoint, BufferCount: 1, Buffer: sc.buffer(th.proc) };
		const [re] = LOCATION[AFD.AfdReceiveMessageWithAddress!]!;
		sc.afd(th, t + sc.delay(0.04, 0.06), AFD.AfdReceiveMessageWithAddress!, {
			EnterExit: 0,
			Location: re,
			...rv,
			BufferLength: 1472,
		});
		t += sc.delay(3, 18);
		const header = systemContext(sc);
		sc.afd(
			th,
			t,
			AFD.AfdReceiveMessageWithAddress!,
			{
				EnterExit: 1,
				Location: sourced(4052),
				...rv,
				BufferLength: answer,
				Status: 0,
				Address: server,
			},
			{ cpu: header.tid % sc.w.cpus, header },
		);
		s.received += answer;
		peer.bytesReceived += answer;
		t += sc.delay(0.5, 4);
	}
	sc.close(th, s, t);
	return s;
}

// ---------------------------------------------------------------------------------------------

export function buildSample(): SampleResult {
	const sc = new Scenario();
	const { rng } = sc;

	// Processes (ProcessStart is logged in the creator's context).
	const chrome = sc.process(
		{
			pid: 4120,
			name: 'chrome.exe',
			image: '\\Device\\HarddiskVolume3\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
			eprocess: 0xffffa50c12345080n,
			parentPid: 3812,
			parentTid: 3816,
			sessionId: 1,
			ptr: 8,
		},
		11.25,
		[
			{ tid: 4188, cpu: 1 },
			{ tid: 4236, cpu: 1 },
			{ tid: 5012, cpu: 2 },
		],
	);
	const svchost = sc.process(
		{
			pid: 1337,
			name: 'svchost.exe',
			image: '\\Device\\HarddiskVolume3\\Windows\\System32\\svchost.exe',
			eprocess: 0xffffa50c0f8a2080n,
			parentPid: 812,
			parentTid: 824,
			sessionId: 0,
			ptr: 8,
		},
		4.5,
		[
			{ tid: 1412, cpu: 0 },
			{ tid: 1420, cpu: 3 },
		],
	);
	const curl = sc.process(
		{
			pid: 5200,
			name: 'curl.exe',
			image: '\\Device\\HarddiskVolume3\\Windows\\System32\\curl.exe',
			eprocess: 0xffffa50c1a6b3080n,
			parentPid: 6044,
			parentTid: 6048,
			sessionId: 1,
			ptr: 8,
		},
		880.4,
		[{ tid: 5204, cpu: 2 }],
	);
	const legacy = sc.process(
		{
			pid: 2222,
			name: 'legacyapp.exe',
			image: '\\Device\\HarddiskVolume3\\Program Files (x86)\\Legacy\\legacyapp.exe',
			eprocess: 0x8a3c5030n,
			parentPid: 3812,
			parentTid: 3820,
			sessionId: 1,
			ptr: 4,
		},
		590.8,
		[{ tid: 2230, cpu: 3 }],
	);
	const [cNet, cIo, cDns] = chrome as [Thread, Thread, Thread];
	const [svcMain, svcWorker] = svchost as [Thread, Thread];
	const [curlMain] = curl as [Thread];
	const [legacyMain] = legacy as [Thread];

	// --- svchost: listener on 0.0.0.0:8080 -----------------------------------------------
	let t = sc.at(62.5);
	const [listener, tl1] = sc.create(svcMain, t, AF_INET, SOCK_STREAM, IPPROTO_TCP);
	t = sc.bind(svcMain, listener, tl1 + sc.delay(0.02, 0.05), '0.0.0.0:8080', '0.0.0.0:8080');
	t = sc.call(
		svcMain,
		t + sc.delay(0.02, 0.08),
		sc.delay(0.01, 0.03),
		AFD.AfdListen!,
		{ Endpoint: listener.endpoint, Backlog: 200 },
		{ Endpoint: listener.endpoint, Backlog: 200, Status: STATUS_SUCCESS },
	);
	listener.state = 'listening';

	const clients = [
		{ at: 420, peer: '10.0.0.42:50110', requests: 4, abort: false },
		{ at: 1710, peer: '10.0.0.42:50114', requests: 3, abort: true },
		{ at: 2630, peer: '10.0.0.77:61022', requests: 5, abort: false },
	];
	for (const c of clients) {
		const th = c.abort ? svcWorker : svcMain;
		let ta = sc.at(c.at);
		sc.transport(th, ta, AFD.AfdConnectIndicationWithAddress!, {
			Endpoint: listener.endpoint,
			Status: STATUS_SUCCESS,
			Address: c.peer,
			CurrentBacklog: 1,
		});
		const acc = sc.newSocket(th, ta, AF_INET, SOCK_STREAM, IPPROTO_TCP);
		acc.origin = 'accepted';
		acc.local = listener.local;
		acc.remote = c.peer;
		const [le, lx] = LOCATION[AFD.AfdAcceptWithAddress!]!;
		const cpu = sc.cpuOf(th);
		sc.afd(
			th,
			ta + sc.delay(0.01, 0.04),
			AFD.AfdAcceptWithAddress!,
			{ EnterExit: 0, Location: le, Endpoint: listener.endpoint },
			{ cpu },
		);
		ta += sc.delay(0.06, 0.2);
		acc.opened = ta;
		sc.afd(
			th,
			ta,
			AFD.AfdAcceptWithAddress!,
			{
				EnterExit: 1,
				Location: lx,
				Endpoint: listener.endpoint,
				Buffer: 0,
				BufferLength: 0,
				Status: STATUS_SUCCESS,
				Address: c.peer,
				AcceptEndpoint: acc.endpoint,
				CurrentBacklog: 0,
			},
			{ cpu },
		);
		for (let i = 0; i < c.requests; i++) {
			ta = sc.receive(
				th,
				acc,
				ta + sc.delay(0.02, 0.1),
				sc.delay(0.2, 30),
				8192,
				rng.int(180, 420),
			);
			if (c.abort && i === c.requests - 1) {
				// The client resets the connection while the next receive is pending.
				const recvAt = ta + sc.delay(0.05, 0.2);
				const rst = recvAt + sc.delay(40, 90);
				const [, ax] = LOCATION[AFD.AfdAbort!]!;
				sc.afd(th, rst, AFD.AfdAbort!, {
					EnterExit: 1,
					Location: ax,
					Endpoint: acc.endpoint,
					Reason: 4,
				});
				ta = sc.receive(
					th,
					acc,
					recvAt,
					rst - recvAt + sc.delay(0.01, 0.04),
					8192,
					0,
					STATUS_CONNECTION_RESET,
				);
				acc.outcome = 'aborted';
				acc.abortReason = 4;
				acc.error = statusName(STATUS_CONNECTION_RESET);
				break;
			}
			ta = sc.send(th, acc, ta + sc.delay(0.3, 4), rng.int(600, 24_000));
		}
		sc.close(th, acc, ta + sc.delay(0.1, 2));
	}

	// --- chrome: DNS, then TLS connections -----------------------------------------------
	sc.dns(cDns, 140.3, {
		family: AF_INET,
		server: '192.168.1.1:53',
		local: '0.0.0.0:53114',
		queries: 3,
		drop: true,
	});
	sc.dns(cDns, 152.9, {
		family: AF_INET6,
		server: '[fe80::1%12]:53',
		local: '[::]:53115',
		queries: 2,
		drop: false,
	});
	const conns = [
		{
			at: 171.6,
			th: cNet,
			family: AF_INET,
			local: '0.0.0.0:51234',
			remote: '142.250.74.78:443',
			rtt: 14.2,
			n: 46,
			end: 'close',
		},
		{
			at: 186.1,
			th: cIo,
			family: AF_INET6,
			local: '[::]:51235',
			remote: '[2607:f8b0:4004:c07::64]:443',
			rtt: 12.8,
			n: 38,
			end: 'close',
		},
		{
			at: 402.7,
			th: cNet,
			family: AF_INET,
			local: '0.0.0.0:51236',
			remote: '151.101.1.69:443',
			rtt: 21.5,
			n: 24,
			end: 'remote-disconnect',
		},
		{
			at: 955.0,
			th: cIo,
			family: AF_INET6,
			local: '[::]:51237',
			remote: '[2a04:4e42::645]:443',
			rtt: 19.9,
			n: 40,
			end: 'open',
		},
		{
			at: 1480.2,
			th: cNet,
			family: AF_INET,
			local: '0.0.0.0:51238',
			remote: '140.82.112.25:443',
			rtt: 88.4,
			n: 22,
			end: 'close',
		},
		{
			at: 2210.9,
			th: cNet,
			family: AF_INET,
			local: '0.0.0.0:51241',
			remote: '13.107.42.14:443',
			rtt: 9.6,
			n: 44,
			end: 'open',
		},
	] as const;
	for (const c of conns) {
		sc.tcpClient(c.th, c.at, {
			family: c.family,
			local: c.local,
			remote: c.remote,
			rttMs: c.rtt,
			exchanges: c.n,
			end: c.end,
			thinkMs: [2, 60],
		});
	}

	// --- curl: refused, then timed out -----------------------------------------------------
	{
		let tc = sc.at(897.3);
		const [s1, t1] = sc.create(curlMain, tc, AF_INET, SOCK_STREAM, IPPROTO_TCP);
		tc = sc.bind(curlMain, s1, t1 + sc.delay(0.02, 0.06), '0.0.0.0:0', '0.0.0.0:51239');
		s1.remote = '10.0.0.5:8081';
		tc = sc.call(
			curlMain,
			tc + sc.delay(0.02, 0.1),
			sc.delay(1010, 1030), // Windows retries the SYN after each RST before giving up
			AFD.AfdConnectWithAddress!,
			{ Endpoint: s1.endpoint, Address: s1.remote },
			{ Endpoint: s1.endpoint, Status: STATUS_CONNECTION_REFUSED, Address: s1.remote },
		);
		s1.outcome = 'refused';
		s1.error = statusName(STATUS_CONNECTION_REFUSED);
		sc.close(curlMain, s1, tc + sc.delay(0.05, 0.3));

		tc = sc.at(2041.6);
		const [s2, t2] = sc.create(curlMain, tc, AF_INET, SOCK_STREAM, IPPROTO_TCP);
		tc = sc.bind(curlMain, s2, t2 + sc.delay(0.02, 0.06), '0.0.0.0:0', '0.0.0.0:51240');
		s2.remote = '203.0.113.9:443';
		tc = sc.call(
			curlMain,
			tc + sc.delay(0.02, 0.1),
			sc.delay(2100, 2110),
			AFD.AfdConnectWithAddress!,
			{ Endpoint: s2.endpoint, Address: s2.remote },
			{ Endpoint: s2.endpoint, Status: STATUS_IO_TIMEOUT, Address: s2.remote },
		);
		s2.outcome = 'timeout';
		s2.error = statusName(STATUS_IO_TIMEOUT);
		sc.close(curlMain, s2, tc + sc.delay(0.05, 0.3));
	}

	// --- legacyapp: events 1-41 in EVENT32 records ----------------------------------------
	{
		const th = legacyMain;
		let tg = sc.at(612.4);
		const s = sc.newSocket(th, tg, AF_INET, SOCK_STREAM, IPPROTO_TCP);
		s.legacy = true;
		sc.afd(th, tg, AFD.SocketCreate!, {
			Endpoint: s.endpoint,
			AddressFamily: AF_INET,
			SocketType: SOCK_STREAM,
			Protocol: IPPROTO_TCP,
			UserModePid: th.proc.pid,
		});
		tg += sc.delay(0.05, 0.2);
		s.local = '0.0.0.0:51233';
		sc.afd(th, tg, AFD.BindIPv4!, {
			Endpoint: s.endpoint,
			Address: '0.0.0.0',
			Port: 51233,
			Status: STATUS_SUCCESS,
		});
		tg += sc.delay(0.05, 0.2);
		s.remote = '93.184.216.34:80';
		sc.afd(th, tg, AFD.ConnectIPv4!, { Endpoint: s.endpoint, Address: '93.184.216.34', Port: 80 });
		tg += sc.delay(92, 96);
		sc.afd(th, tg, AFD.ConnectCompleted!, { Endpoint: s.endpoint, Error: STATUS_SUCCESS });
		for (let i = 0; i < 6; i++) {
			tg += sc.delay(1, 40);
			const len = rng.int(96, 420);
			const buf = sc.buffer(th.proc);
			sc.afd(th, tg, AFD.SendPosted!, {
				Endpoint: s.endpoint,
				FastPath: 1,
				BufferCount: 1,
				Buffer: buf,
				BufferLength: len,
			});
			tg += sc.delay(0.02, 0.2);
			sc.afd(th, tg, AFD.SendCompleted!, { Endpoint: s.endpoint, Buffer: buf, BufferLength: len });
			s.sent += len;
			const parts = rng.int(1, 4);
			for (let k = 0; k < parts; k++) {
				tg += k === 0 ? sc.delay(90, 110) : sc.delay(0.1, 3);
				const got = k < parts - 1 ? 1460 : rng.int(80, 1460);
				sc.afd(th, tg, AFD.RecvCompleted!, {
					Endpoint: s.endpoint,
					Buffer: sc.buffer(th.proc),
					BufferLength: got,
				});
				s.received += got;
			}
		}
		tg += sc.delay(5, 50);
		sc.afd(th, tg, AFD.Close!, { Endpoint: s.endpoint, Error: STATUS_SUCCESS });
		tg += sc.delay(0.02, 0.2);
		sc.afd(th, tg, AFD.CleanupShutdown!, { Endpoint: s.endpoint, Error: STATUS_SUCCESS });
		s.closed = tg;
		s.state = 'closed';
	}

	// --- svchost: a DNS client socket from before the trace -------------------------------
	dnsCacheFromBeforeTrace(sc, svcWorker, 31.7);

	addSampleNetEvents(sc.w, (ms) => sc.at(ms));
	const file = sc.w.finish();
	const truth = makeTruth(sc, file);
	return { file, truth, json: `${JSON.stringify(truth, null, '\t')}\n` };
}

function makeTruth(sc: Scenario, file: EtlFile): SampleTruth {
	const afdGuid = 'e53c6823-7bb8-44bb-90dc-3f86090d48a6';
	const counts = new Map<number, number>();
	const byHeader: Record<string, number> = {};
	const byProvider: Record<string, number> = {};
	const byKind: Partial<Record<RecordKindName, number>> = {};
	const { perProcess, perEndpoint } = sc;
	for (const r of file.records) {
		byKind[r.kind] = (byKind[r.kind] ?? 0) + 1;
		if (r.kind !== 'event' || r.provider === null) continue;
		byProvider[r.provider] = (byProvider[r.provider] ?? 0) + 1;
		if (r.provider !== afdGuid) continue;
		counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
		const ht = `0x${r.headerType.toString(16)}`;
		byHeader[ht] = (byHeader[ht] ?? 0) + 1;
	}
	const sortedCounts: Record<string, number> = {};
	for (const id of [...counts.keys()].sort((a, b) => a - b))
		sortedCounts[String(id)] = counts.get(id)!;

	const bufSeq: number[] = [];
	const bufCpu: number[] = [];
	for (const b of file.buffers) {
		bufSeq.push(b.sequence);
		bufCpu.push(b.cpu);
	}
	const ft = (v: bigint | null): string | null => (v === null ? null : v.toString());
	const iso = (v: bigint | null): string | null => (v === null ? null : filetimeToIso(v));

	return {
		about:
			'Ground truth of public/sample.etl, written by scripts/make-sample.ts from tests/builders/sample.ts. ' +
			'A synthetic but spec-conformant Microsoft-Windows-Winsock-AFD session; no real machine was traced.',
		conventions: [
			'FILETIME values are decimal strings (100 ns since 1601-01-01 UTC); *Iso fields are the same instants in ISO-8601 with 7 fractional digits.',
			'Pointers (EPROCESS, endpoints) are lower-case hex strings.',
			'AFD events: provider e53c6823-7bb8-44bb-90dc-3f86090d48a6, version 0, channel 16, level/opcode/task from schema/winsock-afd.json, keyword = the schema keywords | 0x8000000000000000. EVENT64 (header type 0x13) except legacyapp.exe, whose records are EVENT32 (0x12, 4-byte pointers).',
			'Modern events (1000+) come in pairs: EnterExit 0 (enter) then 1 (exit); Status is meaningful on the exit. Transport events (3000+), 1032 and 1033 are logged once, with EnterExit 1. Exits of receives that waited over 1 ms (Location 4114), of AfdClose (2001), of buffered sends (3024) and of 1015 (4052) are logged in System (header PID 4, a System thread). 1013 sends have an exit only for some datagrams.',
			'Each send (1003) of at most 16,000 bytes is nested enter/exit pairs on one thread: 3047 enter, 3056 enter, 3073 exit, 3051 exit, all with the same BufferLength; a larger one is 3047 enter, 3051 exit, then 3024 exit 5 µs later in System (AfdRestartBufferSend).',
			'Addresses: IPv4 "a.b.c.d:port"; IPv6 "[addr]:port" in RFC 5952 form, "%n" = scope id.',
			'bytesSent/bytesReceived: what the application sent and read: per send once (the 3051 exit; never 3073 or 3024), per datagram sent once (1007/1013: the enter), BufferLength of successful receive exits (1004/1009/1015), and legacy send/recv completed events 24/23. Receive enters carry the buffer offered; data indications (3003/3004) and dropped datagrams (1033) are not counted.',
			'Sockets are identified by their Endpoint pointer; accepted sockets by the AcceptEndpoint of the 1024 exit event (they have no create event); one svchost.exe socket was opened before the trace (origin before-trace, opened null) and talks to two DNS servers (peers).',
			'pidSource: create (its own create event), listener (accepted on a listener), process-map (no create: another socket of the same Process was created).',
			'Transport-side events (3000+) and the datagram drop (1033) carry header PID 4 (System) and the owning process in their Process field.',
			'opened: create enter time (accepted sockets: the accept exit; null before the trace); firstSeen: its first event; closed: the cleanup (1002 exit, legacy 14) time; null when still open at the end of the trace.',
			'outcome: ok | refused (connect exit STATUS_CONNECTION_REFUSED) | timeout (connect exit STATUS_IO_TIMEOUT) | aborted (1032) | remote-disconnect (3006, then a 0-byte receive).',
		],
		generator: {
			script: 'scripts/make-sample.ts',
			module: 'tests/builders/sample.ts',
			seed: SAMPLE_SEED,
		},
		session: {
			startTime: file.startTime.toString(),
			startTimeIso: filetimeToIso(file.startTime),
			endTime: file.endTime.toString(),
			endTimeIso: filetimeToIso(file.endTime),
			t0: file.t0.toString(),
			perfFreq: sc.w.perfFreq.toString(),
			clock: sc.w.clock,
			cpus: sc.w.cpus,
			build: 22621,
			pointerSize: sc.w.pointerSize,
			bufferSize: sc.w.bufferSize,
			loggerName: 'winsock',
			logFileName: 'C:\\Users\\alice\\AppData\\Local\\Temp\\winsock.etl',
			buffersWritten: file.buffers.length,
			fileSize: file.bytes.length,
			bufferSequence: bufSeq,
			bufferCpu: bufCpu,
		},
		processes: sc.procs.map((p) => ({
			pid: p.pid,
			name: p.name,
			image: p.image,
			eprocess: hex(p.eprocess),
			parentPid: p.parentPid,
			sessionId: p.sessionId,
			created: p.created.toString(),
			createdIso: filetimeToIso(p.created),
			pointerSize: p.ptr,
			afdEvents: perProcess.get(p.eprocess) ?? 0,
		})),
		sockets: [...sc.sockets]
			.sort((a, b) => {
				const [x, y] = [a.opened ?? a.firstSeen, b.opened ?? b.firstSeen];
				return x < y ? -1 : x > y ? 1 : 0;
			})
			.map((s) => ({
				pid: s.proc.pid,
				process: s.proc.name,
				endpoint: hex(s.endpoint),
				family: s.family,
				type: s.type,
				protocol: s.protocol,
				local: s.local,
				remote: s.remote,
				peers: [...s.peers.values()],
				origin: s.origin,
				pidSource:
					s.origin === 'created'
						? ('create' as const)
						: s.origin === 'accepted'
							? ('listener' as const)
							: ('process-map' as const),
				opened: ft(s.opened),
				openedIso: iso(s.opened),
				firstSeen: s.firstSeen.toString(),
				closed: ft(s.closed),
				closedIso: iso(s.closed),
				bytesSent: s.sent,
				bytesReceived: s.received,
				state: s.state,
				outcome: s.outcome,
				error: s.error,
				abortReason: s.abortReason,
				legacy: s.legacy,
				pointerSize: s.proc.ptr,
				events: perEndpoint.get(s.endpoint) ?? 0,
			})),
		afdEventCounts: sortedCounts,
		afdEventsByHeaderType: byHeader,
		eventsByProvider: byProvider,
		recordsByKind: byKind,
		totalRecords: file.records.length,
	};
}
