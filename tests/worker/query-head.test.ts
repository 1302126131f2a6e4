// A query that wants its first rows answers them from the chunks that hold them, its count from
// every chunk, and lists every match only when a request needs them: the first rows, the rows at
// any position and the count are those of the whole listing.
import { describe, expect, it } from 'vitest';
import { windowsScenario } from '../builders/windows-afd.ts';
import { SAMPLE_IMPORT_MS } from '../timeouts.ts';
import { library } from './library-harness.ts';

const value = <T>(r: { ok: true; value: T } | { ok: false; error: string }): T => {
	if (!r.ok) throw new Error(r.error);
	return r.value;
};

describe('a query with its first rows', { timeout: SAMPLE_IMPORT_MS }, () => {
	it('answers the listing’s first rows and count', async () => {
		const lib = library();
		const bytes = new Uint8Array(windowsScenario().file.bytes);
		const id = value(await lib.api.importFile(new File([bytes], 'windows.etl'), () => {})).id;
		for (const filter of ['', 'event:AfdSend', 'not event:AfdSend', 'status:error', 'bytes>100']) {
			const counted = value(await lib.api.query(id, filter, null)).matched;
			const q = value(await lib.api.query(id, filter, null, 40));
			expect(q.matched, filter).toBe(counted);
			const listed = value(await lib.api.rows(q.handle, 0, 40));
			expect(
				q.head!.map((r) => r.index),
				filter,
			).toEqual(listed.map((r) => r.index));
			expect(q.head!.length, filter).toBe(Math.min(40, counted));
			// The rows at any position before every match is listed (from the chunks the count says
			// hold them), then the rest of the listing once asked for: the same rows.
			if (counted > 0) {
				const offsets = [0, Math.floor(counted / 2), Math.max(0, counted - 30)];
				const rowsAt = async () =>
					Promise.all(
						offsets.map(async (o) =>
							value(await lib.api.rows(q.handle, o, 60)).map((r) => r.index),
						),
					);
				const before = await rowsAt();
				const last = value(await lib.api.rows(q.handle, counted - 1, 1));
				expect(value(await lib.api.positionOf(q.handle, last[0]!.index)), filter).toBe(counted - 1);
				expect(await rowsAt(), filter).toEqual(before);
			}
		}
	});
});
