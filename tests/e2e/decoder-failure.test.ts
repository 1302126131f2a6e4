// A decoder worker that cannot start (its script throws) is said to have stopped, naming the file
// being read, never left to hang the import: the page starts its worker before the rest of it
// loads, so it may fail before the page first uses it.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, type Browser } from './browser.ts';
import { openSite, pickFile, readAlert, waitForOutcome } from './page.ts';
import { fixturesDir } from './sources.ts';

const baseUrl = inject('baseUrl');
const NAME = 'krabsetw-powershell-manifest.etl';

let browser: Browser;

beforeAll(async () => {
	browser = await launchBrowser();
});

afterAll(async () => {
	await browser?.close();
});

describe('a decoder worker that cannot start', () => {
	it('stops the import with an alert naming the file', async () => {
		const { page } = await openSite(browser, baseUrl, (p) =>
			p.context().route(/decoder\.worker-[^/]*\.js$/, (route) =>
				route.fulfill({
					contentType: 'text/javascript',
					body: "throw new Error('the decoder could not start');",
				}),
			),
		);
		// The first worker has failed by now, before any file.
		await page.waitForTimeout(500);
		await pickFile(page, join(fixturesDir, NAME));
		expect(await waitForOutcome(page, NAME)).toBe('error');
		expect(await readAlert(page)).toContain('the decoder stopped unexpectedly');
	});
});
