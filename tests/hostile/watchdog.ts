// Runs sockscope commands on a file in a child process under a watchdog: a V8 heap limit, a kill
// timer, and the child's own peak memory reported back. The time bound is generous (a hang is
// caught, a slow machine is not); the memory bound is the CLI's own.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { CommandOutcome } from './run-commands.ts';

export const HEAP_LIMIT_MB = 256;
export const KILL_AFTER_MS = 60_000;
/**
 * Peak resident memory allowed (V8 heap, WASM memory, buffers, the runtime itself): the CLI's
 * bound, whatever the input.
 */
export const RSS_LIMIT = 256 << 20;

const runner = join(import.meta.dirname, 'run-commands.ts');

export interface WatchedRun {
	/** Null when the watchdog killed the child, or it died (heap exhausted). */
	readonly outcomes: CommandOutcome[] | null;
	readonly exit: number | null;
	readonly signal: string | null;
	readonly killed: boolean;
	readonly stderr: string;
}

export function watched(file: string, commands: readonly string[]): Promise<WatchedRun> {
	return new Promise((resolve) => {
		const child = spawn(
			process.execPath,
			[`--max-old-space-size=${HEAP_LIMIT_MB}`, '--import', 'tsx', runner, file, ...commands],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let out = '';
		let err = '';
		let killed = false;
		const timer = setTimeout(() => {
			killed = true;
			child.kill('SIGKILL');
		}, KILL_AFTER_MS);
		child.stdout.on('data', (d: Buffer) => (out += d.toString()));
		child.stderr.on('data', (d: Buffer) => {
			if (err.length < 1 << 16) err += d.toString();
		});
		child.on('close', (exit, signal) => {
			clearTimeout(timer);
			const lines = out.split('\n').filter((l) => l.startsWith('{'));
			const outcomes =
				exit === 0 && !killed ? lines.map((l) => JSON.parse(l) as CommandOutcome) : null;
			resolve({ outcomes, exit, signal, killed, stderr: err });
		});
	});
}
