// Scripted socket lifecycles written with the test ETL writer, with the sockets and findings a
// correct reconstruction must report. Each operation writes the events of the chosen families:
// the enter/exit events (1000+), the legacy events (1-41), or both for the same operation (as a
// trace with both keyword sets enabled has them), and updates the expectation.
//
//   const lc = new Lifecycles({ families: 'both' });
//   const chrome = lc.process({ pid: 4120, name: 'chrome.exe', eprocess: 0xffffa50c12345080n });
//   const s = lc.socket(chrome, { at: 10 });
//   s.bind('0.0.0.0:51000').connect('142.250.74.46:443', { ms: 38 }).send(517).recv(4000).close();
//   const { file, expected } = lc.finish();
//
// Times are milliseconds since the session start; every socket has its own clock, which each
// operation advances. Transport-side events (indications, drops, transport aborts, disconnects)
// carry header PID 4, as AFD logs them in the System process.

import { ByteWriter, filetimeFromIso } from './bytes.ts';
import {
	EtlWriter,
	KERNEL_PROCESS_PROVIDER,
	PROCESS_START_DESCRIPTOR,
	processStartPayload,
	type EtlFile,
	type PayloadValues,
} from './etl-writer.ts';
import {
	AF_INET,
	AF_INET6,
	IPPROTO_TCP,
	IPPROTO_UDP,
	SOCK_DGRAM,
	SOCK_STREAM,
	STATUS_ADDRESS_ALREADY_EXISTS,
	STATUS_CANCELLED,
	STATUS_CONNECTION_REFUSED,
	STATUS_CONNECTION_RESET,
	STATUS_IO_TIMEOUT,
	STATUS_SUCCESS,
	STATUS_TOO_MANY_ADDRESSES,
	ntstatusName,
	UNLISTED_LOCATIONS,
	AFD,
} from './afd-vocabulary.ts';
import { AfdScenario, type AfdProc, type AfdThread, type Header } from './afd-scenario.ts';
import { EVENT_MAPS } from '../../web/src/generated/schemas.ts';

export const START = filetimeFromIso('2026-03-14T09:26:53.5897932Z');
export {
	AF_INET,
	AF_INET6,
	IPPROTO_TCP,
	IPPROTO_UDP,
	SOCK_DGRAM,
	SOCK_STREAM,
	STATUS_ADDRESS_ALREADY_EXISTS,
	STATUS_CANCELLED,
	STATUS_CONNECTION_REFUSED,
	STATUS_CONNECTION_RESET,
	STATUS_IO_TIMEOUT,
	STATUS_SUCCESS,
	STATUS_TOO_MANY_ADDRESSES,
};

export type Families = 'legacy' | 'modern' | 'both';

const mapName = (map: string, v: number) => EVENT_MAPS[map]?.[v] ?? `reason ${v}`;
export const statusName = (s: number): string => ntstatusName(s) ?? `0x${s.toString(16)}`;

/** What the tracker must report for one socket (fields as in SocketSummary). */
export interface ExpectedSocket {
	key: string;
	pid: number | null;
	process: string;
	endpoint: string;
	generation: number;
	origin: 'created' | 'accepted' | 'before-trace' | 'missing-create';
	family: number | null;
	type: number | null;
	protocol: number | null;
	local: string | null;
	remote: string | null;
	listening: boolean;
	listener: string | null;
	accepts: number;
	/** FILETIMEs as decimal strings, like TimeMark.filetime. */
	opened: string | null;
	closed: string | null;
	state: 'closed' | 'aborted' | 'failed' | 'open at end of trace';
	endedBy: 'application' | 'afd-abort' | 'transport-abort' | 'peer-disconnect' | 'unknown' | null;
	error: string | null;
	connectMs: number | null;
	bytesSent: number;
	bytesReceived: number;
	sends: number;
	receives: number;
	sendsPosted: number;
	receivesPosted: number;
	bytesIndicated: number;
	datagramsDropped: number;
	abortReason: number | null;
	ioAfterClose: number;
	legacy: boolean;
	modern: boolean;
}

export interface ExpectedFinding {
	kind: string;
	subject: string;
	count: number;
	/** Socket keys, sorted. */
	sockets: string[];
	/** Writer add indexes of events the finding must link to (see Built.indexOf). */
	adds: number[];
}

