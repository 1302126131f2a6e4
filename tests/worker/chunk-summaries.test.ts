// Chunk summaries in the library: an import stores them in one record per trace, with the rest of
// each chunk's record but its columns (opening the trace reads that record alone), a count answers
// from them, and a trace stored by an earlier version (summaries only in that record, a summary in
// each chunk's record, or none, scanned) answers the same, in the same database version.
import { describe, expect, it } from 'vitest';
import {
	DB_VERSION,
	SUMMARIES,
	type ChunkRecord,
	type SummariesRecord,
} from '../../web/src/store/db.ts';
import { chunkSummaries } from '../../web/src/store/trace-store.ts';
import type { SelectionHandle } from '../../web/src/worker/api.ts';
import { SAMPLE_IMPORT_MS } from '../timeouts.ts';
import { library, sampleFile, type Library } from './library-harness.ts';

const FILTERS = ['', 'event:AfdSend', 'status:error', 'process!=4 and level:4', 'bytes>100'];

function value<T>(r: { ok: true; value: T } | { ok: false; error: string }): T {
	if (!r.ok) throw new Error(r.error);
	return r.value;
}

/** Every answer about each filter: its count alone, then its rows, timeline and groups. */
async function answers(lib: Library, id: number) {
	const out = [];
	for (const filter of FILTERS) {
		const counted = value(await lib.api.query(id, filter, null));
		const h: SelectionHandle = counted.handle;
		out.push({
			filter,
			total: counted.total,
			matched: counted.matched,
			// Listed at the first request after a count.
			rows: value(await lib.api.rows(h, 0, 5000)).map((r) => r.index),
			histogram: value(await lib.api.histogram(h, 0, 5e7, 40)),
			groups: value(await lib.api.groupBy(h, 'event', 50)),
			listed: value(await lib.api.query(id, filter, null, 1)).matched,
		});
	}
	return out;
}

describe('chunk summaries in the library', { timeout: SAMPLE_IMPORT_MS }, () => {
	it('are stored in one record per trace, and chunks stored otherwise answer the same', async () => {
		const first = library();
		const id = value(await first.api.importFile(sampleFile(), () => {})).id;
		const db = await first.db();
		const records = await db.getAll('chunks');
		const chunks = records.filter((r): r is ChunkRecord => typeof r.index === 'number');
		const kept = records.find((r): r is SummariesRecord => r.index === SUMMARIES);
		expect(chunks.length).toBeGreaterThan(1);
		expect(records).toHaveLength(chunks.length + 1);
		expect(kept?.summaries).toHaveLength(chunks.length);
		expect(kept?.chunks).toEqual(
			chunks
				.sort((a, b) => a.index - b.index)
				.map(({ traceId: _, data: _d, parts: _p, blobs: _b, summary: _s, ...c }) => c),
		);
		for (const c of chunks) {
			expect(c.summary).toBeUndefined();
			const summary = kept!.summaries[c.index]!;
			expect(summary.rows).toBe(c.rows);
			expect(summary.counts.reduce((a, b) => a + b, 0)).toBe(c.rows);
		}
		const withSummaries = await answers(first, id);
		for (const a of withSummaries) expect(a.listed).toBe(a.matched);

		// Another page of the same origin opens the trace afresh, reading the chunks as stored.
		const summariesRead: (number | null)[][] = [];
		const located: boolean[] = [];
		const reopen = async () => {
			const opened = await chunkSummaries(db, id);
			summariesRead.push(opened.map((c) => c.summary?.rows ?? null));
			located.push(opened.every((c) => c.columns?.data instanceof Blob));
			const later = library({ dbName: first.dbName, files: first.files });
			expect((await later.db()).version).toBe(DB_VERSION);
			return answers(later, id);
		};
		expect(await reopen()).toEqual(withSummaries);
		// As an earlier version stored them: the summaries record without the chunks' records.
		await db.put('chunks', { ...kept!, chunks: undefined });
		expect(await reopen()).toEqual(withSummaries);
		// Before that: each chunk's summary in its own record.
		await db.delete('chunks', [id, SUMMARIES]);
		for (const c of chunks) await db.put('chunks', { ...c, summary: kept!.summaries[c.index] });
		expect(await reopen()).toEqual(withSummaries);
		// And before that: no summary (nor the property) anywhere; the chunks are scanned.
		for (const c of chunks) await db.put('chunks', c);
		expect(await reopen()).toEqual(withSummaries);
		// What loading reads: every chunk's summary, from the one record, then each chunk's own; and
		// where its columns are only where it read the chunk records.
		const rows = chunks.map((c) => c.rows);
		expect(summariesRead).toEqual([rows, rows, rows, rows.map(() => null)]);
		expect(located).toEqual([false, true, true, true]);
	});
});
