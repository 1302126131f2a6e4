// The Group by tree as a file: Group by over the sample written as Parquet, read back by DuckDB
// (one row per group, the levels' labels, its figures), and the same rows in CSV and NDJSON.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestToMemory } from '../builders/memory-chunks.ts';
import { QueryEngine } from '../../web/src/query/engine.ts';
import { buildPivot, type Pivot } from '../../web/src/query/pivot.ts';
import { pivotTable } from '../../web/src/export/pivot-table.ts';
import { tableWriter, type TableFormat } from '../../web/src/export/table-writer.ts';
import type { SampleTruth } from '../builders/sample.ts';
import { open } from '../decoder/load.ts';
import { query } from './duckdb.ts';

const root = join(import.meta.dirname, '../..');
const sample = new Uint8Array(readFileSync(join(root, 'public/sample.etl')));
const truth = JSON.parse(
	readFileSync(join(root, 'tests/fixtures/sample/sample.truth.json'), 'utf8'),
) as SampleTruth;

let pivot: Pivot;

beforeAll(async () => {
	const mem = await ingestToMemory(await open(sample, 'sample.etl'));
	const engine = new QueryEngine(mem.chunks, mem.context);
	const sel = await engine.select('provider:Microsoft-Windows-Winsock-AFD');
	pivot = await buildPivot(engine, mem.context(), sel, ['process', 'socket', 'field:SocketType']);
});

async function write(format: TableFormat): Promise<string> {
	const { columns, rows } = pivotTable(pivot);
	const pieces: Uint8Array[] = [];
	const w = tableWriter(format, columns, (p) => void pieces.push(p));
	for (const r of rows) await w.add(r);
	await w.close();
	const path = join(mkdtempSync(join(tmpdir(), 'sockscope-pivot-')), `groups.${format}`);
	writeFileSync(path, Buffer.concat(pieces));
	return path;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('the Group by tree as a file', () => {
	it('is read by DuckDB: one row per group, each process with its events and bytes', async () => {
		const path = await write('parquet');
		const top = await query(
			`SELECT process, socket, count, bytesSent, bytesReceived FROM '${path}' WHERE level = 1`,
		);
		expect(top).toHaveLength(truth.processes.length);
		for (const p of truth.processes) {
			const row = top.find((r) => String(r.process).includes(`PID ${p.pid}`))!;
			const sockets = truth.sockets.filter((s) => s.pid === p.pid);
			expect(row.socket).toBe(null);
			expect(Number(row.count), p.name).toBe(p.afdEvents);
			expect(Number(row.bytesSent)).toBe(sum(sockets.map((s) => s.bytesSent)));
			expect(Number(row.bytesReceived)).toBe(sum(sockets.map((s) => s.bytesReceived)));
		}
		const [{ n }] = (await query(`SELECT count(*) AS n FROM '${path}'`)) as [{ n: unknown }];
		const groups = (gs: Pivot['groups']): number =>
			gs.reduce((k, g) => k + 1 + groups(g.children ?? []), 0);
		expect(Number(n)).toBe(groups(pivot.groups));
		// A payload field's level is named for the field.
		const types = await query(`SELECT DISTINCT SocketType FROM '${path}' WHERE level = 3`);
		expect(types.length).toBeGreaterThan(0);
	});

	it('is the same rows in CSV and NDJSON', async () => {
		const csv = readFileSync(await write('csv'), 'utf8')
			.trimEnd()
			.split('\n');
		const nd = readFileSync(await write('ndjson'), 'utf8')
			.trimEnd()
			.split('\n');
		expect(csv[0]).toBe(
			'process,socket,SocketType,level,count,bytesSent,bytesReceived,errors,first,last,filter',
		);
		expect(csv.length - 1).toBe(nd.length);
		const first = JSON.parse(nd[0]!) as Record<string, unknown>;
		expect(first.level).toBe(1);
		expect(first.count).toBe(pivot.groups[0]!.count);
		expect(first.filter).toBe(pivot.groups[0]!.filter);
	});
});
