// Selection handles: every request about a query's matches names the selection it means, and a
// newer query of the same trace makes the older handle fail with `superseded` (never answer for
// the wrong query); a filter that fails supersedes nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { failureText, textIn } from '../../web/src/i18n/render.ts';
import type { QueryAnswer } from '../../web/src/worker/api.ts';
import { SAMPLE_IMPORT_MS } from '../timeouts.ts';
import { library, sampleFile, sampleTruth, type Library } from './library-harness.ts';

let lib: Library;
let id: number;

beforeAll(async () => {
	lib = library();
	const r = await lib.api.importFile(sampleFile(), () => {});
	if (!r.ok) throw new Error(r.error);
	id = r.value.id;
}, SAMPLE_IMPORT_MS);

async function query(filter: string): Promise<QueryAnswer> {
	const r = await lib.api.query(id, filter, null, 4);
	if (!r.ok) throw new Error(r.error);
	return r.value;
}

/** Every request that takes a handle, asked of `answer`'s. */
function asked(answer: QueryAnswer) {
	const h = answer.handle;
	return Promise.all([
		lib.api.rows(h, 0, 3),
		lib.api.positionOf(h, 0),
		lib.api.histogram(h, 0, 1e9, 10),
		lib.api.groupBy(h, 'event', 5),
		lib.api.statistics(h),
		lib.api.exportRows(h, 'csv', () => true),
	]);
}

describe('selection handles', { timeout: SAMPLE_IMPORT_MS }, () => {
	it('answer for their own query, and fail with `superseded` once a newer one has answered', async () => {
		const all = await query('');
		expect(all.handle.traceId).toBe(id);
		expect(all.total).toBe(sampleTruth.totalRecords);
		expect((await asked(all)).every((r) => r.ok)).toBe(true);
		const rows = await lib.api.rows(all.handle, 0, 4);
		expect(rows.ok && rows.value).toEqual(all.head);

		const errors = await query('status:error');
		expect(errors.matched).toBeLessThan(all.matched);
		for (const r of await asked(all)) expect(!r.ok && r.code).toBe('superseded');
		const mine = await lib.api.rows(errors.handle, 0, errors.matched);
		expect(mine.ok && mine.value.length).toBe(errors.matched);
		expect(mine.ok && mine.value.every((row) => row.error)).toBe(true);
		const position = await lib.api.positionOf(errors.handle, all.head![0]!.index);
		expect(position.ok && position.value).toBe(-1);

		// A filter that does not parse fails with `filter`, and the last answer stays usable.
		const bad = await lib.api.query(id, 'pid>', null);
		expect(!bad.ok && bad.code).toBe('filter');
		expect((await asked(errors)).every((r) => r.ok)).toBe(true);
	});

	it(
		'of a deleted trace are superseded; its queries fail with `not-found`',
		async () => {
			const other = library();
			const r = await other.api.importFile(sampleFile(), () => {});
			if (!r.ok) throw new Error(r.error);
			const q = await other.api.query(r.value.id, '', null);
			if (!q.ok) throw new Error(q.error);
			await other.api.deleteTrace(r.value.id);
			const rows = await other.api.rows(q.value.handle, 0, 1);
			expect(!rows.ok && rows.code).toBe('superseded');
			const again = await other.api.query(r.value.id, '', null);
			expect(!again.ok && again.code).toBe('not-found');
			expect(!again.ok && again.error).toBe(`query failed: no trace ${r.value.id} in the library`);
			expect(!again.ok && textIn('zh', failureText(again))).toBe(
				`查询失败：跟踪库中没有跟踪 ${r.value.id}`,
			);
		},
		SAMPLE_IMPORT_MS,
	);
});
