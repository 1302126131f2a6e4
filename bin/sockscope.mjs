#!/usr/bin/env node
// Runs the command line: the bundle that `npm run build:cli` makes, or, in a checkout where it
// has not been built, the TypeScript source through tsx (a development dependency).
import { existsSync } from 'node:fs';

const bundle = new URL('../build/cli/main.mjs', import.meta.url);
let main;
if (existsSync(bundle)) {
	({ main } = await import(bundle.href));
} else {
	const { register } = await import('tsx/esm/api');
	register();
	({ main } = await import('../web/src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
