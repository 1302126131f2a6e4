// `sockscope export` over several traces, read back with DuckDB: the tables hold as many rows as
// the decoder, `sockets` and `findings` find; the same filter selects the same events in the
// export, in `decode --filter` and in the web app's engine (whose Parquet export is the same
// table); a trace that cannot be read is skipped and the others go on.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordDecoder } from '../../web/src/decoder/single-record.ts';
import { ingestToMemory } from '../builders/memory-chunks.ts';
import { QueryEngine } from '../../web/src/query/engine.ts';
import { exportParquet } from '../../web/src/worker/export-parquet.ts';
import { RecordReader } from '../../web/src/worker/record-reader.ts';
import { realFixture, open, statsOf, decoderModule } from '../decoder/load.ts';
import { realFixturesDir } from '../fixtures/real/sources-table.ts';
import { query } from '../export/duckdb.ts';
import { sockscope } from './run.ts';

const sample = join(import.meta.dirname, '../../public/sample.etl');
const fixtures = ['demikernel-pktmon-compressed', 'krabsetw-powershell-manifest'];
const files = [sample, ...fixtures.map((n) => join(realFixturesDir, `${n}.etl`))];
const stems = ['sample', ...fixtures];

let out: string;
let stderr: string;
let code: number;

const table = (name: string, dir = out, ext = 'parquet') =>
	`read_${ext === 'parquet' ? 'parquet' : 'json_auto'}('${dir}/${name}/*/*.${ext}', hive_partitioning = true)`;

beforeAll(async () => {
	out = mkdtempSync(join(tmpdir(), 'sockscope-export-'));
	({ code, stderr } = await sockscope('export', '--format', 'parquet', '--out', out, ...files));
}, 60_000);

