// The traces the fast writers are compared on against the record-object path: the sample, every
// real fixture, and the benchmark's generated trace at `sizeMB` (thousands of AFD events of a few
// hundred sockets), written to a folder removed after the file's tests.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { realFixturesDir } from '../fixtures/real/sources-table.ts';
import { generate } from '../../bench/winsock-trace.ts';

export function writerTraces(name: string, sizeMB: number): [string, string][] {
	const dir = mkdtempSync(join(tmpdir(), `${name}-`));
	afterAll(() => rmSync(dir, { recursive: true, force: true }));
	const generated = join(dir, `winsock-${sizeMB}mb.etl`);
	generate(generated, sizeMB);
	return [
		['sample', join(import.meta.dirname, '../../public/sample.etl')],
		...readdirSync(realFixturesDir)
			.filter((f) => f.endsWith('.etl'))
			.map((f): [string, string] => [f, join(realFixturesDir, f)]),
		['generated', generated],
	];
}
