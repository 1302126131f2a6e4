// The Δ time column (time since the previous match) and the time reference of the Time column,
// on screen and in the CSV of the screen.
import { describe, expect, it, vi } from 'vitest';
import type { RowView } from '../../../web/src/query/protocol.ts';
import {
	COLUMNS,
	visibleColumns,
	type CellContext,
} from '../../../web/src/views/events/columns.ts';
import {
	formatRelative,
	previousTimes,
	previousTimesAt,
	REFERENCE_MARK,
} from '../../../web/src/views/events/row-format.ts';
import { screenHeader, screenLines } from '../../../web/src/views/export/screen-csv.ts';

// The page's language module holds Svelte state; the CSV's headings are read in English here.
vi.mock('../../../web/src/i18n/locale.svelte.ts', async () => {
	const { render } = await import('../../../web/src/i18n/render.ts');
	return { t: (key: string, params?: Record<string, string>) => render('en', { key, params }) };
});

const base: RowView = {
	index: 0,
	time: 0,
	kind: 'event',
	event: 'AfdSend',
	provider: 'Microsoft-Windows-Winsock-AFD',
	eventId: 1003,
	level: 4,
	opcode: 0,
	pid: 5200,
	tid: 5204,
	cpu: 0,
	process: 5200,
	owner: 5200,
	ownerSource: 'socket',
	endpoint: null,
	local: null,
	remote: null,
	bytes: 100,
	status: null,
	statusName: null,
	error: false,
	phase: null,
};
// The matches of some filter: event indexes with gaps (other events do not match), times rising.
const TIMES = [1_000, 1_250, 41_250, 41_251, 3_041_251];
const rows: RowView[] = TIMES.map((time, k) => ({ ...base, index: 10 + 7 * k, time }));
const ctx: CellContext = {
	processNames: new Map(),
	timeMode: 'relative',
	startFiletime: '134179540135897932',
};
const column = (id: string) => COLUMNS.find((c) => c.id === id)!;

describe('Δ time', () => {
	it('is the time since the previous match, the first counting from itself', () => {
		const previousTime = previousTimes(rows, 0, null);
		const c = { ...ctx, previousTime };
		expect(rows.map((r) => column('delta').text(r, c))).toEqual(
			TIMES.map((t, k) => formatRelative(t - (k === 0 ? t : TIMES[k - 1]!))),
		);
	});

	it('continues from the row before a page, and is blank where that row is unknown', () => {
		const later = previousTimes(rows.slice(2), 2, TIMES[1]!);
		expect(later.get(rows[2]!.index)).toBe(TIMES[1]);
		const unknown = previousTimes(rows.slice(2), 2, null);
		expect(unknown.has(rows[2]!.index)).toBe(false);
		expect(column('delta').text(rows[2]!, { ...ctx, previousTime: unknown })).toBe('');
		expect(unknown.get(rows[3]!.index)).toBe(TIMES[2]);
	});

	it('is worked out from the table rows it holds, by position', () => {
		const held = new Map([
			[0, rows[0]!],
			[1, rows[1]!],
			[3, rows[3]!],
		]);
		const p = previousTimesAt(held);
		expect(p.get(rows[0]!.index)).toBe(TIMES[0]);
		expect(p.get(rows[1]!.index)).toBe(TIMES[0]);
		expect(p.has(rows[3]!.index)).toBe(false);
	});

	it('is off by default, offers no filter term, and goes into the CSV when shown', () => {
		expect(visibleColumns(['time', 'event']).map((c) => c.id)).toEqual(['time', 'event']);
		expect(column('delta').term(rows[1]!, ctx)).toBeNull();
		const table = { columns: visibleColumns(['time', 'delta', 'bytes']), ctx };
		expect(screenHeader(table)).toBe('Time (s),Δ time (s),Bytes\n');
		// Two pages of the export: the second continues from the first's last row.
		const text =
			screenLines(rows.slice(0, 2), table, 0, null) +
			screenLines(rows.slice(2), table, 2, TIMES[1]!);
		const lines = text.trim().split('\n');
		expect(lines.map((l) => l.split(',')[1])).toEqual(
			TIMES.map((t, k) => formatRelative(t - (k === 0 ? t : TIMES[k - 1]!))),
		);
	});
});

describe('time reference', () => {
	it('makes the Time column count from the reference, which reads *REF*', () => {
		const ref = rows[2]!;
		const c = { ...ctx, reference: { index: ref.index, time: ref.time } };
		const shown = rows.map((r) => column('time').text(r, c));
		expect(shown[2]).toBe(REFERENCE_MARK);
		expect(shown[0]).toBe(`-${formatRelative(ref.time - TIMES[0]!)}`);
		expect(shown[4]).toBe(formatRelative(TIMES[4]! - ref.time));
		// Its filter term is still the event's own instant.
		expect(column('time').term(rows[0]!, c)).toBe(column('time').term(rows[0]!, ctx));
	});

	it('heads the CSV as time since the reference', () => {
		const c = { ...ctx, reference: { index: rows[0]!.index, time: rows[0]!.time } };
		expect(screenHeader({ columns: visibleColumns(['time']), ctx: c })).toBe(
			'Time since reference (s)\n',
		);
	});
});
