// Builds the site into a directory of its own, for tests that need a second version of the app
// (the update prompt). Reuses build/release/decoder.wasm from `npm run build`; a vite build of the
// page takes a few seconds.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from './server.ts';

export function buildSite(outDir: string, env: Readonly<Record<string, string>>): Promise<void> {
	const vite = join(projectRoot, 'node_modules', 'vite', 'bin', 'vite.js');
	const child = spawn(
		process.execPath,
		[vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
		{
			cwd: projectRoot,
			// Vitest sets NODE_ENV=test, which would make Vite build a development bundle.
			env: { ...process.env, NODE_ENV: 'production', ...env },
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	return new Promise((resolve, reject) => {
		child.once('error', reject);
		child.once('exit', (code) =>
			code === 0 ? resolve() : reject(new Error(`vite build exited with ${code}:\n${output}`)),
		);
	});
}
