// The one writer of Winsock-AFD scenarios: the sample (sample.ts), the benchmark's trace
// (bench/winsock-trace.ts), the scripted lifecycles (lifecycles.ts, and windows-afd.ts and the
// scenarios built on them) and the e2e analyst trace build their events through it. Scripts that
// keep their own clock and contexts name the CPU and header of each event, so it draws nothing
// random for them. It hands out endpoint and buffer
// pointers, moves threads between CPUs, and writes AFD events as Windows logs them: a call as an
// enter/exit pair at its Locations, a transport-side event in System's context. Everything random
// comes from one seeded PRNG in a fixed order, so a scenario gives the same bytes on every run.
import {
	EtlWriter,
	KERNEL_PROCESS_PROVIDER,
	PROCESS_START_DESCRIPTOR,
	processStartPayload,
	type PayloadValues,
} from './etl-writer.ts';
import { Prng } from './prng.ts';
import {
	AFD,
	AFD_WITH_PROCESS,
	STATUS_SUCCESS,
	UNLISTED_LOCATIONS,
	type LocationTable,
} from './afd-vocabulary.ts';

/** A process as the writer needs it: its PID, EPROCESS and the pointer size of its records. */
export interface AfdProc {
	readonly pid: number;
	readonly eprocess: bigint;
	readonly ptr: 4 | 8;
}

export interface AfdThread<P extends AfdProc = AfdProc> {
	readonly proc: P;
	readonly tid: number;
	/** The CPU it last ran on. */
	cpu: number;
}

/** The header PID/TID an event is logged with. */
export interface Header {
	pid: number;
	tid: number;
}

export interface AfdScenarioOptions {
	readonly writer: EtlWriter;
	readonly seed: number;
	/** Its Location codes by event id (the others are logged at UNLISTED_LOCATIONS). */
	readonly locations: LocationTable;
	/** How often a thread moves to another CPU when it logs a call. */
	readonly migrate: number;
	/** System's threads, that transport-side events are logged on. */
	readonly systemThreads: readonly number[];
	/** Pointer size of transport-side events: System's (8), or by default the socket's process's. */
	readonly transportPointerSize?: 4 | 8;
	/** Past this, 32-bit endpoint pointers start again from the first (long traces). */
	readonly endpoint32Wrap?: bigint;
}

/** What one event was written with, for the scenarios' counts. */
export interface WrittenAfd<P extends AfdProc> {
	readonly th: AfdThread<P>;
	readonly id: number;
	readonly values: PayloadValues;
	readonly pointerSize: 4 | 8;
}

const FIRST_ENDPOINT32 = 0x8b2d7e08n;

export class AfdScenario<P extends AfdProc> {
	readonly w: EtlWriter;
	readonly rng: Prng;
	readonly #o: AfdScenarioOptions;
	#nextEndpoint = 0xffffa50c1e2f4010n;
	#nextEndpoint32 = FIRST_ENDPOINT32;
	#nextBuffer = 0x000001d4c8e20000n;
	/** Told of every AFD event before it is written (the scenarios count them). */
	onAfd: ((e: WrittenAfd<P>) => void) | null = null;

	constructor(o: AfdScenarioOptions) {
		this.#o = o;
		this.w = o.writer;
		this.rng = new Prng(o.seed);
	}

	/** A random delay of `minMs`..`maxMs` milliseconds, in 100 ns ticks. */
	delay(minMs: number, maxMs: number): bigint {
		return BigInt(this.rng.int(Math.round(minMs * 10_000), Math.round(maxMs * 10_000)));
	}

