// The column writer prints picked columns byte for byte as the record object path does
// (pickedEventLine(recordJson(...), eventRow(...))), on the sample, every real fixture and a
// generated Winsock trace, in both formats: every record column, every payload field and its
// meaning, and the events table's columns read from the chunk (with the sockets' owners).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { PAYLOAD_FIELDS } from '../../web/src/decoder/payload-fields.ts';
import { ProviderTable, recordJson } from '../../web/src/decoder/record-json.ts';
import { ByteSink } from '../../web/src/export/byte-sink.ts';
import { ColumnWriter } from '../../web/src/export/column-writer.ts';
import { COLUMN_VALUES, eventRow } from '../../web/src/export/tables.ts';
import { pickedEventLine, pickEventColumns } from '../../web/src/export/event-columns.ts';
import { CSV_COLUMNS, type ExportFormat } from '../../web/src/export/record-lines.ts';
import { open } from '../decoder/load.ts';
import { WHOLE_FIXTURES_MS } from '../timeouts.ts';
import { writerTraces } from './writer-traces.ts';
import { compareLines, storedTrace } from './stored-rows.ts';

const traces = writerTraces('column-writer', 2);

const NO_ID = 0xffffffff;
const OWN = -1;

const fieldNames = [...PAYLOAD_FIELDS.values()].flatMap((f) =>
	f.named ? [f.name, `${f.name}Name`] : [f.name],
);

/** Picks as `--columns` takes them: record columns, payload fields, meanings, mixed. */
const PICKS: string[][] = [
	CSV_COLUMNS.filter((c) => c !== 'fields'),
	fieldNames,
	['time', 'name', 'pid', 'Status', 'StatusName', 'Bytes Indicated'],
	['fields.Address', 'filetime', 'EnterExitName', 'Process', 'keyword', 'SocketTypeName'],
];

function columns(names: string[]) {
	const cols = pickEventColumns(names);
	if ('error' in cols) throw new Error(cols.error);
	return cols;
}

/**
 * Both paths over a whole trace, every other record with PID and TID replaced: lines that differ
 * (the first few), records, records written.
 */
async function compare(path: string, names: string[], format: ExportFormat) {
	const trace = await open(new Uint8Array(readFileSync(path)));
	const index = await indexBuffers(trace);
	const providers = new ProviderTable(trace);
	const cols = columns(names);
	const writer = new ColumnWriter(
		format,
		cols.map((c) => c.written),
		providers,
	);
	const sink = new ByteSink();
	const differ: { old: string; new: string }[] = [];
	let records = 0;
	let written = 0;
	await mergeRecords(trace, index.buffers, (b, i) => {
		records++;
		// The columns' PID and TID stand in for the record's own in exports of stored events.
		const override = records % 2 === 1;
		const pid = override ? (records % 3 === 0 ? NO_ID : records * 7) : OWN;
		const tid = override ? (records % 5 === 0 ? NO_ID : records * 11) : OWN;
		sink.length = 0;
		if (!writer.write(sink, b, i, pid, tid)) return;
		written++;
		const r = recordJson(b, i, trace, providers);
		if (override) {
			r.pid = pid === NO_ID ? null : pid;
			r.tid = tid === NO_ID ? null : tid;
		}
		const old = Buffer.from(pickedEventLine(r, null, cols, format) + '\n');
		const made = Buffer.from(sink.bytes.subarray(0, sink.length));
		if (!made.equals(old) && differ.length < 3)
			differ.push({ old: old.toString(), new: made.toString() });
	});
	return { differ, records, written };
}

/** Every column of the events table that the chunk alone holds, among record columns. */
const ROW_PICKS: string[][] = [
	Object.keys(COLUMN_VALUES),
	['time', 'process', 'owner', 'remote', 'bytes', 'Status', 'status_name', 'error', 'name'],
	['rport', 'raddr', 'host', 'process_name', 'owner_pid', 'owner_source', 'EnterExitName'],
];

/**
 * Both paths over a trace's stored rows (its chunks, as `decode --filter` reads them), with the
 * sockets' owners: lines that differ (the first few), rows, rows written.
 */
async function compareRows(path: string, names: string[], format: ExportFormat) {
	const stored = await storedTrace(new Uint8Array(readFileSync(path)));
	const cols = columns(names);
	const writer = new ColumnWriter(
		format,
		cols.map((c) => c.written),
		stored.records.providers,
	);
	return compareLines(
		stored,
		(sink, { c, i, at, row }) => writer.write(sink, at.buffer, at.i, c.pid[i]!, c.tid[i]!, row),
		(r, { c, i, row }) => {
			const line = eventRow(c, i, row.ctx, r, row.index, row.owners);
			return Buffer.from(pickedEventLine(r, line, cols, format) + '\n');
		},
	);
}

describe('column writer', { timeout: WHOLE_FIXTURES_MS }, () => {
	for (const [name, path] of traces)
		it(`${name}: picked columns as the record object prints them, NDJSON and CSV`, async () => {
			for (const names of PICKS)
				for (const format of ['ndjson', 'csv'] as const) {
					const { differ, records, written } = await compare(path, names, format);
					expect(records).toBeGreaterThan(0);
					expect(differ, `${format} ${names.join(',')}`).toEqual([]);
					// The Winsock events take the column writer.
					if (name === 'sample' || name === 'generated')
						expect(written).toBeGreaterThan(records / 2);
				}
		});

	for (const [name, path] of traces.filter(([n]) => n === 'sample' || n === 'generated'))
		it(`${name}: columns of the events table as the record object and its row print them`, async () => {
			for (const names of ROW_PICKS)
				for (const format of ['ndjson', 'csv'] as const) {
					const { differ, rows, written } = await compareRows(path, names, format);
					expect(differ, `${format} ${names.join(',')}`).toEqual([]);
					expect(written).toBeGreaterThan(rows / 2);
				}
		});

	it('leaves to the record object what it does not write', () => {
		const providers = new ProviderTable({ decoder: { providers: () => [] } } as never);
		const usable = (names: string[]) =>
			new ColumnWriter(
				'ndjson',
				columns(names).map((c) => c.written),
				providers,
			).usable;
		expect(usable(['time', 'Status'])).toBe(true);
		expect(usable(['time', 'fields'])).toBe(false);
		expect(usable(['time', 'Status', 'status'])).toBe(false);
	});
});
