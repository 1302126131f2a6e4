// Selected rows as TSV and Markdown, and the filter terms of the table's cells.
import { describe, expect, it } from 'vitest';
import type { RowView } from '../../../web/src/query/protocol.ts';
import { parseFilter } from '../../../web/src/query/filter-parser.ts';
import {
	COLUMNS,
	visibleColumns,
	type CellContext,
} from '../../../web/src/views/events/columns.ts';
import { formatUtcTime } from '../../../web/src/views/events/row-format.ts';
import { rowsAsMarkdown, rowsAsTsv } from '../../../web/src/views/export/copy-rows.ts';

const row: RowView = {
	index: 982,
	time: 19234992,
	kind: 'event',
	event: 'AfdConnectWithAddress',
	provider: 'Microsoft-Windows-Winsock-AFD',
	eventId: 1018,
	level: 4,
	opcode: 12,
	pid: 5200,
	tid: 5204,
	cpu: 2,
	process: 5200,
	owner: 5200,
	ownerSource: 'socket',
	endpoint: '0xffffa50c1e2f6e10',
	local: null,
	remote: '[fe80::1%12]:8081',
	bytes: 0,
	status: 0xc0000236,
	statusName: 'STATUS_CONNECTION_REFUSED',
	error: true,
	phase: 'exit',
};
const ctx: CellContext = {
	processNames: new Map([[5200, 'curl | co.exe']]),
	timeMode: 'relative',
	startFiletime: '134179540135897932',
};

describe('cells', () => {
	it('show times since the start or in UTC, to the microsecond', () => {
		expect(COLUMNS[0]!.text(row, ctx)).toBe('1.923499');
		expect(formatUtcTime(ctx.startFiletime, row.time)).toBe('09:26:55.513292');
	});

	it('stand for filter terms that parse', () => {
		const terms = COLUMNS.map((c) => c.term(row, ctx));
		expect(terms).toContain('raddr:fe80::1 rport:8081');
		expect(terms).toContain('status:STATUS_CONNECTION_REFUSED');
		expect(terms).toContain('time>=2026-03-14T09:26:55.5132924Z');
		for (const t of terms) if (t) expect(() => parseFilter(t), t).not.toThrow();
	});
});

describe('copying rows', () => {
	const columns = visibleColumns(['time', 'process', 'event', 'status']);

	it('as tab-separated values with a header', () => {
		expect(rowsAsTsv([row], columns, ctx)).toBe(
			'Time\tProcess\tEvent\tStatus\n' +
				'1.923499\tcurl | co.exe (5200)\tAfdConnectWithAddress (exit)\tSTATUS_CONNECTION_REFUSED\n',
		);
	});

	it('as a Markdown table, pipes escaped and numbers right-aligned', () => {
		expect(rowsAsMarkdown([row], columns, ctx)).toBe(
			'| Time | Process | Event | Status |\n' +
				'| ---: | --- | --- | --- |\n' +
				'| 1.923499 | curl \\| co.exe (5200) | AfdConnectWithAddress (exit) | STATUS_CONNECTION_REFUSED |\n',
		);
	});
});
