// The tracker's rules where the events leave room, fed through a plain in-memory view.
import { describe, expect, it } from 'vitest';
import {
	AFD_EVENTS,
	AFD_LOCATIONS,
	ENTER_EXIT_PHASES,
} from '../../web/src/generated/afd-semantics.ts';
import { MAX_PEERS, OTHER_REMOTES } from '../../web/src/sockets/live-socket.ts';
import { storyOf } from '../../web/src/sockets/story.ts';
import { SocketTracker } from '../../web/src/sockets/tracker.ts';
import { FIELD_NAMES, type AfdEventView } from '../../web/src/sockets/view.ts';

const P = '0xffffa50c12345080';
const E = '0xffffa50c1e2f4010';
const L = '0xffffa50c1e2f5000';
const PENDING = 0x103;
const CANCELLED = 0xc0000120;

type Fields = Record<string, number | string>;

/**
 * Feeds events given as [id, fields] (EnterExit for 1000+), 1 ms apart, header PID 4120 on thread
 * 1 unless the fields say otherwise ($pid, $tid).
 */
function track(events: [number, Fields][]): ReturnType<SocketTracker['snapshot']> {
	const t = new SocketTracker({ origin: 0n });
	events.forEach(([id, f], index) => {
		const { $pid, $tid, ...rest } = f;
		const named: Fields = { Process: P, ...rest };
		// Views are asked for fields by number.
		const fields = (n: number) => named[FIELD_NAMES[n]!];
		const v: AfdEventView = {
			index: index + 1,
			ticks: (index + 1) * 10_000,
			id,
			version: 0,
			headerPid: typeof $pid === 'number' ? $pid : 4120,
			tid: typeof $tid === 'number' ? $tid : 1,
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

describe('Winsock-AFD meaning from the generated tables', () => {
	const locations = Object.entries(AFD_LOCATIONS).map(([code, l]) => ({
		code: Number(code),
		...l,
	}));
	const send = (f: Fields = {}) => ({ BufferLength: 10, ...f });

	it('the tables agree with themselves', () => {
		for (const l of locations) {
			if (l.bytes === 'count' || l.bytes === 'double-count')
				expect(l.phase, `${l.code}`).toBe('exit');
			if (l.bytes === 'outer' || l.bytes === 'inner') expect(l.phase, `${l.code}`).toBe('enter');
		}
		for (const [id, m] of Object.entries(AFD_EVENTS)) {
			if (m.nests) expect(m.role, id).toBe('send');
			if (m.role === 'send' && m.datagram) expect(m.bytes, id).toBe('enter');
			if (m.role === 'receive') expect(m.bytes, id).toBe('exit');
		}
		expect(ENTER_EXIT_PHASES.slice(0, 2)).toEqual(['enter', 'exit']);
	});

	it('a send exit at a double-counting Location is never counted, at a counting one always', () => {
		const outer = locations.find((l) => l.bytes === 'outer')!.code;
		for (const l of locations.filter((l) => l.bytes === 'double-count')) {
			const [s] = track([
				...create(),
				[1003, enter(send({ Location: outer }))],
				[1003, exit(send({ Location: 1 }))],
				[1003, exit(send({ Location: l.code, $tid: 9 }))],
			]).sockets;
			expect([l.code, s!.bytesSent, s!.sends]).toEqual([l.code, 10, 1]);
		}
		for (const l of locations.filter((l) => l.bytes === 'count')) {
			// Two enters on one thread and its exit inside them: counted all the same.
			const [s] = track([
				...create(),
				[1003, enter(send({ Location: 1 }))],
				[1003, enter(send({ Location: 1, BufferLength: 4 }))],
				[1003, exit(send({ Location: l.code, BufferLength: 4 }))],
				[1003, exit(send({ Location: 2 }))],
			]).sockets;
			expect([l.code, s!.bytesSent, s!.nestedSendExits]).toEqual([l.code, 14, 0]);
		}
	});

	it('unknown Locations: nesting is per thread; sends on two threads are two sends', () => {
		const [s] = track([
			...create(),
			[1003, enter(send({ Location: 1, $tid: 1 }))],
			[1003, enter(send({ Location: 1, $tid: 2 }))],
			[1003, exit(send({ Location: 2, $tid: 2 }))],
			[1003, exit(send({ Location: 2, $tid: 1 }))],
		]).sockets;
		expect(s).toMatchObject({ sends: 2, bytesSent: 20, sendsPosted: 2, nestedSendExits: 0 });
	});

	it('EnterExit 2-4 are completions: counted, not requests, and their header PID teaches nothing', () => {
		const { sockets } = track([
			[1003, { EnterExit: 3, Endpoint: E, Location: 1, BufferLength: 7, Status: 0, $pid: 900 }],
			[1004, { EnterExit: 4, Endpoint: E, Location: 1, BufferLength: 9, Status: 0, $pid: 900 }],
		]);
		expect(sockets[0]).toMatchObject({
			sends: 1,
			bytesSent: 7,
			sendsPosted: 0,
			receives: 1,
			bytesReceived: 9,
			pid: null,
			pidSource: null,
		});
	});

	it('datagram sends: an exit without its enter counts; a failed exit takes back its enter', () => {
		const to = (f: Fields) => ({ BufferLength: 30, Address: '10.0.0.53:53', ...f });
		const [before] = track([[1013, exit(to({ Location: 3200 }))]]).sockets;
		expect(before).toMatchObject({ sends: 1, bytesSent: 30, type: 2, origin: 'before-trace' });
		expect(before!.peers).toMatchObject([{ remote: '10.0.0.53:53', datagramsSent: 1 }]);
		const [failed] = track([
			[1013, enter(to({ Location: 3100 }))],
			[1013, enter(to({ Location: 3100, BufferLength: 20, $tid: 2 }))],
			[1013, exit(to({ Location: 3200, Status: 0xc0000236 }))],
			[1013, exit(to({ Location: 3200, BufferLength: 20, $tid: 2 }))],
		]).sockets;
		expect(failed).toMatchObject({ sends: 1, bytesSent: 20, sendFailures: 1 });
		expect(failed!.peers).toMatchObject([{ bytesSent: 20, datagramsSent: 1 }]);
	});

	it('the header PID: a guess at an unknown Location gives way to a reliable one; PID 4 never counts', () => {
		const reliable = locations.find((l) => l.pid === 'reliable' && l.phase === 'enter')!.code;
		const close = locations.find((l) => l.pid === 'reliable-unless-system')!.code;
		const guess = track([[1004, enter({ Location: 1, BufferLength: 5, $pid: 300 })]]).sockets[0]!;
		expect([guess.pid, guess.pidSource]).toEqual([300, 'caller-header']);
		const known = track([
			[1004, enter({ Location: 1, BufferLength: 5, $pid: 300 })],
			[1003, enter({ Location: reliable, BufferLength: 5, $pid: 301 })],
		]).sockets[0]!;
		expect([known.pid, known.pidSource]).toEqual([301, 'reliable-location']);
		const system = track([[1001, enter({ Location: close, $pid: 4 })]]).sockets[0]!;
		expect(system.pid).toBeNull();
	});
});

describe('datagram remotes', () => {
	it('past MAX_PEERS remotes, the rest are one bucket; the story names a few', () => {
		const n = MAX_PEERS + 2;
		const events: [number, Fields][] = Array.from({ length: n }, (_, k) => [
			1013,
			enter({
				Location: 3100,
				BufferLength: 10,
				Address: `10.${(k >> 16) & 255}.${(k >> 8) & 255}.${k & 255}:53`,
			}),
		]);
		const [s] = track(events).sockets;
		expect(s!.peers).toHaveLength(MAX_PEERS + 1);
		expect(s!.peers.at(-1)).toMatchObject({
			remote: OTHER_REMOTES,
			datagramsSent: 2,
			bytesSent: 20,
		});
		expect(s!.bytesSent).toBe(10 * n);
		expect(storyOf(s!)).toContain(`with ${MAX_PEERS + 1} remotes`);
		expect(storyOf(s!)).toContain(`and ${MAX_PEERS + 1 - 4} more`);
	});
});