export interface Built {
	file: EtlFile;
	sockets: ExpectedSocket[];
	findings: ExpectedFinding[];
	/** Record index (position in decoder output, header = 0) of an add… call's record. */
	indexOf(addIndex: number): number;
}

export interface ProcOptions {
	pid: number;
	name: string;
	eprocess: bigint;
	/** How the trace names it: Kernel-Process ProcessStart, a kernel MOF DCStart, or not at all. */
	announce?: 'start' | 'mof' | 'none';
	/** EVENT32 (4) or EVENT64 (8) records for its AFD events. Default 8. */
	pointerSize?: 4 | 8;
	tid?: number;
}

export interface Proc extends Required<ProcOptions> {
	readonly who: string;
}

/** The header transport-side events are logged with: System, one of its threads. */
export const SYSTEM_CONTEXT: Header = { pid: 4, tid: 8 };

const tick = (ms: number) => BigInt(Math.round(ms * 10_000));

/** 'a.b.c.d:port' / '[v6]:port' → the legacy Address and Port fields, and whether it is IPv6. */
function split(addr: string): { Address: string; Port: number; v6: boolean } {
	const m = /^\[(.*)\]:(\d+)$/.exec(addr);
	if (m) return { Address: m[1]!.replace(/%.*$/, ''), Port: Number(m[2]), v6: true };
	const [a, p] = addr.split(':');
	return { Address: a!, Port: Number(p), v6: false };
}

export class Lifecycles {
	readonly w: EtlWriter;
	/** The one AFD writer; scripted events name their CPU and header, so it draws nothing random. */
	readonly afdWriter: AfdScenario<AfdProc>;
	readonly #threads = new Map<Proc, AfdThread>();
	readonly families: Families;
	readonly sockets: SocketScript[] = [];
	readonly #generations = new Map<bigint, number>();
	readonly #findings = new Map<string, ExpectedFinding>();
	#nextEndpoint = 0xffffa50c1e2f4010n;
	#nextEndpoint32 = 0x8b2d7e08n;
	#buffer = 0x1d4c8e20000n;

	constructor(opts: { families: Families; cpus?: number; bufferSize?: number }) {
		this.families = opts.families;
		this.w = new EtlWriter({
			pointerSize: 8,
			cpus: opts.cpus ?? 2,
			startTime: START,
			...(opts.bufferSize === undefined ? {} : { bufferSize: opts.bufferSize }),
		});
		this.afdWriter = new AfdScenario({
			writer: this.w,
			seed: 0,
			locations: {},
			migrate: 0,
			systemThreads: [SYSTEM_CONTEXT.tid],
		});
	}

	get modern(): boolean {
		return this.families !== 'legacy';
	}
	get legacy(): boolean {
		return this.families !== 'modern';
	}

	at(ms: number): bigint {
		return START + tick(ms);
	}

	process(o: ProcOptions, atMs = 0.5): Proc {
		const p: Proc = {
			announce: 'start',
			pointerSize: 8,
			tid: o.pid + 4,
			...o,
			who: '',
		};
		(p as { who: string }).who =
			p.announce === 'none' ? `PID ${p.pid}` : `${p.name} (PID ${p.pid})`;
		if (p.announce === 'start')
			this.w.addEvent({
				cpu: 0,
				time: this.at(atMs),
				pid: 700,
				tid: 704,
				provider: KERNEL_PROCESS_PROVIDER,
				...PROCESS_START_DESCRIPTOR,
				payload: processStartPayload({
					processId: p.pid,
					createTime: this.at(atMs),
					parentProcessId: 700,
					sessionId: 1,
					imageName: `\\Device\\HarddiskVolume3\\Apps\\${p.name}`,
				}),
			});
		else if (p.announce === 'mof') this.w.addSystem(mofProcess(p, this.at(atMs)));
		return p;
	}

