// Starts scripts/serve.mjs as a child process and waits for the URL it prints.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningServer {
	readonly url: string;
	stop(): Promise<void>;
}

const READY = /Sockscope is running at (http:\/\/\S+)/;

/** `args` follow the script's own: DIR [--port N] [--base /x/]. */
export function startServer(args: readonly string[]): Promise<RunningServer> {
	const child = spawn(process.execPath, ['scripts/serve.mjs', ...args], {
		cwd: projectRoot,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	const stop = () =>
		new Promise<void>((resolve) => {
			if (child.exitCode !== null || child.signalCode !== null) return resolve();
			child.once('exit', () => resolve());
			child.kill('SIGTERM');
		});
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			void stop();
			reject(new Error(`serve.mjs printed no URL within 10 s:\n${output}`));
		}, 10_000);
		const onData = (chunk: Buffer) => {
			output += chunk.toString();
			const match = READY.exec(output);
			if (match) {
				clearTimeout(timer);
				resolve({ url: match[1]!, stop });
			}
		};
		child.stdout.on('data', onData);
		child.stderr.on('data', onData);
		child.once('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`serve.mjs exited with code ${code}:\n${output}`));
		});
	});
}
