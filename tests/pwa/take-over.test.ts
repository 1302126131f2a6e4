// "Reload" on the update prompt against a model of Chromium: the waiting worker takes over when it
// calls skipWaiting(), unless the outgoing worker is starting at that moment (then it does not take
// over while the page is open, and a second skipWaiting() changes nothing); a worker's script
// request makes the browser decide again. The page must reload once, and only after the new
// worker is activating.
import { describe, expect, it } from 'vitest';
import { takeOver, type ContainerLike, type WorkerLike } from '../../web/src/pwa/take-over.ts';

type Running = 'stopped' | 'starting' | 'running';

class FakeWorker extends EventTarget implements WorkerLike {
	state: ServiceWorkerState;
	readonly messages: unknown[] = [];
	onMessage: (message: unknown) => void = () => {};

	constructor(state: ServiceWorkerState) {
		super();
		this.state = state;
	}

	postMessage(message: unknown): void {
		this.messages.push(message);
		this.onMessage(message);
	}

	become(state: ServiceWorkerState): void {
		this.state = state;
		this.dispatchEvent(new Event('statechange'));
	}
}

/** One origin's registration: an active worker controlling the page and a newer one. */
class FakeBrowser {
	readonly container: ContainerLike & EventTarget;
	readonly active = new FakeWorker('activated');
	/** The active worker's thread. */
	running: Running = 'running';
	waiting: FakeWorker | null = null;
	installing: FakeWorker | null = null;
	readonly log: string[] = [];
	#skipAsked = false;

	constructor() {
		const container = new EventTarget() as ContainerLike & EventTarget;
		container.getRegistration = async () => ({
			waiting: this.waiting,
			installing: this.installing,
		});
		this.container = container;
	}

	/** A worker that installed and waits, answering SKIP_WAITING the way vite.config.ts builds it. */
	addWaiting(): FakeWorker {
		const worker = new FakeWorker('installed');
		worker.onMessage = (message) => {
			if ((message as { type?: string }).type === 'SKIP_WAITING') this.skipWaiting(worker);
		};
		this.waiting = worker;
		return worker;
	}

