// One place where what the worker's methods throw becomes a failure the page can branch on:
// every API method is wrapped (decoder.worker.ts), so none needs a try/catch of its own.
import { english, failureText, msg, type Msg, type Text } from '../i18n/render.ts';
import { CodedError, fail, type FailureCode, type Result } from '../lib/result.ts';
import { isQuotaError, JobFailed } from '../lib/job.ts';

/** Browser errors of reading files and storage, rather than of Sockscope's own code. */
const IO_ERRORS = new Set(['NotFoundError', 'NotReadableError', 'NotAllowedError', 'UnknownError']);

export function errorCode(e: unknown): FailureCode {
	if (e instanceof CodedError) return e.code;
	if (isQuotaError(e) || (e instanceof JobFailed && e.quota)) return 'quota';
	if (typeof DOMException !== 'undefined' && e instanceof DOMException && IO_ERRORS.has(e.name))
		return 'io';
	return 'internal';
}

export function errorMessage(e: unknown): string {
	return e instanceof Error ? e.message : String(e);
}

/** A failure whose message is a catalogue message (its English text is what the CLI prints). */
export function failWith<T = never>(code: FailureCode, m: Msg): Result<T> {
	return fail(code, english(m), m);
}

/** The same, thrown where a result cannot be returned. */
export function codedError(code: FailureCode, m: Msg): CodedError {
	return new CodedError(code, english(m), m);
}

/**
 * What went wrong, for the page to say in the reader's language: a coded error's own message,
 * else the error's text as data (a browser's or a bug's: it is what a report needs).
 */
export function errorText(e: unknown): Text {
	return e instanceof CodedError && e.text
		? failureText({ error: e.message, message: e.text })
		: errorMessage(e);
}

/**
 * `f` with what it throws returned as a failure: its code from the error (`io`, `quota`, a
 * CodedError's own, else `internal`), its message prefixed with what was being done.
 */
export function guarded<A extends unknown[], R>(
	what: (...args: A) => Msg,
	f: (...args: A) => Promise<Result<R>>,
): (...args: A) => Promise<Result<R>> {
	return async (...args) => {
		try {
			return await f(...args);
		} catch (e) {
			const doing = what(...args);
			return fail(
				errorCode(e),
				`${english(doing)}: ${errorMessage(e)}`,
				msg('failure.during', { what: doing, detail: errorText(e) }),
			);
		}
	};
}

type Method = (...args: never[]) => Promise<Result<unknown>>;

/** Per method, what it was doing, from its arguments (the start of a failure's message). */
export type Descriptions<Api> = {
	readonly [K in keyof Api]: Api[K] extends (...args: infer A) => unknown
		? (...args: A) => Msg
		: never;
};

/** Every method of `api` guarded (see `guarded`). */
export function guardedApi<Api extends { [K in keyof Api]: Method }>(
	api: Api,
	what: Descriptions<Api>,
): Api {
	const out = {} as Record<string, unknown>;
	for (const key of Object.keys(api) as (keyof Api & string)[]) {
		const f = api[key] as unknown as (...args: unknown[]) => Promise<Result<unknown>>;
		const describe = what[key] as unknown as (...args: unknown[]) => Msg;
		out[key] = guarded(describe, f);
	}
	return out as Api;
}
