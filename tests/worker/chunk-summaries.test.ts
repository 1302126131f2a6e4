// Chunk summaries in the library: an import stores one with each chunk, a count answers from
// them, and a trace stored by an earlier version (chunks without summaries) answers the same,
// scanned, in the same database version.
import { describe, expect, it } from 'vitest';
import { DB_VERSION } from '../../web/src/store/db.ts';
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
	it('are stored with each chunk, and a trace stored without them answers the same', async () => {
		const first = library();
		const id = value(await first.api.importFile(sampleFile(), () => {})).id;
		const db = await first.db();
		const chunks = await db.getAll('chunks');
		expect(chunks.length).toBeGreaterThan(1);
		for (const c of chunks) {
			expect(c.summary?.rows).toBe(c.rows);
			expect(c.summary!.counts.reduce((a, b) => a + b, 0)).toBe(c.rows);
		}
		const withSummaries = await answers(first, id);
		for (const a of withSummaries) expect(a.listed).toBe(a.matched);

		// As an earlier version stored them: no summary (nor the property) in any chunk.
		for (const c of chunks) {
			delete c.summary;
			await db.put('chunks', c);
		}
		// Another page of the same origin opens the trace afresh, reading the chunks as stored.
		const later = library({ dbName: first.dbName, files: first.files });
		expect((await later.db()).version).toBe(DB_VERSION);
		expect(await answers(later, id)).toEqual(withSummaries);
	});
});