	/** Only the first call counts. */
	skipWaiting(worker: FakeWorker): void {
		this.log.push(`skipWaiting while the old worker is ${this.running}`);
		if (this.#skipAsked) return;
		this.#skipAsked = true;
		this.#decide(worker);
	}

	/** A worker's script requested within the scope: the browser decides again. */
	nudge(): void {
		this.log.push(`a worker's script requested while the old worker is ${this.running}`);
		if (this.#skipAsked && this.waiting) this.#decide(this.waiting);
	}

	/** A starting outgoing worker holds the new one back. */
	#decide(worker: FakeWorker): void {
		if (this.running === 'starting') return;
		this.running = 'stopped';
		this.waiting = null;
		worker.become('activating');
		this.container.dispatchEvent(new Event('controllerchange'));
		worker.become('activated');
	}

	/** A request of the page to the active worker; answered once the worker runs. */
	async request(what: string): Promise<void> {
		this.log.push(`request ${what}`);
		if (this.running === 'stopped') this.running = 'starting';
		await tick();
		this.running = 'running';
	}
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The model answers within a few ticks or never: "never" is reported, not waited out. */
async function soon<T>(result: Promise<T>): Promise<T | 'still waiting'> {
	const stuck = (async () => {
		for (let i = 0; i < 50; i++) await tick();
		return 'still waiting' as const;
	})();
	return Promise.race([result, stuck]);
}

function page(browser: FakeBrowser) {
	let reloads = 0;
	const env = {
		container: browser.container,
		wakeController: () => browser.request('wake'),
		nudge: () => browser.nudge(),
		retryMs: 1,
		reload: () => {
			reloads++;
			browser.log.push(`reload (waiting worker ${browser.waiting ? 'still waits' : 'gone'})`);
		},
	};
	return { env, reloads: () => reloads };
}

describe('takeOver', () => {
	it('takes over when the old worker is starting as Reload is pressed, and reloads once', async () => {
		const browser = new FakeBrowser();
		const waiting = browser.addWaiting();
		// The old worker stopped when idle; a request of the page (the decoder's WASM) wakes it.
		browser.running = 'stopped';
		void browser.request('decoder.wasm');
		expect(browser.running).toBe('starting');
		const { env, reloads } = page(browser);
		expect(await soon(takeOver(env))).toBe('reloading');
		expect(waiting.state).toBe('activated');
		expect(reloads()).toBe(1);
		expect(browser.log).toEqual([
			'request decoder.wasm',
			'request wake',
			'skipWaiting while the old worker is running',
			'reload (waiting worker gone)',
		]);
	});

	it('nudges the browser when another request woke the old worker just before the ask', async () => {
		const browser = new FakeBrowser();
		const waiting = browser.addWaiting();
		const { env, reloads } = page(browser);
		let wakes = 0;
		const result = await soon(
			takeOver({
				...env,
				wakeController: async () => {
					await browser.request('wake');
					// The first time, the old worker stops as soon as it answered and the decoder's
					// request wakes it again before the waiting worker asks.
					if (++wakes === 1) {
						browser.running = 'stopped';
						void browser.request('decoder.wasm');
					}
				},
			}),
		);
		expect(result).toBe('reloading');
		expect(waiting.state).toBe('activated');
		expect(reloads()).toBe(1);
		expect(browser.log).toEqual([
			'request wake',
			'request decoder.wasm',
			'skipWaiting while the old worker is starting',
			'request wake',
			"a worker's script requested while the old worker is running",
			'reload (waiting worker gone)',
		]);
	});

	it('asks the waiting worker once, and only after the controlling worker answered', async () => {
		const browser = new FakeBrowser();
		const waiting = browser.addWaiting();
		browser.running = 'stopped';
		let answered = false;
		const { env } = page(browser);
		const result = takeOver({
			...env,
			wakeController: async () => {
				await browser.request('wake');
				expect(waiting.messages).toEqual([]);
				answered = true;
			},
		});
		expect(await result).toBe('reloading');
		expect(answered).toBe(true);
		expect(waiting.messages).toEqual([{ type: 'SKIP_WAITING' }]);
	});

	it('does not reload before the new worker is activating', async () => {
		const browser = new FakeBrowser();
		const waiting = browser.addWaiting();
		// Held back for good: the old worker never gets past starting.
		const { env, reloads } = page(browser);
		browser.running = 'starting';
		const result = takeOver({ ...env, wakeController: async () => {}, retryMs: 0 });
		await tick();
		await tick();
		expect(waiting.state).toBe('installed');
		expect(reloads()).toBe(0);
		// Closing the other windows, say, lets it activate in the end: then the page reloads.
		waiting.become('activating');
		expect(await result).toBe('reloading');
		expect(reloads()).toBe(1);
	});

	it('waits for a worker still installing, then asks it', async () => {
		const browser = new FakeBrowser();
		const worker = new FakeWorker('installing');
		worker.onMessage = () => browser.skipWaiting(worker);
		browser.installing = worker;
		const { env, reloads } = page(browser);
		const result = takeOver(env);
		await tick();
		expect(worker.messages).toEqual([]);
		browser.installing = null;
		browser.waiting = worker;
		worker.become('installed');
		expect(await result).toBe('reloading');
		expect(worker.messages).toEqual([{ type: 'SKIP_WAITING' }]);
		expect(reloads()).toBe(1);
	});

	it('reloads when nothing waits any more (another window switched already)', async () => {
		const browser = new FakeBrowser();
		const { env, reloads } = page(browser);
		expect(await takeOver(env)).toBe('reloading');
		expect(reloads()).toBe(1);
	});

	it('stops without reloading when a newer version replaces the waiting one', async () => {
		const browser = new FakeBrowser();
		const waiting = browser.addWaiting();
		waiting.onMessage = () => {};
		const { env, reloads } = page(browser);
		const result = takeOver(env);
		await tick();
		await tick();
		waiting.become('redundant');
		expect(await result).toBe('superseded');
		expect(reloads()).toBe(0);
	});
});
