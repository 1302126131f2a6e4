// Runs the command line for tests: main() in this process with streams of its own (a child
// process through tsx costs seconds on a loaded machine), or as a user does, a child process.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { promisify } from 'node:util';
import { main } from '../../web/src/cli/main.ts';

export interface CliResult {
	code: number;
	stdout: string;
	stderr: string;
}

export const bin = join(import.meta.dirname, '../../bin/sockscope.mjs');

function collect() {
	const stream = new PassThrough();
	const parts: Buffer[] = [];
	stream.on('data', (d: Buffer) => parts.push(d));
	return { stream, text: () => Buffer.concat(parts).toString('utf8') };
}

/** main(args) with `stdin` as standard input (a stream: not seekable). */
export async function sockscopeIn(
	stdin: NodeJS.ReadableStream,
	args: string[],
): Promise<CliResult> {
	const out = collect();
	const err = collect();
	const code = await main(args, { stdin, stdout: out.stream, stderr: err.stream });
	out.stream.end();
	err.stream.end();
	return { code, stdout: out.text(), stderr: err.text() };
}

export function sockscope(...args: string[]): Promise<CliResult> {
	return sockscopeIn(Readable.from([]), args);
}

const run = promisify(execFile);

/** As a user runs it: bin/sockscope.mjs in a child process. */
export async function child(...args: string[]): Promise<CliResult> {
	try {
		const { stdout, stderr } = await run(process.execPath, [bin, ...args], { maxBuffer: 1 << 28 });
		return { code: 0, stdout, stderr };
	} catch (e) {
		const x = e as CliResult;
		return { code: x.code, stdout: x.stdout, stderr: x.stderr };
	}
}
