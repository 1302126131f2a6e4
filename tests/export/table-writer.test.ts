// The table writer: row groups handed on as they fill (memory bounded by one row group), types
// as DuckDB reads them, and the same rows in NDJSON and CSV.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	isoToMicros,
	ROW_GROUP,
	tableWriter,
	type Row,
	type TableColumn,
	type TableFormat,
} from '../../web/src/export/table-writer.ts';
import { query } from './duckdb.ts';

const COLUMNS: TableColumn[] = [
	{ name: 'n', type: 'INT64' },
	{ name: 'big', type: 'INT64' },
	{ name: 'time', type: 'TIMESTAMP' },
	{ name: 'name', type: 'STRING' },
	{ name: 'ok', type: 'BOOLEAN' },
	{ name: 'ms', type: 'DOUBLE' },
	{ name: 'small', type: 'INT32' },
	{ name: 'payload', type: 'JSON' },
];

const row = (n: number): Row => ({
	n,
	big: 134179540135897932n + BigInt(n),
	time: '2026-03-14T09:26:53.5897932Z',
	name: n % 3 ? `name ${n % 7}` : null,
	ok: n % 2 === 0,
	ms: n / 4,
	small: n % 100,
	payload: { Status: n, Name: 'x,"y"' },
});

async function write(format: TableFormat, rows: number, rowGroup = ROW_GROUP) {
	const pieces: Uint8Array[] = [];
	const w = tableWriter(format, COLUMNS, (p) => void pieces.push(p), rowGroup);
	let beforeClose = 0;
	for (let i = 0; i < rows; i++) await w.add(row(i));
	beforeClose = pieces.length;
	expect(await w.close()).toBe(rows);
	const path = join(mkdtempSync(join(tmpdir(), 'sockscope-table-')), `t.${format}`);
	writeFileSync(path, Buffer.concat(pieces));
	return { path, beforeClose };
}

describe('table writer', () => {
	it('hands each row group on as it fills, and DuckDB reads the types back', async () => {
		// Small groups keep the test quick; the export's are ROW_GROUP rows.
		const rows = 2510;
		const { path, beforeClose } = await write('parquet', rows, 1000);
		// The first row group left before the writer was closed: it was not all held until the end.
		expect(beforeClose).toBe(2);
		const groups = await query(
			`select count(distinct row_group_id) as g from parquet_metadata('${path}')`,
		);
		expect(groups[0]!.g).toBe(3n);
		const types = await query(`describe select * from '${path}'`);
		expect(Object.fromEntries(types.map((t) => [t.column_name, t.column_type]))).toEqual({
			n: 'BIGINT',
			big: 'BIGINT',
			time: 'TIMESTAMP WITH TIME ZONE',
			name: 'VARCHAR',
			ok: 'BOOLEAN',
			ms: 'DOUBLE',
			small: 'INTEGER',
			payload: 'VARCHAR',
		});
		const [first] = await query(
			`select n, big, epoch_us(time) as us, name, payload->>'Name' as pn from '${path}' where n = 1`,
		);
		expect(first).toEqual({
			n: 1n,
			big: 134179540135897933n,
			us: isoToMicros('2026-03-14T09:26:53.5897932Z'),
			name: 'name 1',
			pn: 'x,"y"',
		});
		const [sums] = await query(
			`select count(*) as c, count(name) as named, sum(n) as s from '${path}'`,
		);
		const want = Array.from({ length: rows }, (_, i) => i);
		expect(sums).toEqual({
			c: BigInt(rows),
			named: BigInt(want.filter((i) => i % 3).length),
			s: BigInt(want.reduce((a, b) => a + b, 0)),
		});
	});

	it('writes an empty table that DuckDB reads as zero rows', async () => {
		const { path } = await write('parquet', 0);
		expect(await query(`select count(*) as c from '${path}'`)).toEqual([{ c: 0n }]);
	});

	it('NDJSON and CSV hold the same rows', async () => {
		const nd = await write('ndjson', 50);
		const lines = readFileSync(nd.path, 'utf8').trimEnd().split('\n');
		expect(lines).toHaveLength(50);
		expect(JSON.parse(lines[1]!)).toMatchObject({
			n: 1,
			big: '134179540135897933',
			name: 'name 1',
		});
		const csv = await write('csv', 50);
		const [c] = await query(
			`select count(*) as c, sum(n) as s from read_csv('${csv.path}', header = true)`,
		);
		expect(c).toEqual({ c: 50n, s: 1225n });
	});

	it('converts ISO times to microseconds since 1970', () => {
		expect(isoToMicros('1970-01-01T00:00:01.0000019Z')).toBe(1_000_001n);
		expect(isoToMicros('2026-03-14T09:26:53Z')).toBe(
			BigInt(Date.UTC(2026, 2, 14, 9, 26, 53)) * 1000n,
		);
	});
});
