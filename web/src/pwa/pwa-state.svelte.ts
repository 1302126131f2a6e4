// What the service worker means for the person at the keyboard: can the app run offline yet, and
// is a new version waiting. Updates install in the background but wait (no skipWaiting) until the
// user picks "Reload", so the app never changes in the middle of an analysis.

export type OfflineState =
	/** No service worker: an insecure origin (http other than localhost), or a browser without. */
	| 'unsupported'
	/** Registered, still downloading the files for offline use. */
	| 'preparing'
	/** Every file the app needs is cached; it starts and works without a network. */
	| 'ready'
	/** Registration failed (see the console); the app works online only. */
	| 'failed'
	/** `npm run dev`: the dev server serves source modules, so there is nothing to cache. */
	| 'development';

export class PwaState {
	offline = $state<OfflineState>('unsupported');
	/** A new version is installed and waits for the user to reload. */
	updateAvailable = $state(false);
	/** "Reload" was pressed: the page reloads as soon as the new version has taken over. */
	applying = $state(false);
	/** Set once per page when the first visit finished caching, for a short notice. */
	justCached = $state(false);

	#activate: (() => Promise<boolean>) | null = null;

	constructor(serviceWorker: ServiceWorkerContainer | undefined) {
		if (!serviceWorker) return;
		// A page loaded from the cache is controlled from the start; a first visit is not.
		this.offline = serviceWorker.controller ? 'ready' : 'preparing';
	}

	/**
	 * Called by the registration with the function that lets the waiting version take over and
	 * reloads the page into it: true when the page reloads, false when a newer version replaced
	 * the waiting one on the way (it is offered in turn).
	 */
	connect(activate: () => Promise<boolean>): void {
		this.#activate = activate;
	}

	offerUpdate(): void {
		this.updateAvailable = true;
	}

	/** The first visit has finished caching: ready, with a short notice. */
	markCached(): void {
		if (this.offline !== 'ready') this.justCached = true;
		this.offline = 'ready';
	}

	/** An earlier visit cached the app (the page itself may have bypassed it: Shift+Reload). */
	markAlreadyCached(): void {
		this.offline = 'ready';
	}

	dismissCachedNotice(): void {
		this.justCached = false;
	}

	markFailed(): void {
		this.offline = 'failed';
	}

	markDevelopment(): void {
		this.offline = 'development';
	}

	/** Lets the waiting version take over; the registration then reloads the page. */
	async applyUpdate(): Promise<void> {
		if (!this.#activate || this.applying) return;
		this.applying = true;
		if (!(await this.#activate())) this.applying = false;
	}

	/** "Later": hides the prompt for this page; the next load offers it again. */
	postponeUpdate(): void {
		this.updateAvailable = false;
	}
}
