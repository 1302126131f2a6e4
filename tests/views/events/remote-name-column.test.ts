// The events table's optional Remote name column: the first name the trace's DNS answers gave the
// row's remote address, and a host: term for "filter on this".
import { describe, expect, it } from 'vitest';
import type { RowView } from '../../../web/src/query/protocol.ts';
import {
	COLUMNS,
	DEFAULT_COLUMNS,
	type CellContext,
} from '../../../web/src/views/events/columns.ts';

const column = COLUMNS.find((c) => c.id === 'remoteName')!;
const ctx: CellContext = {
	processNames: new Map(),
	timeMode: 'relative',
	startFiletime: '0',
	hostNames: new Map([
		['151.101.1.69', ['www.reddit.com', 'reddit.map.fastly.net']],
		['2a04:4e42::645', ['www.reddit.com']],
	]),
};
const row = (remote: string | null) => ({ remote }) as unknown as RowView;

describe('Remote name column', () => {
	it('is offered but not shown by default', () => {
		expect(column.label).toBe('Remote name');
		expect(DEFAULT_COLUMNS).not.toContain('remoteName');
	});
	it('names IPv4 and IPv6 remotes, whatever their port, and filters on the name', () => {
		expect(column.text(row('151.101.1.69:443'), ctx)).toBe('www.reddit.com');
		expect(column.text(row('[2a04:4e42::645]:443'), ctx)).toBe('www.reddit.com');
		expect(column.term(row('151.101.1.69:443'), ctx)).toBe('host:www.reddit.com');
	});
	it('is empty without a remote or a name', () => {
		expect(column.text(row(null), ctx)).toBe('');
		expect(column.text(row('10.0.0.5:8081'), ctx)).toBe('');
		expect(column.term(row('10.0.0.5:8081'), ctx)).toBeNull();
		expect(column.text(row('151.101.1.69:443'), { ...ctx, hostNames: undefined })).toBe('');
	});
	it('names a remote seen before by the names known now (a trace being imported learns more)', () => {
		const names = new Map<string, readonly string[]>();
		const growing = { ...ctx, hostNames: names };
		expect(column.text(row('192.0.2.7:53'), growing)).toBe('');
		names.set('192.0.2.7', ['dns.example']);
		expect(column.text(row('192.0.2.7:53'), growing)).toBe('dns.example');
	});
});
