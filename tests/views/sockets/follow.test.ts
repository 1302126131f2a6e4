// Follow socket's steps over hand-made rows: the side of each event comes from its role in the
// Winsock semantics (sends and connects towards the peer, receives back, the rest on the socket),
// bytes only on the phase that carries a transfer's size, times since the first and the last step.
import { describe, expect, it } from 'vitest';
import { AFD_EVENTS } from '../../../web/src/generated/afd-semantics.ts';
import type { RowView } from '../../../web/src/query/protocol.ts';
import { followSteps } from '../../../web/src/views/sockets/follow.ts';

const AFD = 'Microsoft-Windows-Winsock-AFD';
const idOf = (name: string) =>
	Number(Object.entries(AFD_EVENTS).find(([, m]) => m.name === name)![0]);

function row(index: number, time: number, event: string, over: Partial<RowView> = {}): RowView {
	return {
		index,
		time,
		kind: 'event',
		event,
		provider: AFD,
		eventId: idOf(event),
		level: 5,
		opcode: 0,
		pid: 10,
		tid: 1,
		cpu: 0,
		process: 10,
		endpoint: '0xffff0001',
		local: null,
		remote: null,
		bytes: null,
		status: 0,
		statusName: null,
		error: false,
		phase: 'exit',
		owner: null,
		ownerSource: null,
		...over,
	};
}

describe('follow socket', () => {
	const send = AFD_EVENTS[idOf('AfdSend')]!;
	const receive = AFD_EVENTS[idOf('AfdReceive')]!;
	const rows = [
		row(5, 1_000, 'AfdConnectWithAddress', { phase: 'enter' }),
		row(6, 31_000, 'AfdConnectWithAddress'),
		row(7, 41_000, 'AfdSend', { phase: send.bytes === 'exit' ? 'enter' : 'exit', bytes: 4096 }),
		row(8, 42_000, 'AfdSend', { phase: send.bytes ?? 'exit', bytes: 517 }),
		row(9, 90_000, 'AfdReceive', { phase: receive.bytes ?? 'exit', bytes: 1200 }),
		row(10, 95_000, 'AfdReceive', {
			phase: receive.bytes ?? 'exit',
			bytes: 17_408,
			error: true,
			statusName: 'STATUS_CONNECTION_RESET',
		}),
		row(11, 99_000, 'AfdClose', { phase: 'enter' }),
		row(12, 99_500, 'AfdCleanup'),
	];
	const steps = followSteps(rows);

	it('puts each event on its side by its role', () => {
		expect(steps.map((s) => s.side)).toEqual([
			'out',
			'out',
			'out',
			'out',
			'in',
			'in',
			'local',
			'local',
		]);
	});

	it('shows bytes on the phase that carries them, never on a failed transfer', () => {
		expect(steps.map((s) => s.bytes)).toEqual([null, null, null, 517, 1200, null, null, null]);
	});

	it('times each step since the first and since the one before', () => {
		expect(steps.map((s) => s.ms)).toEqual(rows.map((r) => (r.time - rows[0]!.time) / 10_000));
		expect(steps.map((s) => s.deltaMs)).toEqual(
			rows.map((r, i) => (i === 0 ? 0 : (r.time - rows[i - 1]!.time) / 10_000)),
		);
	});

	it('leaves events of other providers on the socket', () => {
		const [s] = followSteps([
			row(1, 0, 'AfdSend', { provider: 'Microsoft-Windows-TCPIP', bytes: 9 }),
		]);
		expect(s).toMatchObject({ side: 'local', bytes: null });
	});
});