	endpoint(proc: Proc): bigint {
		if (proc.pointerSize === 4) return (this.#nextEndpoint32 += 0x1c0n);
		return (this.#nextEndpoint += 0x2d0n);
	}

	/** A user buffer address that fits the process's pointers. */
	buffer(proc: Proc): bigint {
		this.#buffer += 0x1000n;
		return proc.pointerSize === 4 ? 0x02b40000n + (this.#buffer & 0xfffffn) : this.#buffer;
	}

	generation(endpoint: bigint): number {
		const g = this.#generations.get(endpoint) ?? 0;
		this.#generations.set(endpoint, g + 1);
		return g;
	}

	/** A socket of `proc` whose first operation happens at `at` ms. */
	socket(
		proc: Proc,
		o: {
			at: number;
			family?: number;
			type?: number;
			protocol?: number;
			endpoint?: bigint;
			/** false: it existed before the trace (no create event). Default true. */
			create?: boolean;
		},
	): SocketScript {
		const s = new SocketScript(this, proc, o.endpoint ?? this.endpoint(proc), this.at(o.at), {
			family: o.family ?? AF_INET,
			type: o.type ?? SOCK_STREAM,
			protocol: o.protocol ?? (o.type === SOCK_DGRAM ? IPPROTO_UDP : IPPROTO_TCP),
		});
		this.sockets.push(s);
		if (o.create ?? true) s.create();
		else {
			s.x.origin = s.x.generation > 0 ? 'missing-create' : 'before-trace';
			s.x.family = s.x.type = s.x.protocol = null;
		}
		return s;
	}

	/** `proc`'s thread as the AFD writer knows it. */
	thread(proc: Proc): AfdThread {
		let th = this.#threads.get(proc);
		if (!th) {
			const p = { pid: proc.pid, eprocess: proc.eprocess, ptr: proc.pointerSize };
			this.#threads.set(proc, (th = { proc: p, tid: proc.tid, cpu: 0 }));
		}
		return th;
	}

	/**
	 * Writes one AFD event of `proc` with the header of `ctx` (the caller's on CPU 0, another on
	 * CPU 1); returns its add index.
	 */
	afdIn(proc: Proc, time: bigint, id: number, values: PayloadValues, ctx: Header | null): number {
		const header = ctx ?? { pid: proc.pid, tid: proc.tid };
		const cpu = ctx === null ? 0 : 1 % this.w.cpus;
		return this.afdWriter.afd(this.thread(proc), time, id, values, { cpu, header });
	}

	/** Writes one AFD event; `transport`: in System's context. Returns its add index. */
	afd(proc: Proc, time: bigint, id: number, values: PayloadValues, transport = false): number {
		return this.afdIn(proc, time, id, values, transport ? SYSTEM_CONTEXT : null);
	}

	expectFinding(kind: string, subject: string, socket: string | null, adds: number[], count = 1) {
		const id = `${kind}:${subject}`;
		let f = this.#findings.get(id);
		if (!f) this.#findings.set(id, (f = { kind, subject, count: 0, sockets: [], adds: [] }));
		f.count += count;
		if (socket && !f.sockets.includes(socket)) f.sockets.push(socket);
		f.adds.push(...adds);
	}

	/** `count` select/poll calls (legacy 30) by a process, evenly within `withinMs`. */
	pollBurst(proc: Proc, atMs: number, count: number, withinMs: number): void {
		const adds: number[] = [];
		for (let k = 0; k < count; k++) {
			const t = this.at(atMs + (withinMs * k) / count);
			adds.push(this.afd(proc, t, AFD.SelectPollPosted!, { HandleCount: 1, Timeout: 0 }));
		}
		// From the 100th call on, each has 100 calls within the last second (the default).
		if (count >= 100 && withinMs < 1000)
			this.expectFinding('busy-poll', proc.who, null, [adds[99]!], count - 99);
	}

	finish(): Built {
		const retries = new Map<string, SocketScript[]>();
		for (const s of this.sockets) {
			if (s.x.state === 'failed' && s.connectFailed) {
				const k = `${s.proc.pid}|${s.x.remote}`;
				retries.set(k, [...(retries.get(k) ?? []), s]);
			}
			const open = s.x.closed === null && !s.closeRequested && s.x.endedBy !== 'unknown';
			if (open) this.expectFinding('open-at-end', s.proc.who, s.x.key, [s.firstAdd]);
		}
		for (const list of retries.values())
			if (list.length >= 5)
				for (const s of list)
					this.expectFinding('retry-storm', `${s.proc.who} → ${s.x.remote}`, s.x.key, [
						s.connectEndAdd!,
					]);
		const file = this.w.finish();
		const byAdd = new Map<number, number>();
		file.records.forEach((r, i) => byAdd.set(r.addIndex, i));
		for (const f of this.#findings.values()) f.sockets.sort();
		return {
			file,
			sockets: this.sockets.map((s) => ({ ...s.x })),
			findings: [...this.#findings.values()],
			indexOf: (a) => byAdd.get(a)!,
		};
	}

	abortName(reason: number): string {
		return mapName('afdAbort', reason);
	}
	dropName(reason: number): string {
		return mapName('afdDatagramDrop', reason);
	}
}

/** MOF Process_V4 DCStart (hook 0x0303): UniqueProcessKey = the EPROCESS, no SID. */
function mofProcess(p: Proc, time: bigint) {
	const w = new ByteWriter(128)
		.ptr(p.eprocess, p.pointerSize)
		.u32(p.pid)
		.u32(700)
		.u32(1)
		.u32(0)
		.ptr(0x1ad000n, p.pointerSize)
		.u32(0)
		.u32(0); // UserSID absent
	w.bytes(new TextEncoder().encode(`${p.name}\0`)).utf16z(`"C:\\Apps\\${p.name}"`);
	return {
		cpu: 0,
		time,
		pid: 0,
		tid: 0,
		hookId: 0x0303,
		version: 4,
		pointerSize: p.pointerSize,
		payload: w.finish(),
	};
}

export class SocketScript {
	readonly lc: Lifecycles;
	readonly proc: Proc;
	readonly endpoint: bigint;
	readonly ep: string;
	t: bigint;
	readonly x: ExpectedSocket;
	firstAdd = -1;
	connectEndAdd: number | null = null;
	connectFailed = false;
	closeRequested = false;
	peerGone = false;

	constructor(
		lc: Lifecycles,
		proc: Proc,
		endpoint: bigint,
		t: bigint,
		kind: { family: number; type: number; protocol: number },
	) {
		this.lc = lc;
		this.proc = proc;
		this.endpoint = endpoint;
		this.ep = `0x${endpoint.toString(16)}`;
		this.t = t;
		const generation = lc.generation(endpoint);
		this.x = {
			key: `${this.ep}#${generation}`,
			pid: proc.pid,
			process: proc.announce === 'none' ? `PID ${proc.pid}` : proc.name,
			endpoint: this.ep,
			generation,
			origin: 'created',
			...kind,
			local: null,
			remote: null,
			listening: false,
			listener: null,
			accepts: 0,
			opened: null,
			closed: null,
			state: 'open at end of trace',
			endedBy: null,
			error: null,
			connectMs: null,
			bytesSent: 0,
			bytesReceived: 0,
			sends: 0,
			receives: 0,
			sendsPosted: 0,
			receivesPosted: 0,
			bytesIndicated: 0,
			datagramsDropped: 0,
			abortReason: null,
			ioAfterClose: 0,
			legacy: lc.legacy,
			modern: lc.modern,
		};
	}

	/** Advances this socket's clock by `ms` and returns the new time. */
	step(ms = 0.05): bigint {
		this.t += tick(ms);
		return this.t;
	}

	wait(ms: number): this {
		this.step(ms);
		return this;
	}

	/** A kernel buffer address of the process's pointer width (data indications). */
	#kernelBuffer(): bigint {
		return this.proc.pointerSize === 4 ? 0x8c000000n : 0xffffa50c33000000n;
	}

	#afd(id: number, values: PayloadValues, transport = false, time = this.t): number {
		const a = this.lc.afd(this.proc, time, id, { Endpoint: this.endpoint, ...values }, transport);
		if (this.firstAdd < 0) this.firstAdd = a;
		return a;
	}

	/** An enter/exit pair `ms` apart around `inner` (legacy events written in between). */
	#call(
		id: number,
		enter: PayloadValues,
		exit: PayloadValues,
		ms: number,
		inner?: (start: bigint, end: bigint) => void,
	): { enter: number; exit: number; start: bigint; end: bigint } {
		const start = this.step();
		const end = start + tick(ms);
		let e = -1;
		let x = -1;
		// Scripted calls are logged at Locations no source lists: the tracker's fallbacks decide.
		const [le, lx] = UNLISTED_LOCATIONS;
		if (this.lc.modern) e = this.#afd(id, { EnterExit: 0, Location: le, ...enter }, false, start);
		inner?.(start + 1n, end - 1n);
		if (this.lc.modern) x = this.#afd(id, { EnterExit: 1, Location: lx, ...exit }, false, end);
		this.t = end;
		return { enter: e, exit: x, start, end };
	}

	#requestAfterClose(): void {
		if (this.closeRequested) {
			this.x.ioAfterClose++;
			this.lc.expectFinding('io-after-close', this.proc.who, this.x.key, [], 1);
		}
	}

	create(): this {
		const v = {
			AddressFamily: this.x.family!,
			SocketType: this.x.type!,
			Protocol: this.x.protocol!,
		};
		const r = this.#call(
			AFD.AfdCreate!,
			{ ...v, ProcessId: this.proc.pid },
			{ ...v, ProcessId: this.proc.pid, Status: 0 },
			0.05,
			(t) => {
				if (this.lc.legacy)
					this.#afd(AFD.SocketCreate!, { ...v, UserModePid: this.proc.pid }, false, t);
			},
		);
		this.x.opened = (this.lc.modern ? r.start : r.start + 1n).toString();
		return this;
	}

