// Builds the command-line bundle once before the unit tests, so the tests that run `sockscope`
// as a process run the current source (bin/sockscope.mjs prefers the bundle when it exists).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
	const script = fileURLToPath(new URL('../scripts/build-cli.mjs', import.meta.url));
	execFileSync(process.execPath, [script], { stdio: 'inherit' });
}
