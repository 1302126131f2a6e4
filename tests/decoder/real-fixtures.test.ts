// Every real fixture decodes completely, with the structure counts SOURCES.md records for it.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RecordOut } from '../../web/src/generated/layouts.ts';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { cell, readSourcesTable, realFixturesDir } from '../fixtures/real/sources-table.ts';
import { open, realFixture, statsOf } from './load.ts';
import { WHOLE_FIXTURES_MS } from '../timeouts.ts';

const table = readSourcesTable();
const names = readdirSync(realFixturesDir)
	.filter((f) => f.endsWith('.etl'))
	.map((f) => f.replace(/\.etl$/, ''));

/** "SYSTEM64 1, EVENT64 8923" → { SYSTEM64: 1, EVENT64: 8923 }. */
function headerTypeCounts(text: string): Record<string, number> {
	const out: Record<string, number> = {};
	for (const m of text.matchAll(/([A-Z]+\d*)\s+(\d+)/g)) out[m[1]!] = Number(m[2]);
	return out;
}

describe('real fixtures', { timeout: WHOLE_FIXTURES_MS }, () => {
	it('lists every fixture in SOURCES.md', () => {
		expect(names.length).toBeGreaterThan(0);
		for (const n of names) expect(table.has(n), `${n} missing from SOURCES.md`).toBe(true);
	});

	for (const name of names) {
		it(`${name}: record, buffer and provider counts match SOURCES.md`, async () => {
			const row = table.get(name)!;
			const stats = await statsOf(realFixture(name));
			expect(stats.damage).toEqual([]);
			expect(stats.byHeaderType).toEqual(headerTypeCounts(cell(row, 'Records by header type')));
			const [, buffers, compressed] = /^(\d+)\s*\((\d+)\)/.exec(cell(row, 'Buffers (compressed)'))!;
			expect(stats.buffers).toBe(Number(buffers));
			expect(stats.compressedBuffers).toBe(Number(compressed));
			const providers = cell(row, 'Providers (events)');
			for (const m of providers.matchAll(/([0-9a-f]{8})-…\s*\((\d+)/g)) {
				const found = Object.entries(stats.byProvider).filter(([g]) => g.startsWith(m[1]!));
				expect(found.length, `provider ${m[1]}`).toBe(1);
				expect(found[0]![1].events, `events of ${m[1]}`).toBe(Number(m[2]));
			}
			const distinct = /(\d+) providers/.exec(providers);
			if (distinct) expect(Object.keys(stats.byProvider).length).toBe(Number(distinct[1]));
		});

		it(`${name}: records come out in time order, within the session`, async () => {
			const trace = await open(realFixture(name));
			const index = await indexBuffers(trace);
			const start = BigInt(trace.facts.startFiletime);
			const end = BigInt(trace.facts.endFiletime);
			// Relogged files may hold events after EndTime (2.5 s seen); live sessions stop within 15 ms.
			const relogged = (trace.facts.logFileMode & 0x10000) !== 0;
			const slack = relogged ? 30_000_000n : 150_000n;
			let previous = start;
			let count = 0;
			await mergeRecords(trace, index.buffers, (b, i) => {
				const t = b.time(i);
				if (t < previous) throw new Error(`record ${count} at ${t} precedes ${previous}`);
				if (t > end + slack) throw new Error(`record ${count} at ${t} is after EndTime ${end}`);
				if (b.u8(i, RecordOut.kind) === 0) expect(t).toBe(start);
				previous = t;
				count++;
			});
			expect(count).toBeGreaterThan(0);
		});
	}
});
