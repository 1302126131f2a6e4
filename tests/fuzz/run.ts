// npm run fuzz [-- --seconds N] [--file NAME]: mutates the real fixtures until time runs out and
// prints any case that throws, with the seed to replay it.
import { readdirSync } from 'node:fs';
import { decoderModule, realFixture } from '../decoder/load.ts';
import { realFixturesDir } from '../fixtures/real/sources-table.ts';
import { decodeAll } from './check.ts';
import { mutate } from './mutate.ts';

const args = process.argv.slice(2);
const seconds = Number(args[args.indexOf('--seconds') + 1] ?? 60) || 60;
const only = args.includes('--file') ? args[args.indexOf('--file') + 1] : undefined;
const names = readdirSync(realFixturesDir)
	.filter((f) => f.endsWith('.etl'))
	.map((f) => f.replace(/\.etl$/, ''))
	.filter((n) => !only || n === only);
const files = names.map((n) => [n, realFixture(n)] as const);
const deadline = Date.now() + seconds * 1000;
let cases = 0;
let failures = 0;
for (let seed = 1; Date.now() < deadline; seed++) {
	for (const [name, bytes] of files) {
		if (Date.now() >= deadline) break;
		try {
			await decodeAll(decoderModule(), mutate(bytes, seed));
		} catch (e) {
			failures++;
			console.error(`FAIL ${name} seed ${seed}: ${e instanceof Error ? e.stack : e}`);
		}
		cases++;
	}
}
console.log(JSON.stringify({ seconds, cases, failures }));
process.exitCode = failures ? 1 : 0;
