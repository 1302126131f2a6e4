// How much this origin stores and whether the browser may evict it. Sizes come from
// navigator.storage.estimate(), which is approximate and lags writes by design (it must not reveal
// exact sizes to sites), so the panel shows it as an estimate and re-reads it after changes.

/** Chromium splits usage by storage kind; other browsers give only the total. */
export interface UsageBreakdown {
	/** Cache Storage: the offline copy of the app. */
	readonly caches?: number;
	readonly indexedDB?: number;
	/** The origin private file system. */
	readonly fileSystem?: number;
	readonly serviceWorkerRegistrations?: number;
}

export type Persistence =
	/** The browser has no StorageManager (very old, or an insecure origin). */
	| 'unsupported'
	/** Best effort, and not asked yet: asked when the first trace is opened, never on load. */
	| 'not-asked'
	/** Asked, not granted: the browser may clear stored data when the disk runs low. */
	| 'denied'
	/** Kept until the user deletes it. */
	| 'persistent';

export class StorageStatus {
	usage = $state<number | null>(null);
	quota = $state<number | null>(null);
	breakdown = $state.raw<UsageBreakdown | null>(null);
	persistence = $state<Persistence>('unsupported');
	/** Re-reads under way (the panel says so: what it shows is about to change). */
	refreshing = $state(0);

	readonly #storage: StorageManager | undefined;
	#asked = false;

	constructor(storage: StorageManager | undefined) {
		this.#storage = storage;
		if (storage?.persisted) this.persistence = 'not-asked';
	}

	/** Re-reads usage, quota and persistence. Never throws: the panel just keeps older numbers. */
	async refresh(): Promise<void> {
		const storage = this.#storage;
		if (!storage) return;
		this.refreshing++;
		try {
			const estimate = await storage.estimate();
			this.usage = estimate.usage ?? null;
			this.quota = estimate.quota ?? null;
			const details = (estimate as { usageDetails?: UsageBreakdown }).usageDetails;
			this.breakdown = details ? { ...details } : null;
			if (storage.persisted && (await storage.persisted())) this.persistence = 'persistent';
		} catch {
			// Storage access can be blocked by policy; the panel then shows "unknown".
		} finally {
			this.refreshing--;
		}
	}

	/**
	 * Asks for persistent storage once per page. Chromium answers without a prompt from its own
	 * signals (installed app, bookmarks, site engagement); Firefox may ask the user, which is why
	 * this runs on a user action and not on load.
	 */
	async requestPersistence(force = false): Promise<void> {
		const storage = this.#storage;
		if (!storage?.persist || this.persistence === 'persistent' || (this.#asked && !force)) return;
		this.#asked = true;
		try {
			this.persistence = (await storage.persist()) ? 'persistent' : 'denied';
		} catch {
			this.persistence = 'denied';
		}
	}
}
