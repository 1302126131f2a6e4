// The events table written straight from each record's buffer (ColumnWriter over EVENT_PICKS, as
// `sockscope export` writes NDJSON and CSV) is, line for line, what the table writer makes of
// eventRow: on the sample, every real fixture, a generated Winsock trace (with the sockets'
// owners), and a trace whose times cross 2^53 ticks (in 1629), below which JSON holds the events
// table's FILETIME as a number.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ColumnWriter } from '../../web/src/export/column-writer.ts';
import { EVENT_PICKS } from '../../web/src/export/event-picks.ts';
import { EVENT_COLUMNS, eventRow } from '../../web/src/export/tables.ts';
import { tableWriter, type Row } from '../../web/src/export/table-writer.ts';
import { WHOLE_FIXTURES_MS } from '../timeouts.ts';
import { across2to53, writerTraces } from './writer-traces.ts';
import { compareLines, storedTrace } from './stored-rows.ts';
import { HOSTILE_CASES } from '../fixtures/hostile/cases.ts';

type TextFormat = 'ndjson' | 'csv';

/** The line the table writer makes of one row (the CSV header left out). */
async function tableLine(format: TextFormat, row: Row): Promise<Buffer> {
	const pieces: Uint8Array[] = [];
	const table = tableWriter(format, EVENT_COLUMNS, (p) => void pieces.push(p.slice()));
	await table.add(row);
	await table.close();
	const text = Buffer.concat(pieces);
	return format === 'csv' ? text.subarray(text.indexOf(10) + 1) : text;
}

/** Both paths over a trace's stored rows: lines that differ (the first few), rows, rows written. */
async function compare(bytes: Uint8Array, format: TextFormat) {
	const stored = await storedTrace(bytes);
	const writer = new ColumnWriter(format, EVENT_PICKS, stored.records.providers);
	return compareLines(
		stored,
		(sink, { c, i, at, row }) => writer.write(sink, at.buffer, at.i, c.pid[i]!, c.tid[i]!, row),
		(r, { c, i, row }) => tableLine(format, eventRow(c, i, row.ctx, r, row.index, row.owners)),
	);
}

const traces = writerTraces('event-picks', 1);

describe('the events table from the buffer', { timeout: WHOLE_FIXTURES_MS }, () => {
	for (const [name, path] of traces)
		it(`${name}: each line as the table writer makes it of eventRow`, async () => {
			const bytes = new Uint8Array(readFileSync(path));
			for (const format of ['ndjson', 'csv'] as const) {
				const { differ, rows, written } = await compare(bytes, format);
				expect(rows).toBeGreaterThan(0);
				expect(differ, format).toEqual([]);
				// The Winsock events take the writer, payload and all.
				if (name === 'sample' || name === 'generated') expect(written).toBeGreaterThan(rows / 2);
			}
		});

	it('writes the hand-made hostile traces that open as the table writer does', async () => {
		let opened = 0;
		for (const c of HOSTILE_CASES.filter((h) => !h.large))
			for (const format of ['ndjson', 'csv'] as const) {
				let differ: { old: string; new: string }[];
				try {
					({ differ } = await compare(c.bytes(), format));
				} catch {
					continue; // not a trace at all, or nothing stored to read back
				}
				opened++;
				expect(differ, `${c.name} ${format}`).toEqual([]);
			}
		expect(opened).toBeGreaterThan(0);
	});

	it('leaves a FILETIME JSON holds as a number to eventRow, and writes those above it', async () => {
		const bytes = across2to53();
		const ndjson = await compare(bytes, 'ndjson');
		expect(ndjson.differ).toEqual([]);
		// The seconds that reach 2^53 (two of the four) go to eventRow; the later ones are written.
		expect(ndjson.written).toBeGreaterThan(0);
		expect(ndjson.written).toBeLessThan(ndjson.rows / 2);
		// CSV holds the digits either way: every event is written.
		const csv = await compare(bytes, 'csv');
		expect(csv.differ).toEqual([]);
		expect(csv.written).toBeGreaterThan(ndjson.written);
	});

	it('holds a line a writer declines to write, and counts those it writes', async () => {
		const pieces: Uint8Array[] = [];
		const table = tableWriter('ndjson', EVENT_COLUMNS, (p) => void pieces.push(p.slice()));
		expect(
			table.write!((sink) => {
				sink.ascii('half a line');
				return false;
			}),
		).toBe(false);
		expect(
			table.write!((sink) => {
				sink.ascii('{"index":1}\n');
				return true;
			}),
		).toBe(true);
		await table.add({ index: 2 });
		expect(await table.close()).toBe(2);
		const lines = Buffer.concat(pieces).toString().split('\n');
		expect(lines[0]).toBe('{"index":1}');
		expect(JSON.parse(lines[1]!).index).toBe(2);
	});
});
