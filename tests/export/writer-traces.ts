// The traces the fast writers are compared on against the record-object path: the sample, every
// real fixture, and the benchmark's generated trace at `sizeMB` (thousands of AFD events of a few
// hundred sockets), written to a folder removed after the file's tests.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { realFixturesDir } from '../fixtures/real/sources-table.ts';
import { generate } from '../../bench/winsock-trace.ts';
import { EtlWriter } from '../builders/etl-writer.ts';

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

/** 2^53 ticks after 1601: below it, the events table's FILETIME is a JSON number. */
const TWO_53 = 2n ** 53n;

/** AFD sends from 2 s before 2^53 ticks to 2 s after it, a tenth of a second apart. */
export function across2to53(): Uint8Array {
	const start = TWO_53 - 30_000_000n;
	const w = new EtlWriter({ startTime: start, cpus: 2 });
	for (let k = 0; k < 40; k++)
		w.addAfd({
			cpu: k % 2,
			time: TWO_53 - 20_000_000n + BigInt(k) * 1_000_000n,
			pid: 4120,
			tid: 7000 + (k % 2),
			id: 1003,
			values: {
				EnterExit: k & 1,
				Location: 3,
				Process: 0x8a5c5080,
				Endpoint: 0x8b000000,
				BufferCount: 1,
				Buffer: 0x1000 + k,
				BufferLength: 100 + k,
			},
		});
	return w.finish().bytes;
}
