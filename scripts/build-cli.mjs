// Bundles the command line (web/src/cli/main.ts and what it imports) into ES modules under
// build/cli/ (main.mjs and the chunks its commands load when they run), so `sockscope` starts with
// plain Node: no TypeScript compiled at each run, and a command parses only the code it uses.
// Usage: node scripts/build-cli.mjs
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// Chunks from an earlier build are named by their content: clear them.
rmSync(`${root}build/cli`, { recursive: true, force: true });
await build({
	absWorkingDir: root,
	entryPoints: ['web/src/cli/main.ts'],
	outdir: 'build/cli',
	outExtension: { '.js': '.mjs' },
	splitting: true,
	chunkNames: 'chunk-[hash]',
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	// Node's own modules stay imports; everything else the CLI uses is ours and goes in.
	packages: 'bundle',
	legalComments: 'none',
	logLevel: 'warning',
});
