// What a chunk's rows are written with does not depend on how far the decoding has run ahead of
// the writing: the names known at the chunk's commit, however slow the writing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filteredRecords } from '../../web/src/cli/decode-command.ts';
import { Progress } from '../../web/src/cli/progress.ts';
import { decoderModule, open } from '../decoder/load.ts';
import { realFixturesDir } from '../fixtures/real/sources-table.ts';
import { WHOLE_FIXTURES_MS } from '../timeouts.ts';

/** Each row's owner name as the writer saw it, each row's writing delayed by `delay()`. */
async function ownerNames(path: string, delay: () => Promise<void>): Promise<(string | null)[]> {
	const trace = await open(new Uint8Array(readFileSync(path)));
	const names: (string | null)[] = [];
	await filteredRecords(
		trace,
		decoderModule(),
		'',
		async (_r, _c, i, ctx, _index, owners) => {
			await delay();
			const pid = owners.source[i] === 0 ? null : owners.pid[i]!;
			names.push(pid === null ? null : (ctx.processNames.get(pid) ?? null));
		},
		async () => {},
		new Progress('test', true),
	);
	return names;
}

describe('filteredRecords', () => {
	it(
		'writes rows with the names known at their chunk commit, however slow the writing',
		async () => {
			const path = join(realFixturesDir, 'tx-win7-kernel-process.etl');
			const fast = await ownerNames(path, async () => {});
			// Each row waits for a macrotask: the decoding runs far ahead of the writing.
			const slow = await ownerNames(path, () => new Promise((r) => setImmediate(r)));
			expect(slow).toEqual(fast);
			// The trace names processes, so the test compares names and not only nulls.
			expect(fast.some((n) => n !== null)).toBe(true);
		},
		WHOLE_FIXTURES_MS,
	);
});
