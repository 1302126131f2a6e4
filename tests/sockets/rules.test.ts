// The tracker's rules where the events leave room, fed through a plain in-memory view.
import { describe, expect, it } from 'vitest';
import { SocketTracker } from '../../web/src/sockets/tracker.ts';
import { FIELD_NAMES, type AfdEventView } from '../../web/src/sockets/view.ts';

const P = '0xffffa50c12345080';
const E = '0xffffa50c1e2f4010';
const L = '0xffffa50c1e2f5000';
const PENDING = 0x103;
const CANCELLED = 0xc0000120;

type Fields = Record<string, number | string>;

/** Feeds events given as [id, fields] (EnterExit for 1000+), 1 ms apart, header PID 4120. */
function track(events: [number, Fields][]): ReturnType<SocketTracker['snapshot']> {
	const t = new SocketTracker({ origin: 0n });
	events.forEach(([id, f], index) => {
		const named: Fields = { Process: P, ...f };
		// Views are asked for fields by number.
		const fields = (n: number) => named[FIELD_NAMES[n]!];
		const v: AfdEventView = {
			index: index + 1,
			ticks: (index + 1) * 10_000,
			id,
			version: 0,
			headerPid: 4120,
			tid: 1,
			num: (n) => {
				const x = fields(n);
				return typeof x === 'number' ? x : undefined;
			},
			ptr: (n) => {
				const x = fields(n);
				return typeof x === 'string' && /^0x/.test(x) ? x : undefined;
			},
			text: (n) => {
				const x = fields(n);
				return typeof x === 'string' ? x : undefined;
			},
		};
		t.afd(v);
	});
	return t.snapshot();
}

const enter = (f: Fields = {}): Fields => ({ EnterExit: 0, Endpoint: E, ...f });
const exit = (f: Fields = {}): Fields => ({ EnterExit: 1, Endpoint: E, Status: 0, ...f });
const create = (): [number, Fields][] => [
	[1000, enter({ AddressFamily: 2, SocketType: 1, Protocol: 6, ProcessId: 4120 })],
	[1000, exit({ AddressFamily: 2, SocketType: 1, Protocol: 6, ProcessId: 4120 })],
];

describe('tracker rules', () => {
	it('ConnectEx that returns STATUS_PENDING is connected by its first completed transfer', () => {
		const [s] = track([
			...create(),
			[1021, enter({ Address: '10.0.0.1:443' })],
			[1021, exit({ Status: PENDING, Address: '10.0.0.1:443' })],
			[1003, enter({ BufferLength: 10 })],
			[1003, exit({ BufferLength: 10 })],
		]).sockets;
		expect(s!.connect).toMatchObject({ outcome: 'connected', ms: null, attempts: 1 });
		expect(s!.state).toBe('open at end of trace');
	});

	it('a pending connect completed by legacy 6 keeps its latency from the enter', () => {
		const [s] = track([
			...create(),
			[1021, enter({ Address: '10.0.0.1:443' })],
			[1021, exit({ Status: PENDING })],
			[6, { Endpoint: E, Error: 0 }],
		]).sockets;
		// The outcome is legacy's, the start the enter/exit family's: 3rd → 5th event, 2 ms.
		expect(s!.connect).toMatchObject({ outcome: 'connected', ms: 2, startIndex: 3, endIndex: 5 });
	});

	it("the other family's cleanup after the socket ended is absorbed, not a new socket", () => {
		const { sockets } = track([
			...create(),
			[1001, enter()],
			[13, { Endpoint: E, Error: 0 }],
			[1001, exit()],
			[1002, enter()],
			[14, { Endpoint: E, Error: 0 }],
			[1002, exit()],
		]);
		expect(sockets).toHaveLength(1);
		expect(sockets[0]).toMatchObject({ state: 'closed', endedBy: 'application', eventCount: 8 });
		expect(sockets[0]!.closed!.index).toBe(7);
	});

	it('a create by another process on a live Endpoint starts a new generation', () => {
		const { sockets } = track([
			...create(),
			[1000, { ...enter({ ProcessId: 5200 }), Process: '0xffffa50c1a6b3080' }],
		]);
		expect(sockets.map((s) => [s.key, s.pid, s.endedBy])).toEqual([
			[`${E}#0`, 4120, 'unknown'],
			[`${E}#1`, 5200, null],
		]);
	});

	it('AcceptEx into a socket the application created: that socket is the accepted one', () => {
		const { sockets } = track([
			[1000, { ...enter({ ProcessId: 4120, SocketType: 1 }), Endpoint: L }],
			[1037, { ...exit({ Backlog: 5 }), Endpoint: L }],
			...create(),
			[1027, { ...enter(), Endpoint: L }],
			[1027, { ...exit({ Address: '10.0.0.9:5000', AcceptEndpoint: E }), Endpoint: L }],
		]);
		expect(sockets).toHaveLength(2);
		const [listener, accepted] = sockets;
		expect(listener).toMatchObject({ listening: true, accepts: 1 });
		expect(accepted).toMatchObject({
			origin: 'created',
			remote: '10.0.0.9:5000',
			listener: listener!.key,
		});
	});

	it('legacy accept (15) on a listening socket counts on the listener', () => {
		const [l] = track([
			[1, { Endpoint: L, AddressFamily: 2, SocketType: 1, Protocol: 6, UserModePid: 4120 }],
			[35, { 'Listen Endpoint': L, Address: '10.0.0.9', Port: 5000 }],
			[15, { Endpoint: L, Address: '10.0.0.9', Port: 5000, Status: 0 }],
		]).sockets;
		expect(l).toMatchObject({ listening: true, accepts: 1, remote: null });
	});

	it('I/O cancelled by closesocket is not the socket error; a reset is', () => {
		const [s] = track([
			...create(),
			[1004, enter({ BufferLength: 100 })],
			[1001, enter()],
			[1004, exit({ Status: CANCELLED, BufferLength: 0 })],
			[1002, exit()],
		]).sockets;
		expect(s).toMatchObject({ error: null, receiveFailures: 1, state: 'closed', ioAfterClose: 0 });
		expect(s!.errors.map((e) => e.name)).toEqual(['STATUS_CANCELLED']);
	});

	it('a send requested after closesocket is I/O after close; completions are not', () => {
		const [s] = track([
			...create(),
			[1003, enter({ BufferLength: 5 })],
			[1001, enter()],
			[1003, exit({ BufferLength: 5 })],
			[1003, enter({ BufferLength: 5 })],
			[18, { Endpoint: E, BufferLength: 5 }],
			[1003, exit({ BufferLength: 5 })],
		]).sockets;
		expect(s!.ioAfterClose).toBe(1);
		expect(s!.ioAfterCloseEvents).toEqual([6, 7]);
		expect(s!.sends).toBe(2);
	});

	it('an Endpoint with no create is a socket that existed before the trace', () => {
		const { sockets } = track([[3006, { EnterExit: 1, Endpoint: E, Status: 0 }]]);
		expect(sockets[0]).toMatchObject({
			origin: 'before-trace',
			opened: null,
			state: 'open at end of trace',
			endedBy: null,
			pid: null,
			process: 'unknown process',
		});
	});
});
