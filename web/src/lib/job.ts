// Work handed to a worker of its own (copying the file), so that it runs
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

/**
 * Where a job's messages go: the ports of a worker the page started for this one. `A`: what the
 * worker answers (a job's progress and result, or a protocol of its own).
 */
export interface JobChannel<A = JobMessage<unknown>> {
	/** `transfer`: memory handed over with the request rather than copied. */
	send(request: unknown, transfer?: Transferable[]): void;
	/** `onMessage` hears the worker's answers; `onError`, its failing without one. */
	listen(onMessage: (m: A) => void, onError: (message: string) => void): void;
	/** Stops the worker (cancelled or failed: it will not answer). */
	stop(): void;
	/** Lets go of the channel once the worker has answered (it ends itself: serveJob). */
	release(): void;
}

/** The ports of a worker the page started for this one (worker/side-workers.ts). */
export interface JobPorts {
	/** The job's requests and answers. */
	readonly job: MessagePort;
	/** The page's: it says here when the worker failed, and stops it when told `stop`. */
	readonly control: MessagePort;
}

export const STOP_WORKER = 'stop';

export function portChannel<A = JobMessage<unknown>>(ports: JobPorts): JobChannel<A> {
	const close = () => {
		ports.job.close();
		ports.control.close();
	};
	return {
		send: (request, transfer = []) => ports.job.postMessage(request, transfer),
		listen(onMessage, onError) {
			ports.job.onmessage = (e: MessageEvent<A>) => onMessage(e.data);
			ports.control.onmessage = (e: MessageEvent<string>) => onError(e.data || 'worker error');
		},
		stop() {
			ports.control.postMessage(STOP_WORKER);
			close();
		},
		release: close,
	};
}

/** Runs one request in the worker behind `channel`. */
export function startJob<R>(channel: JobChannel, what: string, request: unknown): Job<R> {
	let progress: number | null = null;
	let settle: ((r: { ok: true; value: R } | { ok: false; error: Error }) => void) | null = null;
	const done = new Promise<R>((resolve, reject) => {
		settle = (r) => {
			settle = null;
			if (r.ok) resolve(r.value);
			else reject(r.error);
		};
	});
	// Answered, the worker ends itself; only one that will not answer is stopped from here.
	const answered = (r: { ok: true; value: R } | { ok: false; error: Error }) => {
		if (!settle) return;
		channel.release();
		settle(r);
	};
	const stop = (error: Error) => {
		if (!settle) return;
		channel.stop();
		settle({ ok: false, error });
	};
	channel.listen(
		(m) => {
			if (m.kind === 'progress') progress = m.done;
			else if (m.kind === 'done') answered({ ok: true, value: m.result as R });
			else answered({ ok: false, error: new JobFailed(`${what} failed: ${m.message}`, m.quota) });
		},
		(message) => stop(new JobFailed(`${what} stopped: ${message}`)),
	);
	channel.send(request);
	return {
		done,
		progress: () => progress,
		cancel: () => stop(new JobFailed(`${what} cancelled`)),
	};
}

/**
 * Inside a job's worker: answers its one request, then ends. The request comes to the worker
 * itself, or through the port the page's first message hands over (side-workers.ts).
 */
export function serveJob<Q, R>(
	run: (request: Q, progress: (done: number) => void) => Promise<R>,
): void {
	const answer = async (request: Q, post: (m: JobMessage<R>) => void) => {
		try {
			post({
				kind: 'done',
				result: await run(request, (done) => post({ kind: 'progress', done })),
			});
		} catch (err) {
			const message = err instanceof Error ? err.message : String(err);
			post({ kind: 'error', message, quota: isQuotaError(err) });
		}
		self.close();
	};
	self.onmessage = (e: MessageEvent<Q | MessagePort>) => {
		const first = e.data;
		if (first instanceof MessagePort) {
			const post = (m: JobMessage<R>) => first.postMessage(m);
			first.onmessage = (r: MessageEvent<Q>) => void answer(r.data, post);
			// A request this browser cannot pass between workers would otherwise never be answered.
			first.onmessageerror = () => {
				post({ kind: 'error', message: 'its request could not be passed to it', quota: false });
				self.close();
			};
			return;
		}
		void answer(first, (m) => postMessage(m));
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
