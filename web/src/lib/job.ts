// Work handed to a worker of its own (copying the file, rebuilding the sockets), so that it runs
// on another core beside the decoding. One protocol for all: progress, a result or an error.

export type JobMessage<R> =
	| { readonly kind: 'progress'; readonly done: number }
	| { readonly kind: 'done'; readonly result: R }
	| { readonly kind: 'error'; readonly message: string; readonly quota: boolean };

/** Whether an error is the browser saying storage is full. */
export function isQuotaError(e: unknown): boolean {
	return e instanceof DOMException && (e.name === 'QuotaExceededError' || /quota/i.test(e.message));
}

export class JobFailed extends Error {
	/** The browser said storage is full. */
	readonly quota: boolean;
	constructor(message: string, quota = false) {
		super(message);
		this.quota = quota;
	}
}

export interface Job<R> {
	/** Settles when the worker is done (and has been stopped). */
	readonly done: Promise<R>;
	/** The last progress the worker reported (its own unit: bytes); null before its first report. */
	progress(): number | null;
	/** Stops the worker; `done` rejects unless it had already settled. */
	cancel(): void;
}

/** Runs one request in `worker` (created by the caller, so that the bundler sees its URL). */
export function startJob<R>(worker: Worker, what: string, request: unknown): Job<R> {
	let progress: number | null = null;
	let settle: ((r: { ok: true; value: R } | { ok: false; error: Error }) => void) | null = null;
	const done = new Promise<R>((resolve, reject) => {
		settle = (r) => {
			settle = null;
			worker.terminate();
			if (r.ok) resolve(r.value);
			else reject(r.error);
		};
	});
	worker.onmessage = (e: MessageEvent<JobMessage<R>>) => {
		const m = e.data;
		if (m.kind === 'progress') progress = m.done;
		else if (m.kind === 'done') settle?.({ ok: true, value: m.result });
		else settle?.({ ok: false, error: new JobFailed(`${what} failed: ${m.message}`, m.quota) });
	};
	worker.onerror = (e) =>
		settle?.({
			ok: false,
			error: new JobFailed(`${what} stopped: ${e.message || 'worker error'}`),
		});
	worker.postMessage(request);
	return {
		done,
		progress: () => progress,
		cancel: () => settle?.({ ok: false, error: new JobFailed(`${what} cancelled`) }),
	};
}

/** Inside a job's worker: answers its one request. */
export function serveJob<Q, R>(
	run: (request: Q, progress: (done: number) => void) => Promise<R>,
): void {
	const post = (m: JobMessage<R>) => postMessage(m);
	self.onmessage = async (e: MessageEvent<Q>) => {
		try {
			post({ kind: 'done', result: await run(e.data, (done) => post({ kind: 'progress', done })) });
		} catch (err) {
			const message = err instanceof Error ? err.message : String(err);
			post({ kind: 'error', message, quota: isQuotaError(err) });
		}
	};
}

/** A job that starts when `start` gives it (or never, if cancelled first). */
export function laterJob<R>(start: Promise<Job<R>>): Job<R> {
	let job: Job<R> | null = null;
	let cancelled = false;
	const done = start.then((j) => {
		job = j;
		if (cancelled) j.cancel();
		return j.done;
	});
	return {
		done,
		progress: () => job?.progress() ?? null,
		cancel() {
			cancelled = true;
			job?.cancel();
		},
	};
}
