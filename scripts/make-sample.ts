// Writes the bundled sample trace and its ground truth:
//   public/sample.etl
//   tests/fixtures/sample/sample.truth.json
// Deterministic: the same bytes on every run (seeded PRNG, fixed start time). The scenario lives in
// tests/builders/sample.ts; tests/builders/sample.test.ts checks the committed files against it.
// Usage: npx tsx scripts/make-sample.ts [--check]

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSample } from '../tests/builders/sample.ts';

const root = new URL('../', import.meta.url);
const etlPath = fileURLToPath(new URL('public/sample.etl', root));
const truthPath = fileURLToPath(new URL('tests/fixtures/sample/sample.truth.json', root));

const { file, truth, json } = buildSample();
const check = process.argv.includes('--check');

function same(path: string, data: Uint8Array): boolean {
	try {
		return Buffer.compare(readFileSync(path), data) === 0;
	} catch {
		return false;
	}
}

const outputs: [string, Uint8Array][] = [
	[etlPath, file.bytes],
	[truthPath, new TextEncoder().encode(json)],
];

if (check) {
	const stale = outputs.filter(([p, d]) => !same(p, d)).map(([p]) => p);
	if (stale.length) {
		console.error(`out of date (run npx tsx scripts/make-sample.ts):\n  ${stale.join('\n  ')}`);
		process.exit(1);
	}
	console.log('sample is up to date');
} else {
	for (const [p, d] of outputs) {
		mkdirSync(dirname(p), { recursive: true });
		writeFileSync(p, d);
	}
	const events = truth.recordsByKind.event ?? 0;
	console.log(
		`wrote ${etlPath} (${file.bytes.length} bytes, ${file.buffers.length} buffers, ` +
			`${events} events, ${truth.sockets.length} sockets) and ${truthPath}`,
	);
}
