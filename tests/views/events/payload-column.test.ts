// A payload field applied as a column: its cells show the named meaning (else the value), "filter
// on this" gives a term on the field, and the column comes after the chosen ones.
import { describe, expect, it } from 'vitest';
import type { RowView } from '../../../web/src/query/protocol.ts';
import type { PayloadValues } from '../../../web/src/worker/api.ts';
import {
	payloadColumn,
	visibleColumns,
	type CellContext,
} from '../../../web/src/views/events/columns.ts';

const ctx: CellContext = {
	processNames: new Map(),
	timeMode: 'relative',
	startFiletime: '0',
	payload: new Map<number, PayloadValues>([
		[7, { SocketType: { value: '2', meaning: 'SOCK_DGRAM' } }],
		[8, { 'Bytes Indicated': { value: '1460', meaning: null } }],
	]),
};
const row = (index: number) => ({ index }) as unknown as RowView;

describe('payload field columns', () => {
	it('shows the meaning or the value, and filters on the value', () => {
		const c = payloadColumn('SocketType');
		expect(c.id).toBe('field:SocketType');
		expect(c.text(row(7), ctx)).toBe('SOCK_DGRAM');
		expect(c.term(row(7), ctx)).toBe('SocketType == 2');
		expect(c.text(row(8), ctx)).toBe('');
		expect(c.term(row(8), ctx)).toBe(null);
		const spaced = payloadColumn('Bytes Indicated');
		expect(spaced.text(row(8), ctx)).toBe('1460');
		expect(spaced.term(row(8), ctx)).toBe('BytesIndicated == 1460');
	});

	it('comes after the chosen columns', () => {
		const columns = visibleColumns(['cpu', 'time'], ['SocketType']);
		expect(columns.map((c) => c.id)).toEqual(['time', 'cpu', 'field:SocketType']);
	});
});
