#!/usr/bin/env node
// Runs the TypeScript command line through tsx, so the CLI and the web app share one source.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../web/src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
