// The command line's words read as getopt reads them: an option's value is the next argument
// whatever it starts with; mistakes name the option and what was expected, with "did you mean".
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, parseCommandLine, UsageError } from '../../web/src/cli/args.ts';
import { sockscope } from './run.ts';
import { CLI_PROCESS_MS } from '../timeouts.ts';

const sample = join(import.meta.dirname, '../../public/sample.etl');

/** The usage error's message, or null when the words parse. */
function usage(...args: string[]): string | null {
	try {
		parseCommandLine(args);
	} catch (e) {
		if (e instanceof UsageError) return e.message;
		throw e;
	}
	return null;
}

function options(...args: string[]) {
	const p = parseCommandLine(args);
	if (p.kind !== 'run') throw new Error(`not a run: ${p.kind}`);
	return p.options;
}

describe('option values', () => {
	it('a value is the next argument whatever it starts with, or follows =', () => {
		expect(options('decode', 'f', '--filter', '-status:error').filter).toBe('-status:error');
		expect(options('decode', 'f', '--filter=-status:error').filter).toBe('-status:error');
		expect(options('decode', '--filter', '--', 'f').filter).toBe('--');
		expect(options('decode', '--filter', '-', 'f')).toMatchObject({ filter: '-', files: ['f'] });
		expect(options('decode', 'f', '--columns', '-q').columns).toEqual(['-q']);
		// The value is not read as an option: -q after --filter does not silence progress.
		expect(options('decode', 'f', '--filter', '-q').quiet).toBe(false);
		expect(options('decode', 'f', '--filter=a=b').filter).toBe('a=b');
	});

	it('-- ends the options; - is a file; short switches bundle', () => {
		expect(options('decode', '--', '--not-an-option').files).toEqual(['--not-an-option']);
		expect(options('decode', '-').files).toEqual(['-']);
		expect(parseCommandLine(['decode', 'f', '-qh'])).toMatchObject({ kind: 'help' });
		expect(options('decode', 'f', '-q').quiet).toBe(true);
	});

	it('an option missing its value at the end names the option and the value it takes', () => {
		expect(usage('decode', 'f', '--filter')).toBe('--filter needs a value: --filter EXPR');
		expect(usage('decode', 'f', '--columns')).toBe('--columns needs a value: --columns LIST');
		expect(usage('decode', 'f', '--format')).toBe('--format needs a value: --format ndjson|csv');
		expect(usage('export', 'f', '--out')).toBe('--out needs a value: --out DIR');
	});

	it('a switch given a value says it takes none', () => {
		expect(usage('info', 'f', '--json=yes')).toBe('--json takes no value (it is a switch: --json)');
	});

	it('--out - is taken as a value; export, which writes a folder, says it cannot be stdout', () => {
		for (const args of [
			['export', 'f', '--out', '-'],
			['export', 'f', '--out=-'],
		])
			expect(usage(...args)).toMatch(/^export writes a folder of tables: --out names it/);
		expect(options('export', 'f', '--out', '-x').out).toBe('-x');
	});

	it(
		'decode --filter -status:error prints the records status:error leaves out',
		async () => {
			const [all, errors, rest] = await Promise.all([
				sockscope('decode', sample, '--filter', ''),
				sockscope('decode', sample, '--filter', 'status:error'),
				sockscope('decode', sample, '--filter', '-status:error'),
			]);
			for (const r of [all, errors, rest]) expect(r.code).toBe(0);
			const lines = (s: string) => s.trim().split('\n');
			const failed = new Set(lines(errors.stdout));
			expect(failed.size).toBeGreaterThan(0);
			expect(lines(rest.stdout)).toEqual(lines(all.stdout).filter((l) => !failed.has(l)));
		},
		CLI_PROCESS_MS,
	);
});

describe('did you mean', () => {
	it('a misspelt option: the nearest of the command, else of any command', () => {
		expect(usage('decode', 'f', '--fitler', 'x')).toBe(
			'unknown option --fitler; did you mean --filter?',
		);
		expect(usage('decode', 'f', '--colums=a')).toBe(
			'unknown option --colums; did you mean --columns?',
		);
		expect(usage('sockets', 'f', '--fromat', 'csv')).toBe(
			'unknown option --fromat; did you mean --format?',
		);
		expect(usage('decode', 'f', '--quite')).toBe('unknown option --quite; did you mean --quiet?');
		expect(usage('decode', 'f', '--zzzzzz')).toBe('unknown option --zzzzzz');
		expect(usage('decode', 'f', '-x')).toBe('unknown option -x');
	});

	it('a misspelt command, and a misspelt format', () => {
		expect(usage('decod', 'f')).toBe('unknown command: decod; did you mean decode?');
		expect(usage('socket', 'f')).toBe('unknown command: socket; did you mean sockets?');
		expect(usage('help', 'fnidings')).toBe('unknown command: fnidings; did you mean findings?');
		expect(usage('frobnicate')).toBe('unknown command: frobnicate');
		expect(usage('sockets', 'f', '--format', 'tabel')).toBe(
			'--format must be ndjson, csv or table, not tabel; did you mean table?',
		);
	});

	it('every command is found again from a slip of one letter', () => {
		for (const name of Object.keys(COMMANDS)) {
			const slip = name.slice(0, -1);
			expect(usage(slip, 'f')).toMatch(new RegExp(`did you mean ${name}\\?$`));
		}
	});

	it('on the command line: one line on stderr, exit 2', async () => {
		const r = await sockscope('decode', sample, '--fitler', 'status:error');
		expect(r).toEqual({
			code: 2,
			stdout: '',
			stderr: 'sockscope: unknown option --fitler; did you mean --filter?\n',
		});
	});
});