	/** A new endpoint pointer of the process's width. */
	endpoint(proc: P): bigint {
		if (proc.ptr === 4) {
			const e = this.#nextEndpoint32;
			this.#nextEndpoint32 += 0x1a8n + BigInt(this.rng.int(0, 7) * 0x40);
			const wrap = this.#o.endpoint32Wrap;
			if (wrap !== undefined && this.#nextEndpoint32 > wrap)
				this.#nextEndpoint32 = FIRST_ENDPOINT32;
			return e;
		}
		const e = this.#nextEndpoint;
		this.#nextEndpoint += 0x2d0n + BigInt(this.rng.int(0, 31) * 0x10);
		return e;
	}

	/** A user buffer's address in the process. */
	buffer(proc: P): bigint {
		this.#nextBuffer += BigInt(this.rng.int(1, 64) * 0x100);
		return proc.ptr === 4 ? 0x02b40000n + (this.#nextBuffer & 0xffffn) : this.#nextBuffer;
	}

	/** The CPU a thread runs on now: it stays put most of the time and sometimes migrates. */
	cpuOf(th: AfdThread<P>): number {
		if (this.rng.chance(this.#o.migrate)) th.cpu = this.rng.int(0, this.w.cpus - 1);
		return th.cpu;
	}

	/** The Locations (enter, exit) of an event id. */
	locations(id: number): readonly [number, number] {
		return this.#o.locations[id] ?? UNLISTED_LOCATIONS;
	}

	/**
	 * One AFD event of `th`'s process. `transport`: logged in System's context (header PID 4, one of
	 * its threads, any CPU); `header`: logged with another header PID/TID; `cpu`: on that CPU.
	 * The process's EPROCESS goes in the payload when the event has a Process field. Returns the
	 * writer's add index.
	 */
	afd(
		th: AfdThread<P>,
		time: bigint,
		id: number,
		values: PayloadValues,
		opts: { cpu?: number; transport?: boolean; header?: Header } = {},
	): number {
		const system = opts.transport === true;
		const pointerSize = (system ? this.#o.transportPointerSize : undefined) ?? th.proc.ptr;
		this.onAfd?.({ th, id, values, pointerSize });
		return this.w.addAfd({
			cpu: opts.cpu ?? (system ? this.rng.int(0, this.w.cpus - 1) : this.cpuOf(th)),
			time,
			pid: opts.header?.pid ?? (system ? 4 : th.proc.pid),
			tid: opts.header?.tid ?? (system ? this.rng.pick(this.#o.systemThreads) : th.tid),
			id,
			pointerSize,
			values: AFD_WITH_PROCESS.has(id) ? { Process: th.proc.eprocess, ...values } : values,
		});
	}

	/**
	 * An enter/exit pair; returns the exit time. `exitIn`: the exit is logged at that Location in
	 * another context (a completion on whatever thread was interrupted); `inner`: events between.
	 */
	call(
		th: AfdThread<P>,
		t: bigint,
		dur: bigint,
		id: number,
		enter: PayloadValues,
		exit: PayloadValues,
		o: { exitIn?: { location: number; header: Header }; inner?: (cpu: number) => void } = {},
	): bigint {
		const [le, lx] = this.locations(id);
		const cpu = this.cpuOf(th);
		this.afd(th, t, id, { EnterExit: 0, Location: le, ...enter }, { cpu });
		const te = t + dur;
		o.inner?.(cpu);
		const location = o.exitIn?.location ?? lx;
		this.afd(
			th,
			te,
			id,
			{ EnterExit: 1, Location: location, ...exit },
			{ cpu: this.cpuOf(th), header: o.exitIn?.header },
		);
		return te;
	}

	/** A transport-side event (3000+): its exit Location, in System's context. */
	transport(th: AfdThread<P>, t: bigint, id: number, values: PayloadValues): void {
		const [, lx] = this.locations(id);
		this.afd(th, t, id, { EnterExit: 1, Location: lx, ...values }, { transport: true });
	}

	/** socket() → AfdCreate enter/exit; returns the exit time. */
	createCall(
		th: AfdThread<P>,
		t: bigint,
		dur: bigint,
		endpoint: bigint,
		family: number,
		type: number,
		protocol: number,
	): bigint {
		const v = {
			Endpoint: endpoint,
			AddressFamily: family,
			SocketType: type,
			Protocol: protocol,
			ProcessId: th.proc.pid,
		};
		return this.call(th, t, dur, AFD.AfdCreate!, v, { ...v, Status: STATUS_SUCCESS });
	}

	/** bind() → AfdBindWithAddress enter (the address asked) and exit (the one bound). */
	bindCall(
		th: AfdThread<P>,
		t: bigint,
		dur: bigint,
		endpoint: bigint,
		request: string,
		bound: string,
	): bigint {
		return this.call(
			th,
			t,
			dur,
			AFD.AfdBindWithAddress!,
			{ Endpoint: endpoint, Address: request },
			{ Endpoint: endpoint, Status: STATUS_SUCCESS, Address: bound },
		);
	}

	/** Kernel-Process ProcessStart, logged by the parent: the PID and image the trace names. */
	processStart(
		cpu: number,
		time: bigint,
		parent: Header,
		p: { pid: number; sessionId: number; image: string },
	): void {
		this.w.addEvent({
			cpu,
			time,
			pid: parent.pid,
			tid: parent.tid,
			provider: KERNEL_PROCESS_PROVIDER,
			...PROCESS_START_DESCRIPTOR,
			payload: processStartPayload({
				processId: p.pid,
				createTime: time,
				parentProcessId: parent.pid,
				sessionId: p.sessionId,
				flags: 0,
				imageName: p.image,
			}),
		});
	}
}
