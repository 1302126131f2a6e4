// The same damaged file gets the same damage messages from every command that reads its records
// and from the browser's import: what is damage is decided in one place (decoder/trace-checks.ts).
// Record-level findings (a TraceLogging event over its value budget, record times the trace
// header contradicts) and a missing buffer, each checked per command.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { ingestTrace } from '../../web/src/ingest/ingest.ts';
import { open } from '../decoder/load.ts';
import { HOSTILE_CASES } from '../fixtures/hostile/cases.ts';
import { CLI_PROCESS_MS } from '../timeouts.ts';
import { sockscope, type CliResult } from './run.ts';

const dir = mkdtempSync(join(tmpdir(), 'sockscope-same-damage-'));

/** The messages a run printed about its file (without the "sockscope: FILE: " prefix). */
function messages(r: CliResult, file: string): string[] {
	const prefix = `sockscope: ${file}: `;
	return r.stderr
		.split('\n')
		.filter((l) => l.startsWith(prefix))
		.map((l) => l.slice(prefix.length));
}

const INPUTS = [
	{
		name: 'tl-nested-arrays',
		expected: [
			...Array.from({ length: 3 }, () =>
				expect.stringMatching(
					/^buffer \d+ at offset 0x[0-9a-f]+: record at offset 0x[0-9a-f]+ \(Hostile\.Nested Nested\): field "level\d+" would take the event past its budget of \d+ values \(payload of 8 bytes\)$/,
				),
			),
		],
	},
	{
		name: 'perffreq-changed',
		expected: [
			expect.stringMatching(/^records run until \S+, [\d.]+ s after the trace header's EndTime \(/),
		],
	},
	{
		name: 'missing-buffer',
		expected: [
			expect.stringMatching(/: the buffer numbered \d+ is missing, after buffer \d+ at offset /),
		],
	},
];

const COMMANDS: Record<string, (file: string) => string[]> = {
	decode: (f) => ['decode', f],
	'decode --filter': (f) => ['decode', '--filter', 'pid >= 0', f],
	stats: (f) => ['stats', f],
	sockets: (f) => ['sockets', f],
	findings: (f) => ['findings', f],
	export: (f) => ['export', '--quiet', '--format', 'ndjson', '--out', join(dir, 'out'), f],
};

for (const input of INPUTS)
	describe(`${input.name}: the same damage from every command`, () => {
		const file = join(dir, `${input.name}.etl`);
		const bytes = HOSTILE_CASES.find((c) => c.name === input.name)!.bytes();
		let reference: string[] = [];
		beforeAll(async () => {
			writeFileSync(file, bytes);
			reference = messages(await sockscope('stats', file), file);
			expect(reference).toEqual(input.expected);
		}, CLI_PROCESS_MS);

		for (const [command, args] of Object.entries(COMMANDS))
			it(
				command,
				async () => {
					const r = await sockscope(...args(file));
					expect(r.code).toBe(1);
					expect(messages(r, file)).toEqual(reference);
				},
				CLI_PROCESS_MS,
			);

		it(
			'the browser import',
			async () => {
				const trace = await open(bytes);
				const result = await ingestTrace(trace, async () => {}, {
					index: await indexBuffers(trace),
				});
				expect(result.damage.map((d) => d.message)).toEqual(reference);
			},
			CLI_PROCESS_MS,
		);
	});
