// The exported events table's remote_name: the first name the trace's DNS answers gave the row's
// remote address, as the names known when the row is written (they grow while a trace imports).
import { describe, expect, it } from 'vitest';
import type { RecordJson } from '../../web/src/decoder/record-json.ts';
import { eventRow } from '../../web/src/export/tables.ts';
import { NO_PID, type Columns } from '../../web/src/columns/layout.ts';
import type { FilterContext } from '../../web/src/query/filter-nodes.ts';

const strings = ['', '151.101.1.69', '2a04:4e42::645', 'not an address'];
// Rows 0..3: remote string 1, 2, 3 and none; row 4 the first address again.
const raddr = [1, 2, 3, 0, 1];
const columns = {
	flags: new Uint8Array(5),
	process: new Uint32Array(5).fill(NO_PID),
	endpoint: new Uint32Array(5),
	laddr: new Uint32Array(5),
	lport: new Uint16Array(5),
	raddr: Uint32Array.from(raddr),
	rport: new Uint16Array(5).fill(443),
	bytes: new Float64Array(5),
	status: new Uint32Array(5),
} as unknown as Columns;
const owners = { pid: new Uint32Array(5).fill(NO_PID), source: new Uint8Array(5) };
const record = {
	kind: 'event',
	time: null,
	filetime: '1',
	fields: {},
} as unknown as RecordJson;

describe('events table remote_name', () => {
	it('names IPv4 and IPv6 remotes by the names known when each row is written', () => {
		const hostNames = new Map<string, readonly string[]>([
			['151.101.1.69', ['www.reddit.com', 'reddit.map.fastly.net']],
		]);
		const ctx = { strings, hostNames, processNames: new Map() } as unknown as FilterContext;
		const name = (i: number) => eventRow(columns, i, ctx, record, i, owners)['remote_name'];
		expect([0, 1, 2, 3].map(name)).toEqual(['www.reddit.com', null, null, null]);
		expect(eventRow(columns, 1, ctx, record, 1, owners)['remote']).toBe('[2a04:4e42::645]:443');
		hostNames.set('2a04:4e42::645', ['www.reddit.com']);
		expect([1, 4].map(name)).toEqual(['www.reddit.com', 'www.reddit.com']);
	});
});
