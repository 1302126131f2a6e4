import type { Message } from './message.ts';

/**
 * Expected failures travel as values, not exceptions, across the worker and WASM boundaries.
 * Each carries a code from a closed set, which callers branch on, and a message for people
 * (never parsed):
 *
 * - `superseded`: a newer query on the same trace replaced this one, or the selection handle
 *   given; nothing to show, the newer answer is on its way.
 * - `filter`: the filter text does not parse or names what does not exist.
 * - `invalid`: an argument the request cannot take (an empty name, say).
 * - `format`: the file is not an ETL trace: no buffer header at its start.
 * - `damaged`: an ETL trace whose first buffer holds no readable trace header: nothing decodes.
 * - `io`: reading a file failed (removed, unreadable, no copy of it in the library).
 * - `quota`: the browser's storage is full.
 * - `not-found`: no such trace, event, or part of a trace (sockets of an incomplete import).
 * - `version`: stored by another version of Sockscope, which this one cannot go on from.
 * - `mismatch`: the file given is not the one the trace was imported from.
 * - `busy`: the trace is being imported already.
 * - `cancelled`: the user stopped the work (an import: nothing of it was kept).
 * - `internal`: anything else thrown; a bug or a browser failure, the message says what.
 */
export type FailureCode =
	| 'superseded'
	| 'filter'
	| 'invalid'
	| 'format'
	| 'damaged'
	| 'io'
	| 'quota'
	| 'not-found'
	| 'version'
	| 'mismatch'
	| 'busy'
	| 'cancelled'
	| 'internal';

export interface Failure {
	readonly ok: false;
	readonly code: FailureCode;
	/** What went wrong, for the person reading it (in English: the CLI prints it). */
	readonly error: string;
	/** The same as a catalogue key and values, for the page to say in the reader's language. */
	readonly message?: Message;
}

export type Result<T> = { readonly ok: true; readonly value: T } | Failure;

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(code: FailureCode, error: string, message?: Message): Result<T> =>
	message ? { ok: false, code, error, message } : { ok: false, code, error };

/** An error thrown where a Result cannot be returned, keeping its code for the caller's catch. */
export class CodedError extends Error {
	readonly code: FailureCode;
	/** The message as a catalogue key and values (see Failure.message). */
	readonly text: Message | undefined;
	constructor(code: FailureCode, message: string, text?: Message) {
		super(message);
		this.code = code;
		this.text = text;
	}
}
