// Debian's Chromium driven by playwright-core (which never downloads a browser of its own), plus an
// error collector so every test can assert the page logged no errors.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Browser {
	readonly context: BrowserContext;
	/** Its profile directory (the --user-data-dir its process is started with). */
	readonly profile: string;
	close(): Promise<void>;
}

export interface BrowserOptions {
	readonly colorScheme?: 'light' | 'dark';
	readonly viewport?: { width: number; height: number };
	/**
	 * Sends every request except those to 127.0.0.1 through this HTTP proxy (`http://host:port`).
	 * The privacy tests point it at a recorder, so a request to any other host is seen however it
	 * was made (page, worker, service worker, or the browser itself).
	 */
	readonly proxy?: string;
	/** The browser's language (navigator.languages); en-US unless told. */
	readonly locale?: string;
	/**
	 * Lets Playwright add a script tag of its own (axe-core) despite the page's CSP. Only the
	 * accessibility test sets it; every other test runs under the CSP as served.
	 */
	readonly bypassCSP?: boolean;
}

/** Profiles of browsers not closed yet: removed if the run is stopped (Ctrl-C) before. */
const profiles = new Set<string>();
let cleanupHooked = false;

function removeProfilesAtExit(): void {
	if (cleanupHooked) return;
	cleanupHooked = true;
	// A benchmark's profile holds a copy of a gigabyte trace: one left per interrupted run adds
	// up. Playwright kills the browsers it launched on SIGINT and SIGTERM, then exits.
	process.once('exit', () => {
		for (const p of profiles) rmSync(p, { recursive: true, force: true, maxRetries: 5 });
	});
}

/** A fresh persistent profile per launch; `close()` also deletes it. */
export async function launchBrowser(options: BrowserOptions = {}): Promise<Browser> {
	if (!existsSync(chromiumPath)) {
		throw new Error(
			`Chromium not found at ${chromiumPath}: install it with ` +
				'`apt-get update && apt-get install -y chromium`, or set CHROMIUM_PATH',
		);
	}
	const profile = mkdtempSync(join(tmpdir(), 'sockscope-e2e-'));
	profiles.add(profile);
	removeProfilesAtExit();
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: chromiumPath,
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--no-first-run',
			'--disable-quic',
		],
		// Listing 127.0.0.1 keeps Playwright from also routing loopback through the proxy.
		proxy: options.proxy ? { server: options.proxy, bypass: '127.0.0.1' } : undefined,
		colorScheme: options.colorScheme ?? 'light',
		viewport: options.viewport ?? { width: 1280, height: 900 },
		locale: options.locale ?? 'en-US',
		bypassCSP: options.bypassCSP ?? false,
		timezoneId: 'UTC',
	});
	return {
		context,
		profile,
		async close() {
			await context.close();
			rmSync(profile, { recursive: true, force: true });
			profiles.delete(profile);
		},
	};
}

/**
 * Records uncaught exceptions and console errors of a page and of its workers (their console
 * messages reach the context with `page()` set). Attach before navigating.
 */
export function collectErrors(page: Page): string[] {
	const errors: string[] = [];
	page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
	page.context().on('console', (message) => {
		if (message.type() === 'error' && message.page() === page) {
			const where = message.worker() ? ` (worker ${message.worker()?.url()})` : '';
			errors.push(`console.error${where}: ${message.text()}`);
		}
	});
	page.on('crash', () => errors.push('the page crashed'));
	return errors;
}
