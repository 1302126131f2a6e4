// The DNS panel on the bundled sample: one row per name its lookups asked, with the count the
// sample's script wrote, every lookup listed, and a lookup leading to its event in Events.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SAMPLE_LOOKUPS } from '../builders/sample-net.ts';
import { hashParams, openSampleTrace, screenshot } from './analyst-page.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { openSite, type OpenedPage } from './page.ts';

const baseUrl = inject('baseUrl');

let browser: Browser;
let tab: OpenedPage;
let page: Page;

beforeAll(async () => {
	browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
	tab = await openSite(browser, baseUrl);
	page = tab.page;
});

afterAll(async () => {
	expect(tab?.errors ?? []).toEqual([]);
	await browser?.close();
});

describe('the DNS panel', () => {
	it('lists each name with its lookups, and leads from a lookup to its event', async () => {
		await openSampleTrace(page);
		await page.getByRole('tab', { name: 'DNS' }).click();
		const names = page.getByTestId('dns-names');
		await names.waitFor();
		const want = new Map<string, number>();
		for (const l of SAMPLE_LOOKUPS) want.set(l.name, (want.get(l.name) ?? 0) + 1);
		await expect.poll(async () => await names.locator('tbody tr').count()).toBe(want.size);
		for (const [name, count] of want) {
			const row = names.locator('tbody tr').filter({ hasText: name });
			expect(await row.locator('td').nth(1).textContent(), name).toBe(String(count));
		}
		const lookups = page.getByTestId('dns-lookups');
		expect(await lookups.locator('tbody tr').count()).toBe(SAMPLE_LOOKUPS.length);
		// The asking process, not the name asked.
		const asked = await lookups.locator('tbody tr td:nth-child(2)').allTextContents();
		expect(asked.filter((p) => SAMPLE_LOOKUPS.some((l) => p.includes(l.name)))).toEqual([]);
		await screenshot(page, 'dns');

		// Picking a name narrows the lookups to it.
		await names.getByRole('button', { name: 'www.reddit.com' }).click();
		await expect.poll(() => lookups.locator('tbody tr').count()).toBe(want.get('www.reddit.com'));

		await lookups.locator('tbody tr').first().click();
		await page.getByRole('tab', { name: 'Events', selected: true }).waitFor();
		await expect.poll(async () => (await hashParams(page)).get('sel')).not.toBeNull();
		const details = page.getByTestId('details');
		await details.waitFor();
		expect(await details.textContent()).toContain('www.reddit.com');
	});
});
