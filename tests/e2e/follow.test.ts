// Follow socket on the bundled sample: a selected socket's events as a sequence, one step per
// event the ground truth counts for it, its connect pointing at the peer, and a step leading to
// its event in the Events panel.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hashParams, openSampleTrace, screenshot } from './analyst-page.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { openSite, type OpenedPage } from './page.ts';
import { buildSample, type SampleTruth } from '../builders/sample.ts';

const baseUrl = inject('baseUrl');
const { truth } = buildSample() as { truth: SampleTruth };

let browser: Browser;
let tab: OpenedPage;
let page: Page;

beforeAll(async () => {
	browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
	tab = await openSite(browser, baseUrl);
	page = tab.page;
	expect(await openSampleTrace(page)).toBe(truth.totalRecords);
});

afterAll(async () => {
	expect(tab?.errors ?? []).toEqual([]);
	await browser?.close();
});

describe('Follow socket', () => {
	it("draws a socket's events as a sequence and leads to each", async () => {
		const refused = truth.sockets.find((s) => s.error === 'STATUS_CONNECTION_REFUSED')!;
		await page.getByRole('tab', { name: 'Sockets' }).click();
		await page
			.getByTestId('socket-table')
			.locator('tbody tr')
			.filter({ hasText: refused.endpoint })
			.click();
		const follow = page.getByTestId('follow-socket');
		const steps = follow.locator('tbody tr');
		await expect.poll(() => steps.count()).toBe(refused.events);
		// Its connect goes towards the peer; the refusal is on the connect's exit.
		const connect = steps.filter({ hasText: 'AfdConnect' });
		expect(await connect.first().getAttribute('data-side')).toBe('out');
		expect(await follow.textContent()).toContain('STATUS_CONNECTION_REFUSED');
		await screenshot(page, 'follow-socket');

		await connect.first().click();
		await page.getByRole('tab', { name: 'Events', selected: true }).waitFor();
		await expect.poll(async () => (await hashParams(page)).get('sel')).not.toBeNull();
		const details = page.getByTestId('details');
		await details.waitFor();
		expect(await details.textContent()).toContain('AfdConnect');
	});
});
