// Debian's Firefox ESR driven through WebDriver BiDi by puppeteer-core (which never downloads a
// browser of its own): a fresh profile per launch, downloads saved to a folder of its own, and an
// error collector like the Chromium one (tests/e2e/browser.ts).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

export const firefoxPath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export interface Firefox {
	readonly browser: Browser;
	/** Where the browser saves downloads, without asking. */
	readonly downloads: string;
	close(): Promise<void>;
}

export async function launchFirefox(): Promise<Firefox> {
	if (!existsSync(firefoxPath)) {
		throw new Error(
			`Firefox not found at ${firefoxPath}: install it with ` +
				'`apt-get update && apt-get install -y firefox-esr`, or set FIREFOX_PATH',
		);
	}
	const profile = mkdtempSync(join(tmpdir(), 'sockscope-firefox-'));
	const downloads = mkdtempSync(join(tmpdir(), 'sockscope-firefox-downloads-'));
	const remove = () => {
		for (const dir of [profile, downloads])
			rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
	};
	// Removed even when the run is stopped before close().
	process.once('exit', remove);
	const browser = await puppeteer.launch({
		browser: 'firefox',
		protocol: 'webDriverBiDi',
		executablePath: firefoxPath,
		headless: true,
		userDataDir: profile,
		// A slow machine under load: the protocol's default of 180 s stays, launching may take long.
		timeout: 60_000,
		extraPrefsFirefox: {
			'intl.accept_languages': 'en-US, en',
			'browser.download.dir': downloads,
			'browser.download.folderList': 2,
			'browser.download.useDownloadDir': true,
			'browser.download.always_ask_before_handling_new_types': false,
			'browser.download.start_downloads_in_tmp_dir': false,
			// The app asks for persistent storage on the first import; Firefox would show a prompt
			// nobody answers. Declined, as headless Chromium does.
			'dom.storageManager.prompt.testing': true,
			'dom.storageManager.prompt.testing.allow': false,
		},
	});
	return {
		browser,
		downloads,
		async close() {
			await browser.close();
			remove();
			process.off('exit', remove);
		},
	};
}

/**
 * Records uncaught exceptions and console errors of a page, and requests that leave its origin.
 * Attach before navigating.
 */
export function collectErrors(page: Page, origin: string): string[] {
	const errors: string[] = [];
	page.on('pageerror', (error) => errors.push(`pageerror: ${String(error)}`));
	page.on('console', (message) => {
		if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
	});
	page.on('request', (request) => {
		const target = new URL(request.url());
		if (target.protocol.startsWith('http') && target.origin !== origin)
			errors.push(`request to another origin: ${request.url()}`);
	});
	return errors;
}
