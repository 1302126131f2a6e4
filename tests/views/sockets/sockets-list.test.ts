// The Sockets panel's list and lanes over hand-made sockets: the filter's words and fields,
// sorting, the way to a socket's events, and the lanes' phases.
import { describe, expect, it } from 'vitest';
import { EVENT_MAPS_ZH } from '../../../web/src/generated/schemas.ts';
import { english, textIn } from '../../../web/src/i18n/render.ts';
import type { SocketSummary } from '../../../web/src/sockets/socket.ts';
import { laneOf, lanesOf, MAX_LANES } from '../../../web/src/views/sockets/lanes.ts';
import {
	axisOf,
	bytesText,
	cellText,
	compileSocketFilter,
	eventsOf,
	nextSort,
	pickFinding,
	rowOf,
	shownRows,
	sortDirection,
	sortRows,
	type SocketRow,
	type SortOrder,
} from '../../../web/src/views/sockets/socket-list.ts';

function socket(over: Partial<SocketSummary> & { key: string }): SocketSummary {
	const mark = (ticks: number, index: number) => ({ ticks, filetime: '0', iso: null, index });
	return {
		pid: 10,
		pidSource: 'create',
		process: 'app.exe',
		eprocess: null,
		endpoint: '0xffff0001',
		generation: 0,
		origin: 'created',
		family: 2,
		type: 1,
		protocol: 6,
		local: '10.0.0.1:5000',
		remote: '10.0.0.2:443',
		listening: false,
		listener: null,
		accepts: 0,
		opened: mark(10_000, 1),
		closed: mark(1_010_000, 9),
		closeRequested: mark(1_000_000, 8),
		firstEvent: mark(10_000, 1),
		lastEvent: mark(1_010_000, 9),
		state: 'closed',
		endedBy: 'application',
		connect: {
			attempts: 1,
			outcome: 'connected',
			ms: 20,
			failedAfterMs: null,
			status: 0,
			statusName: null,
			startIndex: 2,
			endIndex: 3,
		},
		bytesSent: 100,
		bytesReceived: 4096,
		sends: 1,
		receives: 1,
		sendsPosted: 1,
		receivesPosted: 1,
		bytesSendPosted: 100,
		bytesReceivePosted: 8192,
		sendFailures: 0,
		receiveFailures: 0,
		nestedSendExits: 0,
		nestedSendBytes: 0,
		peers: [],
		indications: 0,
		bytesIndicated: 0,
		datagramsDropped: 0,
		bytesDropped: 0,
		dropReasons: [],
		dropEvents: [],
		options: [],
		errors: [],
		error: null,
		abort: null,
		peerDisconnect: null,
		ioAfterClose: 0,
		ioAfterCloseEvents: [],
		tinySends: 0,
		tinySendStorm: null,
		legacy: false,
		modern: true,
		eventCount: 9,
		events: new Uint32Array([1, 2, 3, 4, 5, 6, 7, 8, 9]),
		...over,
	};
}

const ok = socket({ key: 'a#0' });
const refused = socket({
	key: 'b#0',
	process: 'curl.exe',
	pid: 20,
	endpoint: '0xffff0002',
	remote: '10.0.0.5:8081',
	connect: {
		attempts: 1,
		outcome: 'failed',
		ms: null,
		failedAfterMs: 1000,
		status: 0xc0000236,
		statusName: 'STATUS_CONNECTION_REFUSED',
		startIndex: 12,
		endIndex: 13,
	},
	errors: [
		{
			index: 13,
			ticks: 500_000,
			op: 'connect',
			status: 0xc0000236,
			name: 'STATUS_CONNECTION_REFUSED',
		},
	],
	error: 'STATUS_CONNECTION_REFUSED',
	bytesSent: 0,
	bytesReceived: 0,
});
const rows: SocketRow[] = [ok, refused].map((s) => rowOf(s));
const keys = (filter: string) => {
	const test = compileSocketFilter(filter);
	if (typeof test !== 'function') throw new Error(english(test));
	return rows.filter(test).map((r) => r.key);
};

