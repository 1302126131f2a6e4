// Child-process mode: one input decoded in a process of its own, under the CLI's bounds (a V8
// heap limit, a kill timer, its resident memory checked after the input). Slower than the worker
// threads, and the final word on a finding: an in-process fault it does not reproduce is
// reported as unconfirmed.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { FuzzReply } from './worker.ts';

const HEAP_LIMIT_MB = 256;
/** The CLI's bound (issue 19): resident memory after the input. */
export const RSS_LIMIT = 256 << 20;
const KILL_AFTER_MS = 30_000;

export type ChildResult =
	FuzzReply | { readonly died: string; readonly outcome: 'timeout' | 'crash' };

export function confirmInChild(
	bytes: Uint8Array,
	neighbour: Uint8Array | null = null,
): Promise<ChildResult> {
	const proc: ChildProcess = fork(join(import.meta.dirname, 'worker.ts'), [], {
		execArgv: [`--max-old-space-size=${HEAP_LIMIT_MB}`, '--import', 'tsx'],
		serialization: 'advanced',
		stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
	});
	let stderr = '';
	proc.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
	return new Promise((resolve) => {
		let done = false;
		const finish = (r: ChildResult) => {
			if (done) return;
			done = true;
			clearTimeout(timer);
			proc.kill('SIGKILL');
			resolve(r);
		};
		const timer = setTimeout(
			() => finish({ died: `killed after ${KILL_AFTER_MS} ms`, outcome: 'timeout' }),
			KILL_AFTER_MS,
		);
		proc.on('message', (m: FuzzReply | { ready: true }) => {
			if ('ready' in m) proc.send({ id: 0, bytes, neighbour });
			else finish(m);
		});
		proc.on('exit', (code, signal) =>
			finish({
				died: `exit ${code ?? signal}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`,
				outcome: 'crash',
			}),
		);
	});
}
