// The command line as a new user meets it: help, version, usage errors, stdin, a closed pipe,
// picked columns. Run as a child process, as a user would.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
	COMMANDS,
	commandHelp,
	parseCommandLine,
	UsageError,
	type CommandName,
} from '../../web/src/cli/args.ts';
import { main } from '../../web/src/cli/main.ts';
import { checkFilter } from '../../web/src/cli/filter-check.ts';
import { bin, child, sockscope, sockscopeIn, type CliResult } from './run.ts';

const root = join(import.meta.dirname, '../..');
const sample = join(root, 'public/sample.etl');

type Result = CliResult;

/** A child process starts tsx and compiles the CLI: seconds on a loaded machine, whatever it runs. */
const CHILD_TIMEOUT = 60_000;

/** Runs with `input` piped to stdin (a pipe: not seekable) and TMPDIR set to `tmp`. */
function withStdin(args: string[], input: Buffer, tmp: string): Promise<Result> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [bin, ...args], {
			env: { ...process.env, TMPDIR: tmp },
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		child.on('error', reject);
		child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
		child.stdin.end(input);
	});
}

describe('sockscope command line', () => {
	it(
		'--version and --help print on stdout and exit 0',
		async () => {
			const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
				version: string;
			};
			const [v, h] = await Promise.all([child('--version'), sockscope('decode', '--help')]);
			expect(v).toEqual({ code: 0, stdout: `sockscope ${pkg.version}\n`, stderr: '' });
			expect(h.code).toBe(0);
			expect(h.stderr).toBe('');
			expect(h.stdout).toBe(commandHelp('decode') + '\n');
		},
		CHILD_TIMEOUT,
	);

	it('the help names every command, and each command lists only the options it takes', () => {
		const main = parseCommandLine(['--help']);
		expect(main.kind).toBe('help');
		const text = main.kind === 'help' ? main.text : '';
		for (const name of Object.keys(COMMANDS)) expect(text).toContain(`  ${name} `);
		expect(text).toMatch(/exit codes:[\s\S]*2 {2}usage or filter error/);
		for (const [name, spec] of Object.entries(COMMANDS)) {
			const help = parseCommandLine([name, '--help']);
			expect(help).toEqual({ kind: 'help', text: commandHelp(name as CommandName) });
			const listed = [...commandHelp(name as CommandName).matchAll(/^\s+(?:-\w, )?--([\w-]+)/gm)];
			expect(listed.map((m) => m[1]).sort()).toEqual(
				[...spec.options, 'quiet', 'help', 'version'].sort(),
			);
		}
		expect(parseCommandLine(['-V'])).toEqual({ kind: 'version' });
	});

	it('usage errors: unknown words, options a command does not use, missing values', () => {
		const usage = (...args: string[]) => {
			try {
				parseCommandLine(args);
			} catch (e) {
				if (e instanceof UsageError) return e.message;
				throw e;
			}
			return null;
		};
		expect(usage('frobnicate')).toBe('unknown command: frobnicate');
		expect(usage()).toBe('a command is needed');
		expect(usage('sockets', 'f', '--filter', 'pid:4')).toBe(
			'sockets does not take --filter (its options: --format, --columns)',
		);
		expect(usage('info', 'f', '--format', 'csv')).toMatch(/^info does not take --format/);
		expect(usage('decode', 'f', '--format', 'xml')).toBe('--format must be ndjson or csv, not xml');
		expect(usage('decode', 'f', '--bogus')).toBe('unknown option --bogus');
		expect(usage('decode', 'f', '--filter')).toBe('--filter needs a value: --filter EXPR');
		expect(usage('decode', 'f', '--json=yes')).toMatch(/--json/);
		expect(usage('decode')).toBe('decode needs FILE');
		expect(usage('decode', 'a', 'b')).toBe('decode reads one FILE; unexpected argument: b');
		expect(usage('decode', 'f', '--format=csv')).toBeNull();
		expect(parseCommandLine(['decode', '-', '-q'])).toMatchObject({
			kind: 'run',
			options: { files: ['-'], quiet: true },
		});
		expect(() => checkFilter('pid:4 status:error')).not.toThrow();
	});

	it('a usage error on the command line is one line on stderr, exit 2', async () => {
		const [a, b] = await Promise.all([
			sockscope('sockets', sample, '--filter', 'pid:4'),
			sockscope('decode', sample, '--columns', 'time,Statsu'),
		]);
		for (const r of [a, b]) {
			expect(r.code).toBe(2);
			expect(r.stdout).toBe('');
			expect(r.stderr.trim().split('\n')).toHaveLength(1);
		}
		expect(a.stderr).toBe(
			'sockscope: sockets does not take --filter (its options: --format, --columns)\n',
		);
		expect(b.stderr).toContain('did you mean Status?');
	});

	it('a filter the compiler refuses is a usage error naming the position', async () => {
		const at = (filter: string) => {
			try {
				checkFilter(filter);
			} catch (e) {
				if (e instanceof UsageError) return /\(at (\d+)\)$/.exec(e.message)?.[1];
				throw e;
			}
			return null;
		};
		expect(at('foo:1')).toBe('1');
		expect(at('status:NOPE')).toBe('8');
		expect(at('raddr:300.1.1.1')).toBe('7');
		expect(at('pid:4 bytes>lots')).toBe('13');
		const r = await sockscope('decode', sample, '--filter', 'status:NOPE');
		expect(r.code).toBe(2);
		expect(r.stdout).toBe('');
		expect(r.stderr).toMatch(/^sockscope: --filter: .*\(at 8\)\n$/);
	});

	it('--format=csv is the same as --format csv', async () => {
		const [a, b] = await Promise.all([
			sockscope('decode', sample, '--format=csv'),
			sockscope('decode', sample, '--format', 'csv'),
		]);
		expect(a.code).toBe(0);
		expect(a.stdout).toBe(b.stdout);
	});

	it('- reads a piped trace through a temporary file that is removed afterwards', async () => {
		const bytes = readFileSync(sample);
		const spooled = () => readdirSync(tmpdir()).filter((n) => n.startsWith('sockscope-stdin-'));
		const before = spooled();
		const [piped, file, info] = await Promise.all([
			sockscopeIn(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), [
				'sockets',
				'-',
				'--format',
				'csv',
			]),
			sockscope('sockets', sample, '--format', 'csv'),
			sockscopeIn(Readable.from([bytes]), ['info', '-', '--json']),
		]);
		expect(piped.code).toBe(0);
		expect(piped.stdout).toBe(file.stdout);
		expect(JSON.parse(info.stdout)).toMatchObject({ fileName: 'stdin', fileSize: bytes.length });
		expect(spooled().filter((n) => !before.includes(n))).toEqual([]);
	});

	it(
		'- in a shell pipe: the same trace as the file',
		async () => {
			const tmp = mkdtempSync(join(tmpdir(), 'sockscope-test-'));
			const r = await withStdin(['info', '-', '--json'], readFileSync(sample), tmp);
			expect(r.code).toBe(0);
			// The same facts as the file gives, but its name.
			const file = JSON.parse((await sockscope('info', sample, '--json')).stdout);
			expect(JSON.parse(r.stdout)).toEqual({ ...file, fileName: 'stdin' });
			expect(readdirSync(tmp).filter((n) => n.startsWith('sockscope-'))).toEqual([]);
		},
		CHILD_TIMEOUT,
	);

	it(
		'a reader that goes away (| head) ends the command quietly with exit 0',
		async () => {
			const r = await new Promise<Result>((resolve, reject) => {
				const child = spawn(process.execPath, [bin, 'decode', sample]);
				let stderr = '';
				let first = '';
				child.stderr.on('data', (d) => (stderr += d));
				child.stdout.once('data', (d) => {
					first = String(d).split('\n')[0]!;
					child.stdout.destroy();
				});
				child.on('error', reject);
				child.on('close', (code) => resolve({ code: code ?? -1, stdout: first, stderr }));
			});
			expect(JSON.parse(r.stdout).kind).toBe('header');
			expect(r.stderr).toBe('');
			expect(r.code).toBe(0);
		},
		CHILD_TIMEOUT,
	);

	it('progress on stderr only when stderr is a terminal, and not with --quiet', async () => {
		const tty = async (...args: string[]) => {
			const err = new PassThrough() as PassThrough & { isTTY: boolean };
			err.isTTY = true;
			let text = '';
			err.on('data', (d) => (text += d));
			const code = await main(args, {
				stdin: process.stdin,
				stdout: new PassThrough().resume(),
				stderr: err,
			});
			return { code, text };
		};
		const [plain, shown, quiet] = await Promise.all([
			sockscope('decode', sample, '--filter', 'status:error'),
			tty('decode', sample, '--filter', 'status:error'),
			tty('decode', sample, '--quiet'),
		]);
		expect(plain.code).toBe(0);
		expect(plain.stderr).toBe('');
		expect(shown.text).toMatch(/^\r\x1b\[Ksample\.etl: \d+% \([\d.]+ of [\d.]+ MB\)/);
		// The line is cleared when done: what follows on stderr starts on a clean line.
		expect(shown.text.endsWith('\r\x1b[K')).toBe(true);
		expect(quiet).toEqual({ code: 0, text: '' });
	});

	it('--columns picks record columns and payload fields, in CSV and NDJSON', async () => {
		const cols = 'time,name,Status,StatusName,fields.SocketType';
		const [whole, csv, nd] = await Promise.all([
			sockscope('decode', sample, '--provider', 'afd'),
			sockscope('decode', sample, '--provider', 'afd', '--format', 'csv', '--columns', cols),
			sockscope('decode', sample, '--provider', 'afd', '--columns', 'name,Status'),
		]);
		const all = whole.stdout
			.trim()
			.split('\n')
			.map((l) => JSON.parse(l) as { time: string; name: string; fields: Record<string, unknown> });
		expect(csv.code).toBe(0);
		const rows = csv.stdout.trim().split('\n');
		expect(rows[0]).toBe('time,name,Status,StatusName,SocketType');
		const cell = (v: unknown) => (v === undefined || v === null ? '' : String(v));
		expect(rows.slice(1)).toEqual(
			all.map((r) =>
				[r.time, r.name, r.fields.Status, r.fields.StatusName, r.fields.SocketType]
					.map(cell)
					.join(','),
			),
		);
		expect(all.some((r) => r.fields.SocketType !== undefined)).toBe(true);
		expect(JSON.parse(nd.stdout.split('\n')[0]!)).toEqual({
			name: all[0]!.name,
			Status: all[0]!.fields.Status ?? null,
		});
	});

	it('sockets --columns picks socket columns', async () => {
		const [r, full] = await Promise.all([
			sockscope('sockets', sample, '--format', 'csv', '--columns', 'pid,process,remote'),
			sockscope('sockets', sample),
		]);
		const rows = r.stdout.trim().split('\n');
		expect(rows[0]).toBe('pid,process,remote');
		const want = full.stdout
			.trim()
			.split('\n')
			.map((l) => JSON.parse(l) as { pid: number; process: string; remote: string | null })
			.map((s) => [s.pid, s.process, s.remote ?? ''].join(','));
		expect(rows.slice(1)).toEqual(want);
	});
});
