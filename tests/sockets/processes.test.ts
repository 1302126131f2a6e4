// Process names from Kernel-Process and kernel MOF events (real traces), and the EPROCESS → PID
// map the tracker builds from AFD create events, kernel events and header PIDs.
import { describe, expect, it } from 'vitest';
import { ProcessTable } from '../../web/src/sockets/processes.ts';
import type { ProcessEventView } from '../../web/src/sockets/view.ts';
import { ByteWriter } from '../builders/bytes.ts';
import { processStartPayload } from '../builders/payloads.ts';
import { realFixture } from '../decoder/load.ts';
import { trackBytes } from './track.ts';

describe('process names in real traces', () => {
	it('Kernel-Process on Windows 7: ProcessStart v0 names, ProcessStop v1 ends', async () => {
		const { tracked, viaJson } = await trackBytes(realFixture('tx-win7-kernel-process'));
		const byPid = new Map(tracked.processes.map((p) => [p.pid, p]));
		expect(byPid.get(5864)).toMatchObject({
			name: 'devenv.exe',
			parentPid: 3324,
			source: 'kernel-process',
		});
		expect(byPid.get(5864)!.endTicks).not.toBeNull();
		// A stop of a process whose start is not in the trace: EPROCESS keeps 14 characters.
		expect(byPid.get(5380)).toMatchObject({ name: 'SearchProtocol', startTicks: null });
		expect(tracked.processes).toHaveLength(6);
		expect(viaJson.processes).toEqual(tracked.processes);
	});

	it('NT kernel logger MOF process events (v4 DCStart/End, v5 Defunct, with SIDs)', async () => {
		const { tracked, viaJson } = await trackBytes(
			realFixture('etlparser-shutdown-perfdiag-kernel'),
		);
		const byPid = new Map<number, string[]>();
		for (const p of tracked.processes) byPid.set(p.pid, [...(byPid.get(p.pid) ?? []), p.name!]);
		expect(byPid.get(0)).toEqual(['Idle']);
		expect(byPid.get(4)).toEqual(['System']);
		expect(byPid.get(6780)).toEqual(['SecurityHealthSystray.exe']);
		// End then Defunct of one process is one process.
		expect(byPid.get(496)).toEqual(['svchost.exe']);
		expect(tracked.processes.every((p) => p.name && p.source === 'mof')).toBe(true);
		expect(viaJson.processes).toEqual(tracked.processes);
	});
});

const view = (
	v: Partial<ProcessEventView> & Pick<ProcessEventView, 'payload' | 'id'>,
): ProcessEventView => ({
	index: 0,
	ticks: 0,
	source: 'kernel-process',
	version: 1,
	headerPid: 4,
	pointerSize: 8,
	...v,
});

const start = (pid: number, image: string, ticks: number) =>
	view({
		id: 1,
		ticks,
		payload: processStartPayload({
			processId: pid,
			createTime: 0n,
			parentProcessId: 1,
			sessionId: 1,
			imageName: image,
		}),
	});

describe('process table', () => {
	it('a reused PID names the process of the moment', () => {
		const t = new ProcessTable();
		t.onEvent(start(900, '\\Device\\HarddiskVolume3\\a.exe', 10));
		t.onEvent(start(900, '\\Device\\HarddiskVolume3\\b.exe', 50));
		expect(t.label(900, 20)).toBe('a.exe');
		expect(t.label(900, 60)).toBe('b.exe');
		expect(t.label(901, 60)).toBe('PID 901');
		expect(t.label(null, 60)).toBe('unknown process');
	});

	it('the same start from Kernel-Process and the kernel logger is one process', () => {
		const t = new ProcessTable();
		t.onEvent(start(900, '\\Device\\HarddiskVolume3\\a.exe', 10));
		const mof = new ByteWriter(64)
			.ptr(0xffffa50c11110080n, 8)
			.u32(900)
			.u32(1)
			.u32(1)
			.u32(0)
			.ptr(0n, 8)
			.u32(0)
			.u32(0)
			.finish();
		const payload = new Uint8Array([...mof, ...new TextEncoder().encode('a.exe\0'), 0, 0]);
		t.onEvent(view({ source: 'mof', id: 1, version: 4, ticks: 12, payload }));
		expect(t.list()).toHaveLength(1);
		expect(t.pidOf('0xffffa50c11110080', 12)).toBe(900);
	});

	it('EPROCESS → PID: creates and kernel events outrank header PIDs; mappings change in time', () => {
		const t = new ProcessTable();
		t.learnPid('0xe1', 100, 5, 'header');
		expect(t.pidOf('0xe1', 0)).toBe(100);
		t.learnPid('0xe1', 200, 10, 'afd-create');
		t.learnPid('0xe1', 300, 20, 'header');
		expect(t.pidOf('0xe1', 15)).toBe(200);
		expect(t.pidOf('0xe1', 25)).toBe(200);
		// The EPROCESS is reused by a new process.
		t.learnPid('0xe1', 400, 30, 'afd-create');
		expect(t.pidOf('0xe1', 25)).toBe(200);
		expect(t.pidOf('0xe1', 35)).toBe(400);
		expect(t.pidOf('0xe2', 35)).toBeNull();
	});
});
