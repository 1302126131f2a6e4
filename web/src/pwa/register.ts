// Registers the service worker that vite-plugin-pwa generates (precache of the whole app, see
// vite.config.ts) and routes its events into PwaState.
import { registerSW } from 'virtual:pwa-register';
import type { PwaState } from './pwa-state.svelte.ts';
import { takeOver } from './take-over.ts';

/** How often an open page asks the server for a new version (one small same-origin request). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/** How long "Reload" waits for the controlling worker to answer before going on without it. */
const WAKE_TIMEOUT_MS = 10_000;

/**
 * How long "Reload" waits for the new version before nudging the browser again (take-over.ts).
 * Taking over takes about a second when it goes ahead, a few on a busy machine.
 */
const RETRY_MS = 5_000;

export function registerServiceWorker(state: PwaState, onCached: () => void): void {
	if (import.meta.env.DEV) return state.markDevelopment();
	if (!('serviceWorker' in navigator)) return;
	registerSW({
		immediate: true,
		onNeedRefresh: () => state.offerUpdate(),
		onOfflineReady: () => {
			state.markCached();
			onCached();
		},
		onRegisteredSW: (_url, registration) => {
			if (!registration) return;
			if (registration.active) state.markAlreadyCached();
			checkForUpdates(registration);
		},
		onRegisterError: (error: unknown) => {
			// The app still works online; a warning, not an error, because nothing is broken.
			console.warn('Sockscope: offline use is unavailable, the service worker failed:', error);
			state.markFailed();
		},
	});
	state.connect(async () => {
		const result = await takeOver({
			container: navigator.serviceWorker,
			wakeController,
			nudge,
			reload: () => window.location.reload(),
			retryMs: RETRY_MS,
		});
		return result === 'reloading';
	});
}

/**
 * Asks the controlling worker for a file it answers from its precache (includeAssets in
 * vite.config.ts), so that it is running, or done and idle, when the waiting worker asks to take
 * over (take-over.ts says why). Bounded: a worker that does not answer does not hold up the update.
 */
async function wakeController(): Promise<void> {
	const answered = fetch('./favicon.svg', { cache: 'no-store' })
		.then((response) => response.body?.cancel())
		.catch(() => {
			// Offline and not cached, say: the request still went to the worker.
		});
	await Promise.race([answered, new Promise((resolve) => setTimeout(resolve, WAKE_TIMEOUT_MS))]);
}

/** A worker that loads and is ended: its script request makes Chromium look at the registration. */
function nudge(): void {
	const worker = new Worker(new URL('./nudge.worker.ts', import.meta.url), { type: 'module' });
	const end = () => worker.terminate();
	worker.onmessage = end;
	worker.onerror = end;
	setTimeout(end, WAKE_TIMEOUT_MS);
}

/**
 * The browser checks for a new version on every load; people who keep the tab open for days get
 * the hourly check. Skipped offline, where it could only fail.
 */
function checkForUpdates(registration: ServiceWorkerRegistration): void {
	setInterval(() => {
		if (!navigator.onLine || registration.installing) return;
		registration.update().catch(() => {
			// The server is unreachable right now; the next check tries again.
		});
	}, UPDATE_CHECK_MS);
}
