// Exports and payload lookups of the worker over the bundled sample: the exported text must be
// exactly what `sockscope decode --filter` prints (the CLI's main() run in-process), and names
// and option changes must match the sample's ground truth and decoded records.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordDecoder } from '../../web/src/decoder/single-record.ts';
import { ingestTrace } from '../../web/src/ingest/ingest.ts';
import { ingestToMemory, type MemoryTrace } from '../builders/memory-chunks.ts';
import { TraceTables } from '../../web/src/ingest/trace-tables.ts';
import { importTracker } from '../../web/src/sockets/import-tracker.ts';
import { QueryEngine } from '../../web/src/query/engine.ts';
import type { ExportFormat } from '../../web/src/export/record-lines.ts';
import { exportSelection } from '../../web/src/worker/export-selection.ts';
import { exportParquet } from '../../web/src/worker/export-parquet.ts';
import { EVENT_COLUMNS, eventRow } from '../../web/src/export/tables.ts';
import { tableWriter } from '../../web/src/export/table-writer.ts';
import { COLUMN_NAMES, makeColumns, type ReadColumns } from '../../web/src/columns/layout.ts';
import { learnProcessNames } from '../../web/src/worker/process-names.ts';
import { RecordReader } from '../../web/src/worker/record-reader.ts';
import { optionChanges } from '../../web/src/worker/socket-payloads.ts';
import type { SampleTruth } from '../builders/sample.ts';
import { decoderModule, open } from '../decoder/load.ts';
import { sockscope } from '../cli/run.ts';

const root = join(import.meta.dirname, '../..');
const samplePath = join(root, 'public/sample.etl');
const truth = JSON.parse(
	readFileSync(join(root, 'tests/fixtures/sample/sample.truth.json'), 'utf8'),
) as SampleTruth;

let mem: MemoryTrace;
let engine: QueryEngine;
let reader: () => RecordReader;
let start: bigint;

beforeAll(async () => {
	const trace = await open(new Uint8Array(readFileSync(samplePath)), 'sample.etl');
	start = BigInt(trace.facts.startFiletime);
	mem = await ingestToMemory(trace);
	engine = new QueryEngine(mem.chunks, mem.context);
	reader = () =>
		new RecordReader(
			{ engine, records: mem.records },
			recordDecoder(decoderModule(), trace.facts),
			trace.facts,
		);
});

async function exported(filter: string, format: ExportFormat): Promise<string> {
	const sel = await engine.select(filter);
	let text = '';
	const utf8 = new TextDecoder();
	const r = await exportSelection(sel, reader(), format, (piece) => {
		// The piece's memory is written again once this returns.
		text += utf8.decode(piece, { stream: true });
		return true;
	});
	expect(r).toEqual({ rows: sel.matched, complete: true });
	return text;
}

async function cli(filter: string, format: ExportFormat): Promise<string> {
	return (await sockscope('decode', samplePath, '--format', format, '--filter', filter)).stdout;
}

describe('export', () => {
	it.each([
		['', 'ndjson'],
		['', 'csv'],
		['status:error', 'csv'],
		['event:AfdConnect* or event:AfdOption', 'ndjson'],
		['kind:header or kind:system or provider:*Kernel-Process', 'ndjson'],
		['process:5200', 'csv'],
	] as const)('%s as %s is what `sockscope decode --filter` prints', async (filter, format) => {
		const [ours, theirs] = await Promise.all([exported(filter, format), cli(filter, format)]);
		expect(ours).toBe(theirs);
	});

	it.each(['', 'status:error', 'event:AfdSend* or kind:header'])(
		'writes %s as Parquet byte for byte as from the record objects',
		async (filter) => {
			const sel = await engine.select(filter);
			const ctx = mem.context();
			const made: Uint8Array[] = [];
			const r = await exportParquet(sel, reader(), engine, ctx, (p) => {
				made.push(p.slice());
				return true;
			});
			expect(r).toEqual({ rows: sel.matched, complete: true });
			// Every row from its record object, as eventRow makes it.
			const objects: Uint8Array[] = [];
			const table = tableWriter('parquet', EVENT_COLUMNS, (p) => void objects.push(p.slice()));
			const read = reader();
			for (const part of sel.parts) {
				const loaded = await Promise.all(COLUMN_NAMES.map((n) => engine.column(part.chunk, n)));
				const c = makeColumns(COLUMN_NAMES, (n) => loaded[COLUMN_NAMES.indexOf(n)]!) as ReadColumns;
				const owners = await engine.owners(part.chunk);
				for (let k = 0; k < part.count; k++) {
					const row = part.rows ? part.rows[k]! : part.from + k;
					const json = (await read.json(part.chunk, row))!;
					await table.add(eventRow(c, row, ctx, json, part.base + row, owners));
				}
			}
			await table.close();
			expect(Buffer.concat(made).equals(Buffer.concat(objects))).toBe(true);
		},
	);

	it('writes every matching row once, in pieces, and stops when asked', async () => {
		const sel = await engine.select('');
		const all = await exported('', 'ndjson');
		expect(all.trimEnd().split('\n')).toHaveLength(truth.totalRecords);
		let pieces = 0;
		const stopped = await exportSelection(sel, reader(), 'ndjson', () => ++pieces < 0);
		expect(stopped.complete).toBe(false);
		expect(pieces).toBe(1);
	});
});

/** The sample's process names, read from its process events. */
const namesFromEvents = async () =>
	learnProcessNames(engine, await engine.select(''), mem.tables.eventTypes, reader(), start, 8);

describe('payload lookups', () => {
	it('names every process of the sample from its Kernel-Process events', async () => {
		const names = await namesFromEvents();
		for (const p of truth.processes) expect(names.get(p.pid), String(p.pid)).toBe(p.name);
	});

	it('names the same processes as an import learns while it decodes (so an opened trace need not read them again)', async () => {
		const trace = await open(new Uint8Array(readFileSync(samplePath)), 'sample.etl');
		const followed = importTracker(trace, false);
		const tables = new TraceTables();
		await ingestTrace(trace, async () => {}, {
			tables,
			observe: (b, i, row) => followed.observe(b, i, row),
			beforeCommit: (t) => followed.learnNames(t),
		});
		const read = await namesFromEvents();
		expect(read.size).toBe(truth.processes.length);
		expect(new Map(tables.processNames)).toEqual(read);
	});

	it('lists socket option changes with their names, values and processes', async () => {
		const rows = await optionChanges(
			engine,
			await engine.select(''),
			mem.tables.eventTypes,
			reader(),
			new Map([[4120, 'chrome.exe']]),
		);
		// Independently: the exit events of AfdOption, decoded by the CLI.
		const lines = (await cli('event:AfdOption', 'ndjson'))
			.trim()
			.split('\n')
			.map((l) => JSON.parse(l) as { fields: Record<string, unknown> })
			.filter((r) => r.fields['EnterExit'] === 1);
		expect(rows.reduce((n, r) => n + r.count + r.failed, 0)).toBe(lines.length);
		expect(rows[0]).toMatchObject({
			option: lines[0]!.fields['OptionName'],
			value: String(lines[0]!.fields['Value']),
			process: 'chrome.exe',
			filter: 'event:AfdOption process:4120',
		});
		const sel = await engine.select(rows[0]!.filter);
		expect(sel.matched).toBeGreaterThanOrEqual(rows[0]!.count);
	});
});
