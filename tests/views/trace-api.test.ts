// A trace view's calls to the worker: each bound to its trace, and a query overtaken by a newer
// one told apart from a failed one.
import { describe, expect, it } from 'vitest';
import { fail, ok } from '../../web/src/lib/result.ts';
import { Superseded } from '../../web/src/query/engine.ts';
import type { DecoderApi, QueryAnswer } from '../../web/src/worker/api.ts';
import { TraceApi } from '../../web/src/views/events/trace-api.ts';

const answer: QueryAnswer = { total: 10, matched: 3, partial: false, ms: 1 };

/** A worker that answers every query with `result` and records the trace ids it is asked about. */
function worker(result: ReturnType<typeof ok<QueryAnswer>> | ReturnType<typeof fail>) {
	const ids: number[] = [];
	const api = {
		query: async (id: number) => (ids.push(id), result),
		rows: async (id: number) => (ids.push(id), []),
		positionOf: async (id: number) => (ids.push(id), -1),
		statistics: async (id: number) => (ids.push(id), fail('none')),
	} as Partial<DecoderApi> as DecoderApi;
	return { api, ids };
}

describe('trace api', () => {
	it('asks about its own trace', async () => {
		const { api, ids } = worker(ok(answer));
		const trace = new TraceApi(api, 7);
		await trace.query('', null, 5);
		await trace.rows(0, 5);
		await trace.positionOf(3);
		await trace.statistics();
		expect(ids).toEqual([7, 7, 7, 7]);
	});

	it('passes answers through', async () => {
		expect(await new TraceApi(worker(ok(answer)).api, 1).query('', null, 5)).toEqual(ok(answer));
	});

	it('tells a superseded query from a failed one', async () => {
		const overtaken = await new TraceApi(worker(fail(new Superseded().message)).api, 1).query(
			'x',
			null,
			5,
		);
		expect(overtaken).toMatchObject({ ok: false, superseded: true });
		const wrong = await new TraceApi(worker(fail('unknown field "nope"')).api, 1).query(
			'nope:1',
			null,
			5,
		);
		expect(wrong).toEqual({ ok: false, error: 'unknown field "nope"', superseded: false });
	});
});
