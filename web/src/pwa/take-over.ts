// "Reload" on the update prompt: the waiting version takes over, then the page reloads into it.
//
// Chromium decides once, when the waiting worker calls skipWaiting(), how the outgoing worker is
// swapped out: a running one is told to stop as soon as it is idle, and the new one activates
// then; a stopped one is swapped at once; but one that is *starting* at that moment (a request of
// the page has just woken it) is left to run, and the new version waits until it has been idle
// for 30 s (never while DevTools is attached) or for the browser's limit of 5 minutes. Calling
// skipWaiting() again changes nothing. After a reload while a version waits the old worker stops
// whenever it is idle, so any request of the page wakes it again: the decoder fetching its WASM as
// Reload was pressed left the app on the old version, "Reloading…", for all the 90 s the update
// e2e test waited (about one run in four on a busy machine).
// So the page first makes a request the controlling worker answers, and asks the waiting worker
// to take over only once the answer is in. That leaves a window (another request of the page can
// wake the old worker between the answer and the request to take over), so when the new worker
// has not taken over after a while the page wakes the old worker again and starts a worker of its
// own: Chromium looks at the registration again when a worker's script is requested (as for a
// page load), and then lets the waiting version in. A request of the page alone does not (both
// seen in the update e2e test's browser).
//
// The page reloads only when the new worker is active: a reload before that is served by the old
// worker, with the old version.

/** The parts of a ServiceWorker this uses. */
export interface WorkerLike extends EventTarget {
	readonly state: ServiceWorkerState;
	postMessage(message: unknown): void;
}

/** The parts of a ServiceWorkerContainer this uses (events: controllerchange). */
export interface ContainerLike extends EventTarget {
	getRegistration(): Promise<
		{ readonly waiting: WorkerLike | null; readonly installing: WorkerLike | null } | undefined
	>;
}

export interface TakeOverEnv {
	readonly container: ContainerLike;
	/**
	 * A request the controlling worker answers (it has to run to answer; or it answered and
	 * stopped, idle). Never rejects.
	 */
	wakeController(): Promise<void>;
	/** Starts a worker whose script is requested within the scope, and ends it once loaded. */
	nudge(): void;
	reload(): void;
	/** How long to wait for the new worker before waking and nudging again (ms). */
	readonly retryMs: number;
}

/**
 * How it ended: 'reloading' (the new version is active, or nothing was waiting any more, so a
 * reload loads whatever is active), or 'superseded' (the waiting worker was replaced by a newer
 * one before it took over: the prompt stays, for the newer one).
 */
export type TakeOverResult = 'reloading' | 'superseded';

/** The message the generated service worker answers with skipWaiting() (vite.config.ts). */
const SKIP_WAITING = { type: 'SKIP_WAITING' } as const;

export async function takeOver(env: TakeOverEnv): Promise<TakeOverResult> {
	const registration = await env.container.getRegistration();
	const waiting = registration?.waiting ?? (await installed(registration?.installing ?? null));
	if (!waiting) {
		// Another window already switched (or the worker failed to install): a reload loads
		// whatever the browser now has active.
		env.reload();
		return 'reloading';
	}
	const outcome = activation(env.container, waiting);
	await env.wakeController();
	waiting.postMessage(SKIP_WAITING);
	let result: TakeOverResult | null = null;
	for (let nudges = 0; !result && nudges < NUDGES; nudges++) {
		result = await Promise.race([outcome, delay(env.retryMs)]);
		if (result) break;
		await env.wakeController();
		env.nudge();
	}
	// Past that, the browser's own limits decide (Chromium: 5 minutes at most).
	result ??= await outcome;
	if (result === 'reloading') env.reload();
	return result;
}

/** How many times the browser is nudged before the page just waits. */
const NUDGES = 12;

const delay = (ms: number) => new Promise<null>((resolve) => setTimeout(() => resolve(null), ms));

/**
 * 'reloading' once `worker` is activating or active: the page's controller changes then, and a
 * navigation waits for the activation to finish, so it is served by the new worker.
 */
function activation(container: ContainerLike, worker: WorkerLike): Promise<TakeOverResult> {
	return new Promise((resolve) => {
		const ended = (result: TakeOverResult) => {
			container.removeEventListener('controllerchange', onController);
			worker.removeEventListener('statechange', onState);
			resolve(result);
		};
		const onController = () => ended('reloading');
		const onState = () => {
			if (worker.state === 'activating' || worker.state === 'activated') ended('reloading');
			else if (worker.state === 'redundant') ended('superseded');
		};
		container.addEventListener('controllerchange', onController);
		worker.addEventListener('statechange', onState);
	});
}

/** The worker once it has installed (it then waits), or null when it does not get there. */
function installed(worker: WorkerLike | null): Promise<WorkerLike | null> {
	if (!worker) return Promise.resolve(null);
	if (worker.state === 'installed') return Promise.resolve(worker);
	return new Promise((resolve) => {
		const onState = () => {
			if (worker.state === 'installing') return;
			worker.removeEventListener('statechange', onState);
			resolve(worker.state === 'installed' ? worker : null);
		};
		worker.addEventListener('statechange', onState);
	});
}
