// Hostile and damaged traces imported in real Chromium: each import ends with the trace listed
// (as damaged, with the decoder's messages, when it found damage), its good records browsable
// and the page still answering. Expected counts and messages come from the Node decoder.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { statsOf } from '../decoder/load.ts';
import { HOSTILE_CASES } from '../fixtures/hostile/cases.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { openSite, pickBytes } from './page.ts';

let browser: Browser;
beforeAll(async () => {
	browser = await launchBrowser();
}, 60_000);
afterAll(async () => browser?.close());

async function totalShown(page: Page): Promise<number> {
	await page
		.getByTestId('filter-status')
		.filter({ hasNotText: 'importing' })
		.filter({ hasText: 'events' })
		.waitFor({ timeout: 60_000 });
	return Number((await page.getByTestId('total-count').textContent())!.replace(/,/g, ''));
}

const CASES = [
	'xpress-bomb',
	'record-flood',
	'tl-nested-arrays',
	'bad-offset',
	'duplicated-buffer',
	'missing-buffer',
	'header-fields-changed',
	'perffreq-changed',
];

describe('hostile traces in the browser', () => {
	for (const name of CASES) {
		it(`${name}: imported to the end, listed with its damage, its records browsable`, async () => {
			const bytes = HOSTILE_CASES.find((c) => c.name === name)!.bytes();
			const expected = await statsOf(bytes);
			const { page, errors } = await openSite(browser, inject('baseUrl'));
			await pickBytes(page, `${name}.etl`, bytes);
			expect(await totalShown(page)).toBe(expected.records);
			// The page answers a query over what was kept.
			await page.locator('#filter-input').fill('pid:4000');
			await page.locator('#filter-input').press('Enter');
			await page.locator('[data-testid="filter-status"][data-filter="pid:4000"]').waitFor();
			await page.getByRole('button', { name: '← All traces' }).click();
			const row = page
				.locator('li[data-trace-id]')
				.filter({ hasText: `${name}.etl` })
				.first();
			await row.waitFor();
			// The damage as the CLI's stats reports it: the import decides it in the same place
			// (buffer, record-level, index and time findings).
			const messages = expected.damage.map((d) => d.message);
			if (messages.length === 0) {
				expect(await row.getAttribute('data-status')).toBe('complete');
				expect(await row.getByTestId('trace-damage').count()).toBe(0);
			} else {
				expect(await row.getAttribute('data-status')).toBe('damaged');
				const shown = await row.getByTestId('trace-damage').locator('li').allTextContents();
				expect(shown.slice(0, 5)).toEqual(messages.slice(0, 5));
			}
			expect(errors).toEqual([]);
			await page.close();
		});
	}
});
