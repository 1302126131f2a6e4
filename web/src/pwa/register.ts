// Registers the service worker that vite-plugin-pwa generates (precache of the whole app, see
// vite.config.ts) and routes its events into PwaState.
import { registerSW } from 'virtual:pwa-register';
import type { PwaState } from './pwa-state.svelte.ts';

/** How often an open page asks the server for a new version (one small same-origin request). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

export function registerServiceWorker(state: PwaState, onCached: () => void): void {
	if (import.meta.env.DEV) return state.markDevelopment();
	if (!('serviceWorker' in navigator)) return;
	const activate = registerSW({
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
		// Reload once the new version controls this page. workbox-window reloads on its own
		// 'controlling' event too, but that one can be missed (seen under load, after "Later" and a
		// reload): the browser's controllerchange is the fact to wait for.
		navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
			once: true,
		});
		await activate(true);
		// workbox-window's message goes to the worker it last saw waiting, and was seen to reach
		// none (one run in a few): tell the registration's waiting worker directly as well.
		// Twice is harmless: the worker only calls skipWaiting().
		const registration = await navigator.serviceWorker.getRegistration();
		const waiting = registration?.waiting ?? (await installed(registration?.installing ?? null));
		if (!waiting) return;
		// The worker itself says when it has taken over, even where this page's controller does
		// not change (a claim that reaches the page late): a reload then loads the new version.
		waiting.addEventListener('statechange', () => {
			if (waiting.state === 'activated') window.location.reload();
		});
		waiting.postMessage({ type: 'SKIP_WAITING' });
	});
}

/** The worker once it has installed (it then waits), or null when it does not get there. */
function installed(worker: ServiceWorker | null): Promise<ServiceWorker | null> {
	if (!worker) return Promise.resolve(null);
	return new Promise((resolve) => {
		worker.addEventListener('statechange', () => {
			if (worker.state === 'installed') resolve(worker);
			else if (worker.state === 'redundant') resolve(null);
		});
	});
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
