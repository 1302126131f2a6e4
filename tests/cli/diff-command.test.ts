// `sockscope diff`, run as a user would, on two runs of a workload written with the Windows-like
// builder: the injected change named in each format, the exit codes, and damage reported as the
// other commands report it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../web/src/compare/report.ts';
import { HOSTILE_CASES } from '../fixtures/hostile/cases.ts';
import { REFUSED_RETRIES as N, run, targetOf } from '../compare/workload.ts';
import { CLI_PROCESS_MS } from '../timeouts.ts';
import { sockscope } from './run.ts';

const dir = mkdtempSync(join(tmpdir(), 'sockscope-diff-'));
const baseline = join(dir, 'baseline.etl');
const problem = join(dir, 'problem.etl');
const quiet = join(dir, 'quiet.etl');
const damaged = join(dir, 'missing-buffer.etl');
const target = targetOf('refused');

describe('sockscope diff', { timeout: CLI_PROCESS_MS }, () => {
	beforeAll(() => {
		writeFileSync(baseline, run(31));
		writeFileSync(problem, run(1031, 'refused'));
		writeFileSync(quiet, run(2031));
		writeFileSync(damaged, HOSTILE_CASES.find((c) => c.name === 'missing-buffer')!.bytes());
	});
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it('text: the changed pair first, its change with both sides, the rest unchanged', async () => {
		const r = await sockscope('diff', baseline, problem, '--quiet');
		expect(r.stderr).toBe('');
		expect(r.code).toBe(0);
		const lines = r.stdout.split('\n');
		expect(lines[0]).toMatch(/^baseline: baseline\.etl \(\d+ sockets, \d+ pairs\)$/);
		expect(lines[3]).toBe(`[error] ${target.process} ${target.protocol} ${target.remote}: refused`);
		expect(lines[4]).toMatch(
			new RegExp(
				`^ {2}refused: ${N} of ${N} connections were refused, against 0 of \\d+ in the baseline\\.$`,
			),
		);
		expect(lines[5]).toMatch(/^ {2}baseline: \d+ connections/);
		expect(lines[6]).toMatch(
			new RegExp(
				`^ {2}problem: {2}${N} connections \\(0 connected\\); failed STATUS_CONNECTION_REFUSED ${N}`,
			),
		);
		expect(r.stdout.match(/^\[/gm)).toHaveLength(1);
	});

	it('ndjson: one line per pair, the changes empty for all but the target', async () => {
		const r = await sockscope('diff', baseline, problem, '--format', 'ndjson', '--quiet');
		const rows = r.stdout
			.trim()
			.split('\n')
			.map((l) => JSON.parse(l) as Record<string, any>);
		const changed = rows.filter((x) => x.changes.length);
		expect(changed).toHaveLength(1);
		expect(changed[0]).toMatchObject({
			process: target.process,
			protocol: target.protocol,
			pair: target.remote,
			remote_name: target.remote.replace(/:\d+$/, ''),
			remote: expect.stringMatching(/:443$/),
			changes: [{ kind: 'refused', severity: 'error', message: expect.stringMatching(/refused/) }],
		});
		expect(changed[0]!.problem).toMatchObject({ present: true, connections: N, connected: 0 });
		expect(changed[0]!.problem.failures).toEqual({ STATUS_CONNECTION_REFUSED: N });
		for (const row of rows)
			expect(Object.keys(row)).toEqual(
				expect.arrayContaining(['baseline', 'problem', 'remote_names']),
			);
	});

	it('csv: the header, then a row per pair', async () => {
		const r = await sockscope('diff', baseline, problem, '--format', 'csv', '--quiet');
		const [header, ...rows] = r.stdout.trim().split('\n');
		expect(header).toBe(CSV_COLUMNS.join(','));
		const first = rows[0]!.split(',');
		expect(first.slice(0, 3)).toEqual([target.process, target.protocol, target.remote]);
		expect(first[5]).toBe('refused');
	});

	it('--fail-on-change: 4 when something changed, 0 when nothing did', async () => {
		expect((await sockscope('diff', baseline, problem, '--fail-on-change', '-q')).code).toBe(4);
		const same = await sockscope('diff', baseline, quiet, '--fail-on-change', '-q');
		expect(same.stdout).toMatch(/^no changes \(\d+ pairs compared\)$/m);
		expect(same.code).toBe(0);
	});

	it('damage in either trace is reported as the other commands report it', async () => {
		const ref = await sockscope('stats', damaged);
		const messages = (stderr: string) =>
			stderr.split('\n').filter((l) => l.startsWith(`sockscope: ${damaged}: `));
		const expected = messages(ref.stderr);
		expect(expected.length).toBeGreaterThan(0);
		const r = await sockscope('diff', baseline, damaged, '--fail-on-change', '-q');
		expect(r.code).toBe(1);
		expect(messages(r.stderr)).toEqual(expected);
		expect(r.stdout).toMatch(/^baseline: /);
	});

	it('needs exactly two traces', async () => {
		const r = await sockscope('diff', baseline);
		expect(r.code).toBe(2);
		expect(r.stderr).toMatch(/diff compares two traces/);
		expect((await sockscope('diff', baseline, '--columns', 'x', problem)).code).toBe(2);
	});
});
