// Coded failures: what the worker's methods throw is mapped once, by the guard, to a code the
// page branches on (never a message matched by a pattern).
import { describe, expect, it } from 'vitest';
import { failureText, msg, textIn } from '../../web/src/i18n/render.ts';
import { CodedError, ok, type Failure, type Result } from '../../web/src/lib/result.ts';
import { errorCode, guarded, guardedApi } from '../../web/src/worker/guard.ts';
import { JobFailed } from '../../web/src/lib/job.ts';

describe('failure codes', () => {
	it('come from what was thrown: its own code, storage full, reading failed, else internal', () => {
		expect(errorCode(new CodedError('not-found', 'no trace 3'))).toBe('not-found');
		expect(errorCode(new DOMException('over', 'QuotaExceededError'))).toBe('quota');
		expect(errorCode(new JobFailed('copying failed', true))).toBe('quota');
		expect(errorCode(new JobFailed('copying failed'))).toBe('internal');
		expect(errorCode(new DOMException('gone', 'NotFoundError'))).toBe('io');
		expect(errorCode(new DOMException('unreadable', 'NotReadableError'))).toBe('io');
		expect(errorCode(new TypeError('x is undefined'))).toBe('internal');
		expect(errorCode('a string')).toBe('internal');
	});

	it('one wrapper turns every method’s throw into a failure naming what it was doing', async () => {
		const f = guarded(
			(n: number) => msg('failure.what.details', { index: n }),
			async (n: number): Promise<Result<number>> => {
				if (n > 2) throw new DOMException('disk gone', 'NotReadableError');
				return ok(n);
			},
		);
		expect(await f(2)).toEqual({ ok: true, value: 2 });
		const failed = await f(3);
		expect(failed).toMatchObject({
			ok: false,
			code: 'io',
			error: 'cannot read event 3: disk gone',
		});
		// The page says it in the reader's language; the browser's own text stays as data.
		expect(textIn('zh', failureText(failed as Failure))).toBe('无法读取事件 3：disk gone');

		const api = guardedApi(
			{
				good: async () => ok('fine'),
				bad: async (): Promise<Result<string>> => {
					throw new Error('broken');
				},
			},
			{ good: () => msg('failure.what.query'), bad: () => msg('failure.what.trust') },
		);
		expect(await api.good()).toEqual({ ok: true, value: 'fine' });
		expect(await api.bad()).toMatchObject({
			ok: false,
			code: 'internal',
			error: 'cannot count what the trace lost: broken',
		});
	});
});
