// The sockscope command line as a user meets it (main() in-process, see run.ts): stdout, stderr, exit code.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sockscope } from './run.ts';
import { realFixturesDir } from '../fixtures/real/sources-table.ts';
import { realFixture, statsOf } from '../decoder/load.ts';
import { FIRST_CHUNK_ROWS } from '../../web/src/columns/layout.ts';
import { CLI_PROCESS_MS } from '../timeouts.ts';

const fixture = (name: string) => join(realFixturesDir, `${name}.etl`);

describe('sockscope CLI', { timeout: CLI_PROCESS_MS }, () => {
	it('info --json prints the header facts as one JSON object', async () => {
		const r = await sockscope('info', fixture('krabsetw-powershell-manifest'), '--json');
		expect(r.code).toBe(0);
		const facts = JSON.parse(r.stdout);
		expect(facts).toMatchObject({
			build: 22623,
			cpus: 32,
			pointerSize: 8,
			loggerName: 'usermode_trace',
		});
		expect(r.stdout.trim().split('\n')).toHaveLength(1);
	});

	it('decode prints every record, header first, in time order, as NDJSON', async () => {
		const name = 'demikernel-pktmon-compressed';
		const r = await sockscope('decode', fixture(name));
		expect(r.code).toBe(0);
		const lines = r.stdout
			.trim()
			.split('\n')
			.map((l) => JSON.parse(l));
		const stats = await statsOf(realFixture(name));
		expect(lines).toHaveLength(stats.records);
		expect(lines[0].kind).toBe('header');
		for (let i = 1; i < lines.length; i++)
			expect(BigInt(lines[i].filetime) >= BigInt(lines[i - 1].filetime)).toBe(true);
		for (const l of lines) {
			expect(Object.keys(l).slice(0, 16)).toEqual([
				'kind',
				'time',
				'filetime',
				'providerGuid',
				'provider',
				'id',
				'version',
				'level',
				'opcode',
				'task',
				'keyword',
				'pid',
				'tid',
				'cpu',
				'name',
				'fields',
			]);
			expect(l.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
		}
		const kinds = new Set(lines.map((l) => l.kind));
		expect([...kinds].sort()).toEqual(['classic', 'event', 'header', 'system']);
	});

	it('decode --format csv has a header row and one row per record', async () => {
		const name = 'etlparser-lxcore-tracelogging';
		const r = await sockscope('decode', fixture(name), '--format', 'csv');
		expect(r.code).toBe(0);
		const rows = r.stdout.trim().split('\n');
		expect(rows[0]).toBe(
			'kind,time,filetime,providerGuid,provider,id,version,level,opcode,task,keyword,pid,tid,cpu,name,fields',
		);
		expect(rows.length - 1).toBe((await statsOf(realFixture(name))).records);
	});

	it('decode --provider afd prints nothing for a trace without Winsock events', async () => {
		const r = await sockscope(
			'decode',
			fixture('krabsetw-powershell-manifest'),
			'--provider',
			'afd',
		);
		expect(r.code).toBe(0);
		expect(r.stdout).toBe('');
	});

	it('stats --json counts without printing events', async () => {
		const r = await sockscope('stats', fixture('perfview-small-32bit-compressed'), '--json');
		expect(r.code).toBe(0);
		const s = JSON.parse(r.stdout);
		expect(s.byHeaderType).toEqual({ SYSTEM32: 1, EVENT32: 1 });
		expect(s.compressedBuffers).toBe(1);
	});

	it('a file that is not a trace: stderr names why, exit code 2', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'sockscope-'));
		const path = join(dir, 'notes.txt');
		writeFileSync(path, 'hello world, not a trace at all\n'.repeat(4));
		const r = await sockscope('info', path);
		expect(r.code).toBe(2);
		expect(r.stderr).toMatch(
			/^sockscope: not an ETL trace: .*notes\.txt: buffer 0 at offset 0x0 has BufferSize 0x6c6c6568/,
		);
		expect(r.stdout).toBe('');
	});

	it('a damaged trace: what decodes is printed, the damage and its offset go to stderr, exit code 1', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'sockscope-'));
		const path = join(dir, 'cut.etl');
		const whole = realFixture('krabsetw-powershell-manifest');
		writeFileSync(path, whole.subarray(0, 8192 * 4 + 1000));
		const r = await sockscope('decode', path);
		expect(r.code).toBe(1);
		expect(r.stdout.trim().split('\n').length).toBeGreaterThan(1);
		expect(r.stderr).toContain(
			'buffer 4 at offset 0x8000 is cut short: the file ends after 0x3e8 of its 0x2000 bytes',
		);
	});

	it('usage errors exit 2', async () => {
		expect((await sockscope('frobnicate')).code).toBe(2);
		expect(
			(await sockscope('decode', fixture('krabsetw-powershell-manifest'), '--format', 'xml'))
				.stderr,
		).toContain('--format must be ndjson or csv');
	});

	it('decode --filter goes through the column store and prints the same lines as decode', async () => {
		const sample = join(import.meta.dirname, '../../public/sample.etl');
		for (const path of [sample, fixture('demikernel-pktmon-compressed')]) {
			const all = await sockscope('decode', path);
			// Chunks are handed on before the last is printed: the sample's must come in order.
			if (path === sample)
				expect(all.stdout.trim().split('\n').length).toBeGreaterThan(FIRST_CHUNK_ROWS);
			const filtered = await sockscope('decode', path, '--filter', '');
			expect(filtered.code).toBe(0);
			expect(filtered.stdout).toBe(all.stdout);
		}
		// CSV, and only the Winsock events: lines written from the records' buffers, the same.
		const afd = ['--format', 'csv', '--provider', 'afd'];
		const csv = await sockscope('decode', sample, ...afd);
		expect(csv.stdout.split('\n').length).toBeGreaterThan(FIRST_CHUNK_ROWS);
		expect((await sockscope('decode', sample, ...afd, '--filter', '')).stdout).toBe(csv.stdout);
	});

	it('decode --filter keeps exactly the records the expression selects', async () => {
		const path = join(import.meta.dirname, '../../public/sample.etl');
		const all = (await sockscope('decode', path)).stdout.trim().split('\n');
		const r = await sockscope(
			'decode',
			path,
			'--filter',
			'event:AfdConnectWithAddress status:error',
		);
		expect(r.code).toBe(0);
		const want = all.filter((l) => {
			const j = JSON.parse(l);
			return (
				j.name === 'AfdConnectWithAddress' &&
				j.fields.EnterExit === 1 &&
				j.fields.Status >= 0xc0000000
			);
		});
		expect(want.length).toBeGreaterThan(0);
		expect(r.stdout.trim().split('\n')).toEqual(want);
	});

	it('a bad --filter names the position', async () => {
		const r = await sockscope(
			'decode',
			fixture('krabsetw-powershell-manifest'),
			'--filter',
			'port:443 (pid:4',
		);
		expect(r.code).toBe(2);
		expect(r.stderr).toContain('--filter: missing ")" (at 16)');
	});

	it("decode --filter process:NAME uses the names from the trace's process events", async () => {
		const path = join(import.meta.dirname, '../../public/sample.etl');
		const truth = JSON.parse(
			readFileSync(join(import.meta.dirname, '../fixtures/sample/sample.truth.json'), 'utf8'),
		) as {
			processes: { name: string; afdEvents: number }[];
		};
		for (const p of truth.processes) {
			const r = await sockscope(
				'decode',
				path,
				'--filter',
				`process:${p.name}`,
				'--provider',
				'afd',
			);
			expect(r.code).toBe(0);
			expect(r.stdout.trim().split('\n')).toHaveLength(p.afdEvents);
		}
	});
});