	bind(local: string, o: { status?: number } = {}): this {
		const status = o.status ?? STATUS_SUCCESS;
		const any = local.startsWith('[') ? '[::]:0' : '0.0.0.0:0';
		let legacyAdd = -1;
		const r = this.#call(
			AFD.AfdBindWithAddress!,
			{ Address: any },
			status ? { Status: status } : { Status: 0, Address: local },
			0.03,
			(t) => {
				if (!this.lc.legacy) return;
				const { Address, Port, v6 } = split(local);
				legacyAdd = status
					? this.#afd(AFD.BindFailed!, { Error: status }, false, t)
					: this.#afd(v6 ? AFD.BindIPv6! : AFD.BindIPv4!, { Address, Port, Status: 0 }, false, t);
			},
		);
		this.#requestAfterClose();
		if (status === STATUS_SUCCESS) this.x.local = local;
		else {
			this.x.error ??= statusName(status);
			if (this.x.state !== 'aborted') this.x.state = 'failed';
			// The finding links the failure of the family the tracker reports (enter/exit first).
			const adds = [this.lc.modern ? r.exit : legacyAdd];
			const kind =
				status === STATUS_TOO_MANY_ADDRESSES
					? 'port-exhaustion'
					: status === STATUS_ADDRESS_ALREADY_EXISTS
						? 'address-in-use'
						: 'bind-failed';
			this.lc.expectFinding(kind, this.proc.who, this.x.key, adds);
		}
		return this;
	}

	connect(remote: string, o: { ms?: number; status?: number } = {}): this {
		const ms = o.ms ?? 20;
		const status = o.status ?? STATUS_SUCCESS;
		const { Address, Port, v6 } = split(remote);
		let legacyEnd = -1;
		const r = this.#call(
			AFD.AfdConnectWithAddress!,
			{ Address: remote },
			{ Status: status, Address: remote },
			ms,
			(a, b) => {
				if (!this.lc.legacy) return;
				this.#afd(v6 ? AFD.ConnectIPv6! : AFD.ConnectIPv4!, { Address, Port }, false, a);
				legacyEnd = this.#afd(AFD.ConnectCompleted!, { Error: status }, false, b);
			},
		);
		this.#requestAfterClose();
		this.x.remote ??= remote;
		this.connectEndAdd = this.lc.modern ? r.exit : legacyEnd;
		const adds = this.lc.modern ? [r.enter, r.exit] : [legacyEnd];
		if (status === STATUS_SUCCESS) {
			this.x.connectMs = this.lc.modern ? ms : ms - 0.0002;
			this.x.state = 'open at end of trace';
			this.connectFailed = false;
			return this;
		}
		this.connectFailed = true;
		this.x.state = 'failed';
		const name = statusName(status);
		this.x.error = name;
		const kind =
			name === 'STATUS_CONNECTION_REFUSED'
				? 'connect-refused'
				: name === 'STATUS_IO_TIMEOUT'
					? 'connect-timeout'
					: 'connect-failed';
		this.lc.expectFinding(kind, `${this.proc.who} → ${remote}`, this.x.key, adds);
		return this;
	}

	send(n: number, o: { status?: number } = {}): this {
		const status = o.status ?? STATUS_SUCCESS;
		const buf = this.lc.buffer(this.proc);
		const v = { BufferCount: 1, Buffer: buf, BufferLength: n };
		this.#call(AFD.AfdSend!, v, { ...v, Status: status }, 0.05, (a, b) => {
			if (!this.lc.legacy) return;
			this.#afd(AFD.SendPosted!, { FastPath: 1, ...v }, false, a);
			if (status) this.#afd(AFD.SendFailed!, { Error: status }, false, b);
			else this.#afd(AFD.SendCompleted!, { Buffer: buf, BufferLength: n }, false, b);
		});
		this.#requestAfterClose();
		this.x.sendsPosted++;
		if (!status) {
			this.x.sends++;
			this.x.bytesSent += n;
		}
		return this;
	}

	/** `count` sends of `n` bytes, evenly within `withinMs` (a tiny-send storm when n ≤ 64). */
	sendBurst(count: number, n: number, withinMs: number): this {
		const first = this.t;
		for (let k = 0; k < count; k++) {
			this.t = first + tick((withinMs * k) / count);
			this.send(n);
		}
		if (n <= 64 && count >= 50 && withinMs < 1000)
			this.lc.expectFinding('tiny-send-storm', this.proc.who, this.x.key, [], count);
		return this;
	}

	recv(n: number, o: { cap?: number; status?: number; indicate?: boolean } = {}): this {
		const cap = o.cap ?? 65536;
		const status = o.status ?? STATUS_SUCCESS;
		const buf = this.lc.buffer(this.proc);
		const v = { BufferCount: 1, Buffer: buf };
		const indicate = (o.indicate ?? true) && n > 0 && !status;
		this.#call(
			AFD.AfdReceive!,
			{ ...v, BufferLength: cap },
			{ ...v, BufferLength: n, Status: status },
			0.4,
			(a, b) => {
				if (indicate && this.lc.modern)
					this.#afd(
						AFD.AfdDataIndication!,
						{ EnterExit: 1, Buffer: this.#kernelBuffer(), BufferLength: n },
						true,
						b - 2n,
					);
				if (!this.lc.legacy) return;
				this.#afd(AFD.RecvPosted!, { FastPath: 1, ...v, BufferLength: cap }, false, a);
				if (indicate) this.#afd(AFD.DataIndicated!, { 'Bytes Indicated': n }, true, b - 1n);
				if (status) this.#afd(AFD.RecvFailed!, { Error: status }, false, b);
				else this.#afd(AFD.RecvCompleted!, { Buffer: buf, BufferLength: n }, false, b);
			},
		);
		this.#requestAfterClose();
		this.x.receivesPosted++;
		if (indicate) this.x.bytesIndicated += n;
		if (!status) {
			this.x.receives++;
			this.x.bytesReceived += n;
		} else if (status !== STATUS_CANCELLED) this.x.error ??= statusName(status);
		return this;
	}

	sendto(remote: string, n: number): this {
		const buf = this.lc.buffer(this.proc);
		const v = { BufferCount: 1, Buffer: buf, BufferLength: n };
		const { Address, Port, v6 } = split(remote);
		this.#call(
			AFD.AfdSendToWithAddress!,
			{ ...v, Address: remote },
			{ ...v, Status: 0, Address: remote },
			0.05,
			(a, b) => {
				if (!this.lc.legacy) return;
				this.#afd(
					v6 ? AFD.SendtoPostedIPv6! : AFD.SendtoPostedIPv4!,
					{ FastPath: 1, ...v, Address, Port },
					false,
					a,
				);
				this.#afd(AFD.SendtoCompleted!, { Buffer: buf, BufferLength: n }, false, b);
			},
		);
		this.#requestAfterClose();
		this.x.remote ??= remote;
		this.x.sendsPosted++;
		this.x.sends++;
		this.x.bytesSent += n;
		return this;
	}

	recvfrom(remote: string, n: number): this {
		const buf = this.lc.buffer(this.proc);
		const v = { BufferCount: 1, Buffer: buf };
		const { Address, Port, v6 } = split(remote);
		this.#call(
			AFD.AfdReceiveFromWithAddress!,
			{ ...v, BufferLength: 1472 },
			{ ...v, BufferLength: n, Status: 0, Address: remote },
			2,
			(a, b) => {
				if (this.lc.modern)
					this.#afd(
						AFD.AfdDataIndicationWithAddress!,
						{ EnterExit: 1, Buffer: this.#kernelBuffer(), BufferLength: n, Address: remote },
						true,
						b - 2n,
					);
				if (!this.lc.legacy) return;
				this.#afd(AFD.RecvfromPosted!, { FastPath: 1, ...v, BufferLength: 1472 }, false, a);
				this.#afd(
					v6 ? AFD.DataIndicatedFromTransportIPv6! : AFD.DataIndicatedFromTransportIPv4!,
					{ Address, Port, 'Bytes Indicated': n },
					true,
					b - 1n,
				);
				this.#afd(
					v6 ? AFD.RecvfromCompletedIPv6! : AFD.RecvfromCompletedIPv4!,
					{ BufferCount: 1, Buffer: buf, BufferLength: n, Address, Port },
					false,
					b,
				);
			},
		);
		this.#requestAfterClose();
		this.x.remote ??= remote;
		this.x.receivesPosted++;
		this.x.receives++;
		this.x.bytesReceived += n;
		this.x.bytesIndicated += n;
		return this;
	}

	/** Whose socket an abort or drop finding names: the process, and its peer when it has one. */
	#about(): string {
		return this.x.remote ? `${this.proc.who} → ${this.x.remote}` : this.proc.who;
	}

	/** A datagram from `remote` dropped by AFD (AFD_DGRAM_DROP reason). */
	drop(remote: string, n: number, reason = 2): this {
		const t = this.step(0.3);
		const { Address, Port, v6 } = split(remote);
		const adds: number[] = [];
		if (this.lc.modern)
			adds.push(
				this.#afd(
					AFD.AfdDatagramDropWithAddress!,
					{
						EnterExit: 1,
						Location: 3,
						Buffer: 0,
						BufferLength: n,
						Address: remote,
						Reason: reason,
					},
					true,
					t,
				),
			);
		if (this.lc.legacy)
			adds.push(
				this.#afd(
					v6 ? AFD.DatagramDroppedIPv6! : AFD.DatagramDroppedIPv4!,
					{ PacketSize: n, Address, Port, Reason: reason },
					true,
					t + 1n,
				),
			);
		this.x.remote ??= remote;
		this.x.datagramsDropped++;
		this.lc.expectFinding(
			'datagram-dropped',
			`${this.#about()} — ${this.lc.dropName(reason)}`,
			this.x.key,
			adds,
		);
		return this;
	}

	option(option: number, value: number): this {
		this.#call(
			AFD.AfdOption!,
			{ Option: option, Value: value },
			{ Option: option, Value: value, Status: 0 },
			0.01,
			(a) => {
				if (this.lc.legacy)
					this.#afd(AFD.SocketOptionSet!, { Option: option, Value: value }, false, a);
			},
		);
		this.#requestAfterClose();
		return this;
	}

	listen(backlog = 200): this {
		// Legacy events have no listen: a legacy listener shows itself by its connection indications.
		if (this.lc.modern)
			this.#call(AFD.AfdListen!, { Backlog: backlog }, { Backlog: backlog, Status: 0 }, 0.02);
		else this.step();
		this.x.listening = true;
		return this;
	}

	/** A connection from `peer` accepted on this listening socket; returns the accepted socket. */
	accept(peer: string, o: { endpoint?: bigint } = {}): SocketScript {
		const lc = this.lc;
		const acc = new SocketScript(lc, this.proc, o.endpoint ?? lc.endpoint(this.proc), this.t, {
			family: this.x.family!,
			type: this.x.type!,
			protocol: this.x.protocol!,
		});
		lc.sockets.push(acc);
		const t = this.step(1);
		const { Address, Port, v6 } = split(peer);
		if (lc.modern)
			this.#afd(
				AFD.AfdConnectIndicationWithAddress!,
				{ EnterExit: 1, Location: 3, Status: 0, Address: peer, CurrentBacklog: 1 },
				true,
				t,
			);
		if (lc.legacy)
			lc.afd(
				this.proc,
				t + 1n,
				v6 ? AFD.ConnectionIndicatedIPv6! : AFD.ConnectionIndicatedIPv4!,
				{ 'Listen Endpoint': this.endpoint, Address, Port },
				true,
			);
		const te = this.step(0.02);
		const tx = this.step(0.1);
		let opened = tx;
		if (lc.modern) {
			this.#afd(AFD.AfdAcceptWithAddress!, { EnterExit: 0, Location: 1 }, false, te);
			const a = this.#afd(
				AFD.AfdAcceptWithAddress!,
				{
					EnterExit: 1,
					Location: 2,
					Status: 0,
					Address: peer,
					AcceptEndpoint: acc.endpoint,
					CurrentBacklog: 0,
				},
				false,
				tx,
			);
			acc.firstAdd = a;
		}
		if (lc.legacy) {
			const first = lc.afd(this.proc, tx + 1n, AFD.SocketCreate!, {
				Endpoint: acc.endpoint,
				AddressFamily: this.x.family!,
				SocketType: this.x.type!,
				Protocol: this.x.protocol!,
				UserModePid: this.proc.pid,
			});
			lc.afd(this.proc, tx + 2n, v6 ? AFD.AcceptIPv6! : AFD.AcceptIPv4!, {
				Endpoint: acc.endpoint,
				Address,
				Port,
				Status: 0,
			});
			if (!lc.modern) {
				acc.firstAdd = first;
				opened = tx + 1n;
			}
		}
		this.x.accepts++;
		Object.assign(acc.x, {
			origin: 'accepted',
			local: this.x.local,
			remote: peer,
			listener: this.x.key,
			opened: opened.toString(),
		});
		acc.t = tx + 3n;
		return acc;
	}

	abort(by: 'afd' | 'transport', reason = by === 'afd' ? 2 : 4): this {
		const t = this.step(0.5);
		const adds: number[] = [];
		const transport = by === 'transport';
		if (this.lc.modern)
			adds.push(
				this.#afd(AFD.AfdAbort!, { EnterExit: 1, Location: 3, Reason: reason }, transport, t),
			);
		if (this.lc.legacy)
			adds.push(this.#afd(by === 'afd' ? 7 : 8, { Reason: reason }, transport, t + 1n));
		this.x.state = 'aborted';
		this.x.endedBy = by === 'afd' ? 'afd-abort' : 'transport-abort';
		this.x.abortReason = reason;
		const name = `${this.#about()} — ${this.lc.abortName(reason)}`;
		this.lc.expectFinding(by === 'afd' ? 'afd-abort' : 'transport-abort', name, this.x.key, [
			adds[0]!,
		]);
		return this;
	}

	/** The peer's disconnect indicated by the transport. */
	disconnect(): this {
		const t = this.step(0.5);
		if (this.lc.modern)
			this.#afd(AFD.AfdDisconnect!, { EnterExit: 1, Location: 3, Status: 0 }, true, t);
		if (this.lc.legacy) this.#afd(AFD.DisconnectIndicated!, {}, true, t + 1n);
		this.peerGone = true;
		return this;
	}

	/** closesocket: AfdClose (1001) / legacy 13. The socket lives on until cleanup. */
	closeRequest(): this {
		this.#call(AFD.AfdClose!, {}, { Status: 0 }, 0.02, (a) => {
			if (this.lc.legacy) this.#afd(AFD.Close!, { Error: 0 }, false, a);
		});
		this.closeRequested = true;
		this.#ended();
		return this;
	}

	/** AfdCleanup (1002) / legacy 14: the end of the socket. */
	cleanup(): this {
		const r = this.#call(AFD.AfdCleanup!, {}, { Status: 0 }, 0.03, (_a, b) => {
			if (this.lc.legacy) this.#afd(AFD.CleanupShutdown!, { Error: 0 }, false, b);
		});
		this.x.closed = (this.lc.legacy ? r.end - 1n : r.end).toString();
		this.#ended();
		return this;
	}

	#ended(): void {
		if (this.x.state === 'open at end of trace') this.x.state = 'closed';
		this.x.endedBy ??= this.peerGone ? 'peer-disconnect' : 'application';
	}

	close(): this {
		return this.closeRequest().cleanup();
	}

	/** The socket's Endpoint is reused by a create without a cleanup in the trace. */
	lost(): this {
		this.x.endedBy = 'unknown';
		if (this.x.state === 'open at end of trace') this.x.state = 'closed';
		return this;
	}
}
