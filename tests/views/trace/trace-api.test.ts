// A trace view's calls to the worker: the trace's own requests name the trace, those about an
// answer's matches carry the answer's selection handle, and a superseded selection shows nothing.
import { describe, expect, it } from 'vitest';
import { fail, ok } from '../../../web/src/lib/result.ts';
import type { DecoderApi, QueryAnswer, SelectionHandle } from '../../../web/src/worker/api.ts';
import { TraceApi } from '../../../web/src/views/trace/trace-api.ts';

const handle: SelectionHandle = { traceId: 7, selection: 3 };
const answer: QueryAnswer = { handle, total: 10, matched: 3, partial: false, ms: 1 };
const superseded = fail('superseded', 'superseded by a newer query');

/** A worker that records what each request was asked about; `stale`: every selection superseded. */
function worker(stale = false) {
	const asked: unknown[] = [];
	const api = {
		query: async (id: number) => (asked.push(id), ok(answer)),
		rows: async (s: SelectionHandle) => (asked.push(s), stale ? superseded : ok([])),
		positionOf: async (s: SelectionHandle) => (asked.push(s), stale ? superseded : ok(2)),
		statistics: async (s: SelectionHandle) => (asked.push(s), superseded),
		vocabulary: async (id: number) => (asked.push(id), fail('not-found', 'none')),
	};
	return { api: api as unknown as DecoderApi, asked };
}

describe('trace api', () => {
	it('asks about its own trace, and about a selection by its handle', async () => {
		const { api, asked } = worker();
		const trace = new TraceApi(api, 7);
		const r = await trace.query('', null, 5);
		expect(r).toEqual(ok(answer));
		await trace.rows(handle, 0, 5);
		expect(await trace.positionOf(handle, 3)).toBe(2);
		await trace.statistics(handle);
		await trace.vocabulary();
		expect(asked).toEqual([7, handle, handle, handle, 7]);
	});

	it('shows no rows and no position of a superseded selection', async () => {
		const trace = new TraceApi(worker(true).api, 7);
		expect(await trace.rows(handle, 0, 5)).toEqual([]);
		expect(await trace.positionOf(handle, 3)).toBe(-1);
		expect(await trace.statistics(handle)).toMatchObject({ ok: false, code: 'superseded' });
	});
});
