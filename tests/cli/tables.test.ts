// sockets and findings for a person at a terminal: an aligned table when stdout is a TTY, the
// machine formats (NDJSON for sockets, the list for findings) byte for byte when piped.
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../web/src/cli/main.ts';
import { AlignedTable, displayWidth, LineWriter, tableCell } from '../../web/src/cli/output.ts';
import { FINDING_TABLE } from '../../web/src/export/tables.ts';
import { sockscope, type CliResult } from './run.ts';
import { CLI_PROCESS_MS } from '../timeouts.ts';

const sample = join(import.meta.dirname, '../../public/sample.etl');

/** main() with a standard output that says it is a terminal. */
async function onTerminal(...args: string[]): Promise<CliResult> {
	const out = Object.assign(new PassThrough(), { isTTY: true });
	const err = new PassThrough();
	const parts: Buffer[] = [];
	const errs: Buffer[] = [];
	out.on('data', (d: Buffer) => parts.push(d));
	err.on('data', (d: Buffer) => errs.push(d));
	const code = await main(args, { stdin: Readable.from([]), stdout: out, stderr: err });
	out.end();
	err.end();
	return { code, stdout: Buffer.concat(parts).toString(), stderr: Buffer.concat(errs).toString() };
}

/** Where each of a header's words begins. */
function starts(line: string): number[] {
	return [...line.matchAll(/\S+/g)].map((m) => m.index);
}

describe('tables on a terminal', { timeout: CLI_PROCESS_MS }, () => {
	it('sockets: a header and a line per socket, each column where its header is', async () => {
		const [tty, nd] = await Promise.all([
			onTerminal('sockets', sample, '-q'),
			sockscope('sockets', sample, '--format', 'ndjson'),
		]);
		expect(tty.code).toBe(0);
		const sockets = nd.stdout
			.trim()
			.split('\n')
			.map((l) => JSON.parse(l));
		const [header, ...lines] = tty.stdout.trimEnd().split('\n');
		expect(lines).toHaveLength(sockets.length);
		const names = header!.trim().split(/\s+/);
		expect(names).toContain('remote');
		// Text columns start where their header starts, numbers end where it ends.
		const at = starts(header!);
		const ends = [...header!.matchAll(/\S+/g)].map((m) => m.index + m[0].length);
		const numeric = new Set(names.filter((n) => sockets.some((s) => typeof s[n] === 'number')));
		sockets.forEach((s, k) => {
			const line = lines[k]!;
			names.forEach((name, c) => {
				const cell = tableCell(s[name] === '' ? null : s[name]);
				if (numeric.has(name)) expect(line.slice(ends[c]! - cell.length, ends[c])).toBe(cell);
				else expect(line.slice(at[c], at[c]! + cell.length), `${name} of socket ${k}`).toBe(cell);
			});
		});
	});

	it('--columns picks the table columns; --format forces a format on a terminal', async () => {
		const [picked, forced, piped] = await Promise.all([
			onTerminal('sockets', sample, '-q', '--columns', 'process,remote,state'),
			onTerminal('sockets', sample, '-q', '--format', 'ndjson'),
			sockscope('sockets', sample),
		]);
		expect(picked.stdout.split('\n')[0]!.trim().split(/\s+/)).toEqual([
			'process',
			'remote',
			'state',
		]);
		expect(forced.stdout).toBe(piped.stdout);
	});

	it('piped, sockets stay NDJSON and findings the list, byte for byte', async () => {
		const [sockets, socketsNd, findings, findingsList] = await Promise.all([
			sockscope('sockets', sample),
			sockscope('sockets', sample, '--format', 'ndjson'),
			sockscope('findings', sample),
			sockscope('findings', sample, '--format', 'list'),
		]);
		expect(sockets.stdout).toBe(socketsNd.stdout);
		expect(sockets.stdout.startsWith('{')).toBe(true);
		expect(findings.stdout).toBe(findingsList.stdout);
		expect(findings.stdout).toMatch(/^\[warning\] /);
	});

	it('findings: a line per finding with severity, count, sockets, events and title', async () => {
		const [tty, json] = await Promise.all([
			onTerminal('findings', sample, '-q'),
			sockscope('findings', sample, '--json'),
		]);
		const { findings, sockets } = JSON.parse(json.stdout) as {
			sockets: number;
			findings: {
				severity: string;
				count: number;
				title: string;
				socketCount: number;
				eventCount: number;
			}[];
		};
		const [header, ...rest] = tty.stdout.trimEnd().split('\n');
		expect(header!.trim().split(/\s+/)).toEqual([
			'severity',
			'count',
			'sockets',
			'events',
			'finding',
		]);
		const lines = rest.slice(0, findings.length);
		findings.forEach((f, k) => {
			const cells = lines[k]!.trim().split(/\s{2,}/);
			expect(cells).toEqual([
				f.severity,
				`${f.count}`,
				`${f.socketCount}`,
				`${f.eventCount}`,
				f.title,
			]);
		});
		expect(rest.at(-1)).toMatch(new RegExp(`^${sockets} sockets; --format list`));
	});

	it('findings --format ndjson is a line per finding of --json; csv the exported columns', async () => {
		const [nd, json, csv] = await Promise.all([
			sockscope('findings', sample, '--format', 'ndjson'),
			sockscope('findings', sample, '--json'),
			sockscope('findings', sample, '--format', 'csv'),
		]);
		const all = JSON.parse(json.stdout).findings;
		expect(
			nd.stdout
				.trim()
				.split('\n')
				.map((l) => JSON.parse(l)),
		).toEqual(all);
		const rows = csv.stdout.trim().split('\n');
		expect(rows[0]).toBe(FINDING_TABLE.map((c) => c.name).join(','));
		expect(rows).toHaveLength(all.length + 1);
	});

	it('--json and --format together are refused', async () => {
		const r = await sockscope('findings', sample, '--json', '--format', 'csv');
		expect(r.code).toBe(2);
		expect(r.stderr).toBe('sockscope: findings takes --json or --format, not both\n');
	});
});

describe('AlignedTable', () => {
	async function render(header: string[], rows: unknown[][]): Promise<string[]> {
		const stream = new PassThrough();
		const parts: Buffer[] = [];
		stream.on('data', (d: Buffer) => parts.push(d));
		const out = new LineWriter(stream);
		const t = new AlignedTable(out, header);
		for (const r of rows) await t.row(r);
		await t.end();
		await out.flush();
		return Buffer.concat(parts).toString().trimEnd().split('\n');
	}

	it('pads by display width (wide characters take two columns), numbers to the right', async () => {
		const lines = await render(
			['name', 'n'],
			[
				['微信.exe', 5],
				['a', 1234],
				[null, null],
			],
		);
		expect(lines).toEqual(['name         n', '微信.exe     5', 'a         1234', '-            -']);
		for (const l of lines) expect(displayWidth(l)).toBe(displayWidth(lines[0]!));
	});

	it('cells keep to one line; lists are joined', () => {
		expect(tableCell('a\nb')).toBe('a b');
		expect(tableCell(['x', 'y'])).toBe('x y');
		expect(tableCell([])).toBe('-');
		expect(tableCell({ a: 1 })).toBe('{"a":1}');
	});
});
