// When the page may start precaching the app for offline use: a second after it has loaded, at
// an idle moment, with no trace being imported. The precache fetches and stores every asset
// again (about 2.4 MB) on the threads an import needs: a file dropped right after a first visit
// (or handed over by the OS at launch, or the sample opened at once) showed its first rows about
// 80 ms later with the precache running beside it.

/** What the wait needs of the page; the browser's own by default (tests give their own). */
export interface QuietHost {
	/** Settles once the document has loaded. */
	loaded(): Promise<void>;
	/** Settles at an idle moment at least `afterMs` from now, or `timeoutMs` after that at most. */
	idle(afterMs: number, timeoutMs: number): Promise<void>;
}

/** How long the page waits before looking for a quiet moment: a file chosen at once comes first. */
export const QUIET_AFTER_MS = 1000;
/** How long the wait for an idle moment lasts at most. */
export const IDLE_TIMEOUT_MS = 2000;

/** The page's imports, as the wait sees them. */
export interface Imports {
	/** Whether a file is being read or imported now. */
	running(): boolean;
	/** Settles once none is (at once when none is). */
	settled(): Promise<void>;
}

/**
 * Settles once the page has loaded, then been idle with no import running; after an import, it
 * waits for another quiet moment and looks again (a file dropped meanwhile is imported first).
 */
export async function whenQuiet(imports: Imports, host: QuietHost = browserHost()): Promise<void> {
	await host.loaded();
	for (;;) {
		await host.idle(QUIET_AFTER_MS, IDLE_TIMEOUT_MS);
		if (!imports.running()) return;
		await imports.settled();
	}
}

function browserHost(): QuietHost {
	return {
		loaded: () =>
			document.readyState === 'complete'
				? Promise.resolve()
				: new Promise((resolve) => addEventListener('load', () => resolve(), { once: true })),
		idle: (afterMs, timeoutMs) =>
			new Promise((resolve) =>
				setTimeout(() => {
					// Not in every browser (Safari): the timer alone then stands in for it.
					if (typeof requestIdleCallback === 'function')
						requestIdleCallback(() => resolve(), { timeout: timeoutMs });
					else resolve();
				}, afterMs),
			),
	};
}
