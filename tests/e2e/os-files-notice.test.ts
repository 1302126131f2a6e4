// What the storage panel says of opening .etl files from Explorer, in Chromium, which hands them
// to an installed app (launchQueue). Firefox, which cannot, is in tests/e2e/firefox/.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, type Browser } from './browser.ts';
import { openSite } from './page.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
	browser = await launchBrowser();
});

afterAll(async () => {
	await browser?.close();
});

describe('opening traces from Explorer', () => {
	it('is offered once installed where the browser has a launchQueue', async () => {
		const tab = await openSite(browser, baseUrl);
		const { page } = tab;
		expect(await page.evaluate(() => 'launchQueue' in window)).toBe(true);
		const notice = page.getByTestId('os-files');
		expect(await notice.getAttribute('data-state')).toBe('available');
		expect(await notice.textContent()).toContain('double-clicked in Explorer open in it');
		expect(tab.errors).toEqual([]);
		await page.close();
	});
});
