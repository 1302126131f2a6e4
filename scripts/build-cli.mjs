// Bundles the command line (web/src/cli/main.ts and what it imports) into one ES module,
// build/cli/main.mjs, so `sockscope` starts with plain Node: no TypeScript compiled at each run.
// Usage: node scripts/build-cli.mjs
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

await build({
	absWorkingDir: root,
	entryPoints: ['web/src/cli/main.ts'],
	outfile: 'build/cli/main.mjs',
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	// Node's own modules stay imports; everything else the CLI uses is ours and goes in.
	packages: 'bundle',
	legalComments: 'none',
	logLevel: 'warning',
});
