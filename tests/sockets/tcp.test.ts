// TCPIP connection events per (local port, remote) and the outcome sentence a socket shows.
import { describe, expect, it } from 'vitest';
import { english, textIn } from '../../web/src/i18n/render.ts';
import { TcpTable, tcpOutcome, type TcpEvent } from '../../web/src/sockets/tcp.ts';

const LOCAL = '10.0.0.5:51000';
const REMOTE = '198.51.100.7:443';
let index = 0;
const ev = (id: number, o: Partial<TcpEvent> = {}): TcpEvent => ({
	index: index++,
	ticks: index * 10_000,
	id,
	local: LOCAL,
	remote: REMOTE,
	status: 0,
	pid: null,
	rexmit: null,
	tcb: '0xffffb30012340000',
	...o,
});

function table(events: TcpEvent[]): TcpTable {
	const t = new TcpTable();
	for (const e of events) t.add(e);
	return t;
}

describe('TCP outcome', () => {
	it('a connect that fails for lack of a route says so', () => {
		const t = table([ev(1002), ev(1031), ev(1021, { status: 0xc000023c })]);
		const o = tcpOutcome(t.find(51000, REMOTE, 0, Infinity))!;
		expect(o.result).toBe('failed');
		expect(o.text).toBe('TCP connect failed: no route');
		expect(o.statusName).toBe('STATUS_NETWORK_UNREACHABLE');
		expect(o.events).toHaveLength(3);
	});
	it('SYN retransmissions before a timeout are counted', () => {
		const syn = [1, 2, 3].map((k) => ev(1186, { rexmit: k }));
		const t = table([ev(1002), ev(1031), ...syn, ev(1045, { status: 0xc00000b5 })]);
		const o = tcpOutcome(t.find(51000, REMOTE, 0, Infinity))!;
		expect(o.synRetransmits).toBe(3);
		expect(o.text).toBe(
			'TCP connect failed: timed out, SYN retransmitted 3 times before the timeout',
		);
	});
	it('a reset answer is a refusal; a success with data retransmissions says both', () => {
		const refused = tcpOutcome(table([ev(1002), ev(1183)]).find(51000, REMOTE, 0, Infinity))!;
		expect(refused.text).toBe('TCP connect failed: refused (the peer sent a reset)');
		const ok = tcpOutcome(
			table([ev(1002), ev(1033), ev(1187, { rexmit: 1 }), ev(1187, { rexmit: 2 })]).find(
				51000,
				REMOTE,
				0,
				Infinity,
			),
		)!;
		expect(ok.result).toBe('connected');
		expect(ok.text).toBe('TCP connected, data retransmitted 2 times');
	});
	it('joins by local port and remote, within the window; the rundown at any time, with its Pid', () => {
		const t = table([
			ev(1002, { ticks: 1000 }),
			ev(1033, { ticks: 2000 }),
			ev(1002, { local: '10.0.0.5:51001', ticks: 1500 }),
			ev(1300, { local: '10.0.0.5:52000', status: 5, pid: 4120, ticks: 9e9 }),
		]);
		expect(t.find(51000, REMOTE, 0, 5000)).toHaveLength(1);
		expect(t.find(51000, REMOTE, 3000, 5000)).toHaveLength(0);
		expect(t.find(51000, '198.51.100.8:443', 0, 5000)).toHaveLength(0);
		// Without a local port: every connection to the remote in the window.
		expect(t.find(null, REMOTE, 0, 5000)).toHaveLength(3);
		const r = tcpOutcome(t.find(52000, REMOTE, 0, 1))!;
		expect([r.result, r.pid]).toEqual(['existing', 4120]);
		// PIDs of 4 and below are not trusted.
		const sys = tcpOutcome(table([ev(1002, { pid: 4 })]).find(51000, REMOTE, 0, Infinity))!;
		expect(sys.pid).toBeNull();
	});
	it('a second connect on the same 4-tuple after a failure is a new connection', () => {
		const t = table([ev(1002), ev(1021, { status: 0xc000023c }), ev(1002), ev(1033)]);
		const list = t.find(51000, REMOTE, 0, Infinity);
		expect(list).toHaveLength(2);
		expect(tcpOutcome(list)!.result).toBe('connected');
	});
});

describe('TCP outcome in Chinese', () => {
	const zh = (events: TcpEvent[]) =>
		textIn('zh', tcpOutcome(table(events).find(51000, REMOTE, 0, Infinity))!.message!);
	it('says the same sentences through the catalogue, English unchanged', () => {
		const syn = [1, 2, 3].map((k) => ev(1186, { rexmit: k }));
		expect(zh([ev(1002), ev(1021, { status: 0xc000023c })])).toBe('TCP 连接失败：无路由');
		expect(zh([ev(1002), ...syn, ev(1045, { status: 0xc00000b5 })])).toBe(
			'TCP 连接失败：超时，超时前 SYN 重传了 3 次',
		);
		expect(zh([ev(1002), ev(1183)])).toBe('TCP 连接失败：被拒绝（对端发送了重置）');
		expect(zh([ev(1002), ev(1033), ev(1187, { rexmit: 1 }), ev(1184)])).toBe(
			'TCP 已连接，数据重传了 1 次，被对端重置',
		);
		const o = tcpOutcome(table([ev(1002), ev(1033), ev(1047)]).find(51000, REMOTE, 0, Infinity))!;
		expect(o.text).toBe('TCP connected, dropped when keepalives went unanswered');
		expect(english(o.message!)).toBe(o.text);
	});
	it('a failure the event names no reason for quotes its NTSTATUS name in both languages', () => {
		const events = [ev(1002), ev(1034, { status: 0xc000023c })];
		const o = tcpOutcome(table(events).find(51000, REMOTE, 0, Infinity))!;
		expect(o.failure).toBe('STATUS_NETWORK_UNREACHABLE');
		expect(zh(events)).toBe('TCP 连接失败：STATUS_NETWORK_UNREACHABLE');
	});
});