describe('the sockets list in Chinese', () => {
	const words = {
		state: (state: string, failed: boolean) => (failed ? `${state}（连接失败）` : `状态-${state}`),
		endedBy: (e: string) => `结束-${e}`,
	};
	const zhRows = [ok, refused].map((s) => rowOf(s, words));
	const zhKeys = (filter: string) => {
		const test = compileSocketFilter(filter);
		if (typeof test !== 'function') throw new Error(english(test));
		return zhRows.filter(test).map((r) => r.key);
	};
	it('shows the words given and filters on them and on the English ones alike', () => {
		for (const [i, s] of [ok, refused].entries()) {
			const en = rowOf(s);
			expect(zhRows[i]!.english.state).toBe(en.state);
			expect(zhRows[i]!.state).not.toBe(en.state);
			expect(zhKeys(`state:${en.state.split(' ')[0]}`)).toContain(s.key);
			expect(zhKeys(`state:${zhRows[i]!.state}`)).toContain(s.key);
			expect(zhKeys(zhRows[i]!.state.split(/\s/)[0]!)).toContain(s.key);
		}
	});
});

describe('the sockets list', () => {
	it('filters by plain words, fields and numbers', () => {
		expect(keys('')).toEqual(['a#0', 'b#0']);
		expect(keys('curl')).toEqual(['b#0']);
		expect(keys('error:refused')).toEqual(['b#0']);
		expect(keys('-error:refused')).toEqual(['a#0']);
		expect(keys('state:failed')).toEqual(['b#0']);
		expect(keys('remote:443 process:app')).toEqual(['a#0']);
		expect(keys('latency>500')).toEqual(['b#0']);
		expect(keys('latency<1s')).toEqual(['a#0']);
		expect(keys('duration>99')).toEqual(['a#0', 'b#0']);
		expect(keys('received>=4k')).toEqual(['a#0']);
		// Spelled as the events filter spells them, exactly.
		expect(keys('rport:8081')).toEqual(['b#0']);
		expect(keys('rport:808')).toEqual([]);
		expect(keys(`raddr:${refused.remote!.replace(/:\d+$/, '')}`)).toEqual(['b#0']);
		expect(keys(`port:${ok.remote!.replace(/^.*:/, '')}`)).toEqual(['a#0']);
		expect(keys(`port:${ok.local!.replace(/^.*:/, '')}`)).toEqual(['a#0', 'b#0']);
		const problem = (filter: string) => {
			const p = compileSocketFilter(filter);
			return typeof p === 'function' ? null : p;
		};
		expect(english(problem('colour:red')!)).toBe("Unknown field 'colour'");
		expect(english(problem('latency>abc')!)).toBe("'abc' is not a number");
		expect(textIn('zh', problem('colour:red')!)).toBe('未知字段“colour”');
		expect(textIn('zh', problem('latency>abc')!)).toBe('“abc”不是数字');
	});

	it('sorts either way, with missing values last', () => {
		expect(sortRows(rows, 'bytesReceived', true).map((r) => r.key)).toEqual(['a#0', 'b#0']);
		expect(sortRows(rows, 'process', false).map((r) => r.key)).toEqual(['a#0', 'b#0']);
		expect(sortRows(rows, 'error', false).map((r) => r.key)).toEqual(['b#0', 'a#0']);
		expect(sortRows(rows, 'error', true).map((r) => r.key)).toEqual(['b#0', 'a#0']);
	});

	it('shows what the finding and the filter keep, sorted; a malformed filter keeps all', () => {
		const shown = (filter: string, keys: Set<string> | null, descending = false) =>
			shownRows(rows, compileSocketFilter(filter), keys, 'process', descending).map((r) => r.key);
		expect(shown('', null)).toEqual(['a#0', 'b#0']);
		expect(shown('', null, true)).toEqual(['b#0', 'a#0']);
		expect(shown('', new Set(['b#0']))).toEqual(['b#0']);
		expect(shown('curl', new Set(['a#0']))).toEqual([]);
		expect(shown('colour:red', null)).toEqual(['a#0', 'b#0']);
	});

	it('sorts by a clicked column, and turns the order round on a second click', () => {
		let order: SortOrder = { key: 'openedTicks', descending: false };
		order = nextSort(order, 'process');
		expect(order).toEqual({ key: 'process', descending: false });
		expect(sortDirection(order, 'process')).toBe('ascending');
		expect(sortDirection(order, 'openedTicks')).toBe('none');
		order = nextSort(order, 'process');
		expect(sortDirection(order, 'process')).toBe('descending');
		expect(nextSort(order, 'remote')).toEqual({ key: 'remote', descending: false });
	});

	it('picks a finding, selecting its socket when it has one, and drops it on a second click', () => {
		const one = { id: 'refused', sockets: ['b#0'] };
		const two = { id: 'slow', sockets: ['a#0', 'b#0'] };
		expect(pickFinding(null, one)).toEqual({ finding: one, select: 'b#0' });
		expect(pickFinding(one, two)).toEqual({ finding: two, select: null });
		expect(pickFinding(two, two)).toEqual({ finding: null, select: null });
	});

	it('says each cell plainly: a dash for nothing', () => {
		const [a, b] = rows as [SocketRow, SocketRow];
		expect(cellText(b, 'bytesSent')).toBe('—');
		expect(cellText(a, 'bytesReceived')).toBe(bytesText(4096));
		expect(cellText(a, 'openedTicks')).toBe('0.001000 s');
		expect(cellText(a, 'error')).toBe('—');
		expect(cellText(b, 'process')).toBe('curl.exe (20)');
	});

	it('leads to the events of the socket, with the failed connect selected', () => {
		expect(eventsOf(refused)).toEqual({
			filter: 'endpoint:0xffff0002',
			range: { from: 10_000, to: 1_010_001 },
			select: 13,
		});
		expect(eventsOf(ok).select).toBe(1);
	});
});

