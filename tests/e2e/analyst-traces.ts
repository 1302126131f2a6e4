// Traces written for the analyst e2e tests with the test writer, each with what was written, so
// the tests compute the expected counts from the writer's inputs and never from the app.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { filetimeFromIso } from '../builders/bytes.ts';
import {
	EtlWriter,
	KERNEL_PROCESS_PROVIDER,
	PROCESS_START_DESCRIPTOR,
	processStartPayload,
	type PayloadValues,
	type TruthRecord,
} from '../builders/etl-writer.ts';
import { Prng } from '../builders/prng.ts';
import {
	AF_INET,
	AF_INET6,
	IPPROTO_TCP,
	SOCK_STREAM,
	STATUS_CONNECTION_REFUSED,
	STATUS_IO_TIMEOUT,
	STATUS_SUCCESS,
	afdId,
} from '../builders/afd-vocabulary.ts';
import { AfdScenario, type AfdProc } from '../builders/afd-scenario.ts';
import { projectRoot } from './server.ts';

const REFUSED = STATUS_CONNECTION_REFUSED;
const TIMEOUT = STATUS_IO_TIMEOUT;

/** One AFD event as written, joined with the writer's record of it. */
export interface WrittenEvent {
	readonly name: string;
	readonly process: string;
	readonly phase: 'enter' | 'exit';
	readonly status: number;
	readonly bytes: number | null;
	readonly remote: string | null;
	readonly record: TruthRecord;
}

export interface MixedTrace {
	readonly path: string;
	readonly records: TruthRecord[];
	readonly events: WrittenEvent[];
	readonly startTime: bigint;
}

interface Proc extends AfdProc {
	name: string;
	tid: number;
}

/**
 * Three processes (one with a space in its name) opening sockets to a handful of remotes: some
 * connects refused or timed out, the others sending and receiving. About 2,500 events.
 */
export function mixedTrace(): MixedTrace {
	const dir = join(projectRoot, '.cache', 'e2e');
	mkdirSync(dir, { recursive: true });
	const path = join(dir, 'analyst-mixed.etl');
	const rng = new Prng(0x5eed_a11e);
	const startTime = filetimeFromIso('2026-03-14T09:26:53.5897932Z');
	const w = new EtlWriter({ cpus: 4, loggerName: 'analyst', startTime });
	const procs: Proc[] = [
		{ pid: 3100, name: 'alpha.exe', eprocess: 0xffffa50c20000080n, tid: 3104, ptr: 8 },
		{ pid: 3200, name: 'beta.exe', eprocess: 0xffffa50c21000080n, tid: 3204, ptr: 8 },
		{ pid: 3300, name: 'gamma svc.exe', eprocess: 0xffffa50c22000080n, tid: 3304, ptr: 8 },
	];
	const remotes = ['10.0.0.5:8081', '10.1.2.3:443', '142.250.74.78:443', '[2001:db8::7]:443'];
	const written: Omit<WrittenEvent, 'record'>[] = [];
	const addIndex: number[] = [];
	let t = startTime + 10_000n;
	for (const p of procs) {
		w.addEvent({
			cpu: 0,
			time: t,
			pid: 4,
			tid: 8,
			provider: KERNEL_PROCESS_PROVIDER,
			...PROCESS_START_DESCRIPTOR,
			payload: processStartPayload({
				processId: p.pid,
				createTime: t,
				parentProcessId: 4,
				sessionId: 1,
				imageName: `\\Device\\HarddiskVolume3\\Apps\\${p.name}`,
			}),
		});
		t += 1000n;
	}
	// Its own PRNG draws the times and CPUs, so the writer is given both.
	const scenario = new AfdScenario<Proc>({
		writer: w,
		seed: 0,
		locations: {},
		migrate: 0,
		systemThreads: [8],
	});
	const afd = (
		p: Proc,
		tid: number,
		name: string,
		values: PayloadValues,
		meta: Omit<WrittenEvent, 'record' | 'name' | 'process'>,
	) => {
		t += BigInt(rng.int(200, 20_000));
		const cpu = rng.int(0, 3);
		addIndex.push(
			scenario.afd(
				{ proc: p, tid, cpu },
				t,
				afdId(name),
				{ Location: 1, ...values },
				{
					cpu,
					header: { pid: p.pid, tid },
				},
			),
		);
		written.push({ name, process: p.name, ...meta });
	};
	const call = (
		p: Proc,
		name: string,
		enter: PayloadValues,
		exit: PayloadValues,
		meta: { status?: number; remote?: string | null } = {},
	) => {
		const remote = meta.remote ?? null;
		const bytes = (v: PayloadValues) =>
			typeof v['BufferLength'] === 'number' ? (v['BufferLength'] as number) : null;
		// One of the process's threads makes the call: its enter and exit are logged on it.
		const tid = p.tid + rng.int(0, 2) * 4;
		afd(
			p,
			tid,
			name,
			{ EnterExit: 0, Status: STATUS_SUCCESS, ...enter },
			{ phase: 'enter', status: 0, bytes: bytes(enter), remote },
		);
		afd(
			p,
			tid,
			name,
			{ EnterExit: 1, ...exit },
			{ phase: 'exit', status: meta.status ?? 0, bytes: bytes(exit), remote },
		);
	};
	for (let s = 0; s < 60; s++) {
		const p = procs[s % 3]!;
		const remote = remotes[rng.int(0, remotes.length - 1)]!;
		const endpoint = 0xffffa50c30000000n + BigInt(s) * 0x400n;
		const v6 = remote.startsWith('[');
		call(
			p,
			'AfdCreate',
			{
				Endpoint: endpoint,
				AddressFamily: v6 ? AF_INET6 : AF_INET,
				SocketType: SOCK_STREAM,
				Protocol: IPPROTO_TCP,
				ProcessId: p.pid,
			},
			{
				Endpoint: endpoint,
				AddressFamily: v6 ? AF_INET6 : AF_INET,
				SocketType: SOCK_STREAM,
				Protocol: IPPROTO_TCP,
				ProcessId: p.pid,
				Status: 0,
			},
		);
		const outcome = s % 7 === 3 ? REFUSED : s % 11 === 5 ? TIMEOUT : STATUS_SUCCESS;
		call(
			p,
			'AfdConnectWithAddress',
			{ Endpoint: endpoint, Address: remote },
			{ Endpoint: endpoint, Address: remote, Status: outcome },
			{ status: outcome, remote },
		);
		if (outcome === STATUS_SUCCESS) {
			for (let k = rng.int(3, 25); k > 0; k--) {
				const n = rng.int(40, 4000);
				const name = rng.chance(0.5) ? 'AfdSend' : 'AfdReceive';
				call(
					p,
					name,
					{
						Endpoint: endpoint,
						BufferCount: 1,
						Buffer: 0x1000n,
						BufferLength: name === 'AfdReceive' ? 65536 : n,
					},
					{ Endpoint: endpoint, BufferCount: 1, Buffer: 0x1000n, BufferLength: n, Status: 0 },
				);
			}
		}
		call(p, 'AfdCleanup', { Endpoint: endpoint }, { Endpoint: endpoint, Status: 0 });
	}
	const file = w.finish();
	writeFileSync(path, file.bytes);
	const byAdd = new Map(file.records.map((r) => [r.addIndex, r]));
	const events = written.map((e, k) => ({ ...e, record: byAdd.get(addIndex[k]!)! }));
	return { path, records: file.records, events, startTime: file.startTime };
}
