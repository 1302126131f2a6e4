// Exit codes as the help and the README list them: a file that is no ETL trace is the wrong
// input given (2, with what the file starts with); a trace whose header is damaged is damage (1).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandHelp, EXIT, mainHelp, type CommandName } from '../../web/src/cli/args.ts';
import { realFixture } from '../decoder/load.ts';
import { sockscope } from './run.ts';
import { CLI_PROCESS_MS } from '../timeouts.ts';

const dir = mkdtempSync(join(tmpdir(), 'sockscope-exit-'));
function file(name: string, bytes: Uint8Array | string): string {
	const path = join(dir, name);
	writeFileSync(path, bytes);
	return path;
}

const ONE_FILE = (Object.keys(COMMANDS) as CommandName[]).filter(
	(c) => !('manyFiles' in COMMANDS[c]),
);

describe('exit codes', { timeout: CLI_PROCESS_MS }, () => {
	it('a text file: "not an ETL trace", the file, what it starts with; exit 2 for every command', async () => {
		const path = file('notes.txt', 'hello world, not a trace at all\n'.repeat(4));
		for (const command of ONE_FILE) {
			const r = await sockscope(command, path);
			expect(r.code, command).toBe(EXIT.notEtl);
			expect(r.stdout).toBe('');
			expect(r.stderr).toBe(
				`sockscope: not an ETL trace: ${path}: buffer 0 at offset 0x0 has BufferSize 0x6c6c6568 ` +
					'(must be at least 0x48 and at most 0x4000000); the file starts with text ("hello world, not a trace at all…")\n',
			);
		}
	});

	it('an empty file and a pcapng capture are no traces either', async () => {
		const empty = await sockscope('info', file('empty.etl', ''));
		expect(empty).toEqual({
			code: 2,
			stdout: '',
			stderr: `sockscope: not an ETL trace: ${join(dir, 'empty.etl')}: the file is empty\n`,
		});
		const shb = Uint8Array.from([
			0x0a,
			0x0d,
			0x0d,
			0x0a,
			28,
			0,
			0,
			0,
			0x4d,
			0x3c,
			0x2b,
			0x1a,
			1,
			0,
			0,
			0,
			0xff,
			0xff,
			0xff,
			0xff,
			0xff,
			0xff,
			0xff,
			0xff,
			28,
			0,
			0,
			0,
			...new Uint8Array(64),
		]);
		const pcap = await sockscope('sockets', file('capture.pcapng', shb));
		expect(pcap.code).toBe(2);
		expect(pcap.stderr).toMatch(
			/^sockscope: not an ETL trace: .*capture\.pcapng: .*; the file starts with a pcapng capture\n$/,
		);
	});

	it('a trace whose first buffer is no header buffer is damage: exit 1, no "not an ETL"', async () => {
		const whole = realFixture('krabsetw-powershell-manifest');
		const path = file('middle.etl', whole.slice(8192, 8192 * 3));
		const r = await sockscope('decode', path);
		expect(r.code).toBe(EXIT.damaged);
		expect(r.stderr).toBe(
			`sockscope: ${path}: the trace header cannot be read: buffer 0 at offset 0x0 has BufferType 0, not 4 (the trace header buffer)\n`,
		);
	});

	it('the help of sockscope and of each command lists the exit codes', () => {
		const table = [
			'exit codes:',
			'  0  done',
			'  1  damaged input (what decoded before the damage is written; the damage goes to stderr)',
			'  2  usage or filter error, or a file that is not an ETL trace',
			'  3  internal error',
		].join('\n');
		expect(mainHelp().endsWith(table)).toBe(true);
		for (const name of Object.keys(COMMANDS) as CommandName[])
			expect(commandHelp(name).endsWith(table), name).toBe(true);
		// The same codes as EXIT.
		for (const [code] of table.matchAll(/^ {2}(\d)/gm))
			expect(Object.values(EXIT)).toContain(Number(code.trim()));
	});

	it("the README's table says what the help says", () => {
		const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
		const section = readme.slice(readme.indexOf('Exit codes:'));
		expect(section).toMatch(/\| 2 \| [^\n]*not an ETL trace/);
		for (const code of new Set(Object.values(EXIT)))
			expect(section).toMatch(new RegExp(`^\\| ${code} \\| `, 'm'));
	});
});
