// The Statistics panel on a trace that logs like Windows (one event name under several event
// types, as every modern AFD call's enter and exit are): it used to show "Counting…" for ever,
// the page logging Svelte's each_key_duplicate. It must draw its tables, each event name once,
// with no error in the console.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { statsOf } from '../decoder/load.ts';
import { waitForImport } from './analyst-page.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { openSite, pickFile, type OpenedPage } from './page.ts';
import { readFileSync } from 'node:fs';

const baseUrl = inject('baseUrl');
const NAME = 'statistics-each-key-duplicate.etl';
const PATH = join(import.meta.dirname, '../fixtures/windows-like', NAME);

let browser: Browser;
let tab: OpenedPage;
let page: Page;

beforeAll(async () => {
	browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
	tab = await openSite(browser, baseUrl);
	page = tab.page;
});

afterAll(async () => {
	await browser?.close();
});

describe('Statistics on a Windows-like trace', () => {
	it('draws every table, each event name once, with no error', async () => {
		const { records } = await statsOf(new Uint8Array(readFileSync(PATH)));
		await pickFile(page, PATH);
		await waitForImport(page, NAME, records);
		await page.getByRole('tab', { name: 'Statistics' }).click();
		const events = page.getByTestId('stats-events');
		await events.waitFor();
		for (const table of ['stats-errors', 'stats-processes', 'stats-remotes'])
			await page.getByTestId(table).waitFor();
		expect(await page.getByTestId('panel-failed').count()).toBe(0);
		expect(await page.getByTestId('stats').textContent()).not.toContain('Counting');

		const names = await events.locator('tbody tr td:first-child').allTextContents();
		expect(names.length).toBeGreaterThan(10);
		expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
		// The AFD calls logged as enter and exit are one row each, counting both halves.
		expect(names).toContain('AfdBindWithAddress');
		expect(tab.errors).toEqual([]);
	});
});
