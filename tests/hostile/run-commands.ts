// Child process of the hostile-trace tests and the fuzz runner: runs sockscope commands on one
// file in this process, one after the other, and prints a JSON summary per command on the real
// stdout (exit code, stdout lines, stderr, peak memory). Run under a heap limit and a kill timer.
//   node --max-old-space-size=256 --import tsx tests/hostile/run-commands.ts FILE CMD...
// A CMD with options is one argument: 'decode --provider afd'.
import { writeSync } from 'node:fs';
import { main } from '../../web/src/cli/main.ts';

export interface CommandOutcome {
	command: string;
	code: number;
	lines: number;
	/** The first stdout lines (for the records kept). */
	head: string[];
	stderr: string;
	/** Peak resident memory of the process so far, bytes. */
	peakRss: number;
}

const [file, ...commands] = process.argv.slice(2);
const realStdout = process.stdout.write.bind(process.stdout);
for (const command of commands) {
	let lines = 0;
	let stderr = '';
	const head: string[] = [];
	let partial = '';
	// Like a stream's write: the callback says the bytes are out (the CLI reuses its memory then).
	process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
		const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
		if (done) queueMicrotask(done);
		const s = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
		for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) lines++;
		if (head.length < 3) {
			partial += s.slice(0, 1 << 16);
			head.push(
				...partial
					.split('\n')
					.slice(0, 3 - head.length)
					.filter((l) => l !== ''),
			);
			partial = '';
		}
		return true;
	}) as typeof process.stdout.write;
	process.stderr.write = ((chunk: string | Uint8Array) => {
		if (stderr.length < 1 << 16)
			stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
		return true;
	}) as typeof process.stderr.write;
	const code = await main([...command.split(' '), file!]);
	const outcome: CommandOutcome = {
		command,
		code,
		lines,
		head,
		stderr,
		peakRss: process.resourceUsage().maxRSS * 1024,
	};
	writeSync(1, JSON.stringify(outcome) + '\n');
}
void realStdout;