describe('sockscope export', () => {
	it('writes a Hive partition per trace and table, with a line per trace on stderr', () => {
		expect(code).toBe(0);
		for (const t of ['events', 'sockets', 'conversations', 'findings'])
			for (const stem of stems)
				expect(existsSync(join(out, t, `trace=${stem}`, 'part-0.parquet')), `${t} ${stem}`).toBe(
					true,
				);
		expect(stderr.trim().split('\n')).toHaveLength(files.length);
		const truth = JSON.parse(
			readFileSync(join(import.meta.dirname, '../fixtures/sample/sample.truth.json'), 'utf8'),
		) as { totalRecords: number; sockets: unknown[] };
		// One event row per record, as `decode` prints them.
		expect(stderr).toContain(
			`sample.etl → trace=sample: ${truth.totalRecords} events, ${truth.sockets.length} sockets`,
		);
	});

	it('holds every record the decoder finds, per trace', async () => {
		const counts = await query(
			`select trace, count(*) as n, min(index) as first, max(index) as last from ${table('events')} group by trace`,
		);
		const byTrace = Object.fromEntries(counts.map((r) => [r.trace, r]));
		const bytes = [readFileSync(sample), ...fixtures.map(realFixture)];
		for (const [k, stem] of stems.entries()) {
			const records = (await statsOf(new Uint8Array(bytes[k]!))).records;
			expect(byTrace[stem]).toEqual({
				trace: stem,
				n: BigInt(records),
				first: 0n,
				last: BigInt(records - 1),
			});
		}
	});

	it('sockets and findings are those of `sockscope sockets` and `findings`', async () => {
		const [sockets, findings] = await Promise.all([
			sockscope('sockets', sample, '--format', 'csv'),
			sockscope('findings', sample, '--json'),
		]);
		const csvRows = sockets.stdout.trim().split('\n').length - 1;
		const [s] = await query(`select count(*) as n from ${table('sockets')} where trace = 'sample'`);
		expect(s!.n).toBe(BigInt(csvRows));
		const want = (JSON.parse(findings.stdout) as { findings: { id: string }[] }).findings;
		const got = await query(
			`select id from ${table('findings')} where trace = 'sample' order by id`,
		);
		expect(got.map((r) => r.id)).toEqual(want.map((f) => f.id).sort());
	});

	it('sockets carry the names the sockets command gives them (DNS answers in the trace)', async () => {
		const lines = (await sockscope('sockets', sample, '--columns', 'key,remote_name')).stdout
			.trim()
			.split('\n')
			.map((l) => JSON.parse(l) as { key: string; remote_name: string | null });
		expect(lines.some((l) => l.remote_name !== null)).toBe(true);
		const rows = await query(
			`select key, remote_name from ${table('sockets')} where trace = 'sample' order by key`,
		);
		const want = [...lines].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
		expect(rows.map((r) => ({ key: r.key, remote_name: r.remote_name }))).toEqual(want);
	});

	it('refused connects per process across traces: the query the README shows', async () => {
		const rows = await query(
			`select trace, process, count(*) as refused from ${table('events')}
			 where name like 'AfdConnect%' and status_name = 'STATUS_CONNECTION_REFUSED'
			 group by all order by refused desc`,
		);
		const decoded = (
			await sockscope('decode', sample, '--filter', 'event:AfdConnect* status:CONNECTION_REFUSED')
		).stdout
			.trim()
			.split('\n');
		expect(rows).toEqual([
			{ trace: 'sample', process: 'curl.exe', refused: BigInt(decoded.length) },
		]);
	});

	it('the same filter selects the same events in the export, decode --filter and the web app', async () => {
		const filter = 'rport in {53 443} || SocketType == SOCK_DGRAM';
		const dir = mkdtempSync(join(tmpdir(), 'sockscope-export-'));
		const [exported, decoded] = await Promise.all([
			sockscope('export', '--format', 'ndjson', '--filter', filter, '--out', dir, sample),
			sockscope('decode', sample, '--filter', filter),
		]);
		expect(exported.code).toBe(0);
		const lines = decoded.stdout.trim().split('\n');
		expect(lines.length).toBeGreaterThan(10);
		const [n] = await query(`select count(*) as n from ${table('events', dir, 'ndjson')}`);
		expect(n!.n).toBe(BigInt(lines.length));

		const trace = await open(new Uint8Array(readFileSync(sample)), 'sample.etl');
		const mem = await ingestToMemory(trace);
		const engine = new QueryEngine(mem.chunks, mem.context);
		const reader = new RecordReader(
			{ engine, records: mem.records },
			recordDecoder(decoderModule(), trace.facts),
			trace.facts,
		);
		engine.recordFields = (chunk, rows) => reader.fields(chunk, rows);
		const sel = await engine.select(filter);
		expect(sel.matched).toBe(lines.length);
		// The page's Parquet export of that selection is the export command's events table.
		const pieces: Uint8Array[] = [];
		const r = await exportParquet(sel, reader, engine, mem.context(), (p) => {
			pieces.push(p);
			return true;
		});
		expect(r).toEqual({ rows: lines.length, complete: true });
		const page = join(dir, 'page.parquet');
		writeFileSync(page, Buffer.concat(pieces));
		const cli = `(select * exclude (trace, process) from ${table('events', dir, 'ndjson')})`;
		const ours = `(select * exclude (process, time, payload) from '${page}')`;
		const [diff] = await query(
			`select count(*) as n from (select index, filetime, name, pid, remote, status_name from ${ours}
			 except select index, filetime, name, pid, remote, status_name from ${cli})`,
		);
		expect(diff!.n).toBe(0n);
	});

	it('a trace that cannot be read is reported and skipped; the others are exported', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'sockscope-export-'));
		const bad = join(dir, 'notes.etl');
		writeFileSync(bad, 'hello world, not a trace at all\n'.repeat(4));
		const r = await sockscope('export', '--quiet', '--out', join(dir, 'out'), bad, files[1]!);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/^sockscope: .*notes\.etl: not an ETL file: .*; skipped\n$/);
		expect(existsSync(join(dir, 'out/events/trace=notes'))).toBe(false);
		const [n] = await query(`select count(*) as n from ${table('events', join(dir, 'out'))}`);
		expect(n!.n).toBe(BigInt((await statsOf(realFixture(fixtures[0]!))).records));
	});
});
