// Steps and probes around the service worker and the web app manifest, through the page and
// Chromium's DevTools protocol.
import type { CDPSession, Page } from 'playwright-core';

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