describe('the lanes', () => {
	it('cuts a life into connecting, open and closing, with error marks', () => {
		const lane = laneOf(ok, 0, 2_000_000);
		expect(lane.segments.map((s) => s.phase)).toEqual(['connecting', 'open', 'closing']);
		expect(lane.segments[0]!.x0).toBeCloseTo(0.005);
		expect(lane.segments[0]!.x1).toBeCloseTo(0.105);
		expect(lane.segments[2]!.x1).toBeCloseTo(0.505);
		const failed = laneOf(refused, 0, 2_000_000);
		expect(failed.segments[0]).toMatchObject({ phase: 'connecting', x1: 0.25 });
		expect(failed.markers.map((m) => ({ ...m, label: english(m.label) }))).toEqual([
			{ kind: 'error', x: 0.25, label: 'connect: STATUS_CONNECTION_REFUSED' },
		]);
		expect(textIn('zh', failed.markers[0]!.label)).toBe('connect：STATUS_CONNECTION_REFUSED');
	});

	it('names an abort by its reason, in Chinese from the schema', () => {
		const aborted: SocketSummary = {
			...ok,
			abort: {
				by: 'transport',
				reason: 4,
				reasonName: 'Transport indicated abortive disconnect',
				index: 3,
			},
		};
		const mark = laneOf(aborted, 0, 2_000_000).markers.find((m) => m.kind === 'abort')!;
		expect(english(mark.label)).toBe('aborted: Transport indicated abortive disconnect');
		expect(textIn('zh', mark.label)).toBe(`已中止：${EVENT_MAPS_ZH.afdAbort![4]}`);
	});

	it("writes cells in the reader's units", () => {
		expect(bytesText(512, 'zh')).toBe('512 字节');
		expect(cellText(rows[0]!, 'durationMs', 'zh')).toMatch(/(毫秒|秒)$/);
	});

	it('spans the trace, widened to every socket shown, and draws at most MAX_LANES', () => {
		expect(axisOf({ from: 0, to: 2_000_000 }, rows)).toEqual({ from: 0, to: 2_000_000 });
		expect(axisOf({ from: 20_000, to: 30_000 }, rows)).toEqual({ from: 10_000, to: 1_010_000 });
		const many = Array.from({ length: MAX_LANES + 5 }, () => rows[0]!);
		const lanes = lanesOf(many, { from: 0, to: 2_000_000 });
		expect(lanes).toHaveLength(MAX_LANES);
		expect(lanes[0]!.lane).toEqual(laneOf(ok, 0, 2_000_000));
	});
});
