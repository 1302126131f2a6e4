// Steps and probes around the service worker and the web app manifest, through the page and
// Chromium's DevTools protocol.
import type { CDPSession, Page, Request, Response } from 'playwright-core';

/**
 * Waits until the page is controlled by an activated service worker. Workbox activates only after
 * precaching every file, so from here on the app works offline.
 */
export async function waitForOfflineReady(page: Page): Promise<void> {
	await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
		timeout: 30_000,
	});
	await page.locator('[data-testid="offline-status"][data-state="ready"]').waitFor();
}

/** A DevTools session for `page`; detach it when done. */
export function devtools(page: Page): Promise<CDPSession> {
	return page.context().newCDPSession(page);
}

/** Chromium's reasons why the page could not be installed as an app; [] when installable. */
export async function installabilityErrors(page: Page): Promise<unknown[]> {
	const session = await devtools(page);
	try {
		const { installabilityErrors } = (await session.send('Page.getInstallabilityErrors')) as {
			installabilityErrors: unknown[];
		};
		return installabilityErrors;
	} finally {
		await session.detach();
	}
}

export interface ParsedManifest {
	/** The manifest URL Chromium found through <link rel="manifest">. */
	readonly url: string;
	/** Parse errors and warnings. */
	readonly errors: unknown[];
	/** The manifest as fetched. */
	readonly data: Record<string, unknown>;
	/** What Chromium made of it, URLs resolved: `id`, `startUrl`, `scope`, … */
	readonly parsed: Record<string, unknown>;
}

export async function appManifest(page: Page): Promise<ParsedManifest> {
	const session = await devtools(page);
	try {
		const reply = (await session.send('Page.getAppManifest')) as {
			url: string;
			errors: unknown[];
			data?: string;
			manifest?: Record<string, unknown>;
		};
		return {
			url: reply.url,
			errors: reply.errors,
			data: JSON.parse(reply.data ?? '{}'),
			parsed: reply.manifest ?? {},
		};
	} finally {
		await session.detach();
	}
}

/** The scope of the service worker registration that controls the page. */
export function serviceWorkerScope(page: Page): Promise<string | undefined> {
	return page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.scope);
}

/**
 * Grants persistent storage the way Chromium does for an installed app (Playwright's
 * grantPermissions does not know this permission). The grant lasts as long as the DevTools session,
 * which is left attached: it ends with the page.
 */
export async function grantPersistentStorage(page: Page, origin: string): Promise<void> {
	const session = await devtools(page);
	await session.send('Browser.grantPermissions', { origin, permissions: ['durableStorage'] });
}

/**
 * What happened to the service workers of `page`'s origin and to its documents, in order, with
 * milliseconds since the start: each version's state and running status (as Chromium reports them
 * through DevTools), controller changes seen by the page, its requests, and its documents with
 * where they came from. For the failure message of a test whose service worker did not do what it
 * should; the DevTools session also lets the test stop a worker.
 */
export async function recordServiceWorkers(
	page: Page,
	origin: string,
): Promise<ServiceWorkerRecord> {
	const start = Date.now();
	const lines: string[] = [];
	const note = (line: string) => lines.push(`${String(Date.now() - start).padStart(6)} ms ${line}`);
	const session = await devtools(page);
	const versions = new Map<string, VersionInfo>();
	const stops = new Map<string, number>();
	session.on('ServiceWorker.workerVersionUpdated', (event: { versions: VersionInfo[] }) => {
		for (const v of event.versions) {
			if (!v.scriptURL.startsWith(origin)) continue;
			if (v.runningStatus === 'stopped' && versions.get(v.versionId)?.runningStatus !== 'stopped') {
				stops.set(v.versionId, (stops.get(v.versionId) ?? 0) + 1);
			}
			versions.set(v.versionId, v);
			note(
				`worker ${v.versionId}: ${v.status}, ${v.runningStatus}, ` +
					`${v.controlledClients?.length ?? 0} client(s)`,
			);
		}
	});
	await session.send('ServiceWorker.enable');
	await page.addInitScript(() => {
		navigator.serviceWorker?.addEventListener('controllerchange', () =>
			console.debug(`sw-record: controllerchange to ${navigator.serviceWorker.controller?.state}`),
		);
	});
	const onConsole = (message: { text(): string }) => {
		if (message.text().startsWith('sw-record: ')) note(message.text().slice(11));
	};
	page.on('console', onConsole);
	const onResponse = (response: Response) => {
		if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) {
			note(
				`document ${response.status()} ${response.fromServiceWorker() ? 'from the service worker' : 'from the network'}`,
			);
		}
	};
	page.on('response', onResponse);
	// A request starts a stopped worker again: what woke it, and when.
	const path = (r: Request) => new URL(r.url()).pathname;
	const onRequest = (r: Request) => note(`request ${r.method()} ${path(r)} (${r.resourceType()})`);
	const onFinished = (r: Request) => note(`finished ${path(r)}`);
	const onFailed = (r: Request) => note(`failed ${path(r)}: ${r.failure()?.errorText}`);
	page.on('request', onRequest);
	page.on('requestfinished', onFinished);
	page.on('requestfailed', onFailed);
	return {
		note,
		lines: () => [...lines],
		versions: () => [...versions.values()],
		stops: (versionId) => stops.get(versionId) ?? 0,
		session,
		async stop() {
			page.off('console', onConsole);
			page.off('response', onResponse);
			page.off('request', onRequest);
			page.off('requestfinished', onFinished);
			page.off('requestfailed', onFailed);
			await session.detach().catch(() => undefined);
		},
	};
}

export interface ServiceWorkerRecord {
	/** Adds a line of the test's own (what it did, what it saw). */
	note(line: string): void;
	lines(): string[];
	/** The latest state of each version of the origin's service workers. */
	versions(): VersionInfo[];
	/** How many times the version's worker was seen to stop (it may have started again since). */
	stops(versionId: string): number;
	readonly session: CDPSession;
	stop(): Promise<void>;
}

/** The states of the page's registration's workers and of its controller, as the page sees them. */
export function registrationState(page: Page): Promise<Record<string, string | null>> {
	return page.evaluate(async () => {
		const r = await navigator.serviceWorker.getRegistration();
		return {
			active: r?.active?.state ?? null,
			waiting: r?.waiting?.state ?? null,
			installing: r?.installing?.state ?? null,
			controller: navigator.serviceWorker.controller?.state ?? null,
		};
	});
}

export interface VersionInfo {
	readonly versionId: string;
	readonly scriptURL: string;
	readonly runningStatus: string;
	readonly status: string;
	readonly controlledClients?: readonly string[];
}
