// The page's interaction in real Chromium on the sample: a filter that fails keeps the last good
// answer, the keys reach menus, tabs and the timeline, a file imported twice is offered back,
// findings name who they are about.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { SETTLE_MS } from '../../web/src/views/filter/filter-box.svelte.ts';
import { PANELS } from '../../web/src/state/view-hash.ts';
import { buildSample, type SampleTruth } from '../builders/sample.ts';
import { answerFor, applyFilter, hashParams, openSampleTrace, screenshot } from './analyst-page.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { openSite, pickFile, type OpenedPage } from './page.ts';
import { join } from 'node:path';
import { projectRoot } from './server.ts';

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

afterEach(async ({ task }) => {
	if (task.result?.state === 'fail')
		await screenshot(page, `failed-interaction-${task.name.replace(/\W+/g, '-').slice(0, 60)}`);
});

afterAll(async () => {
	expect(tab?.errors ?? []).toEqual([]);
	await browser?.close();
});

const box = () => page.locator('#filter-input');
const problem = () => page.getByTestId('filter-error');

describe('a filter that fails', () => {
	it('is not marked while a term is still being typed, only after a pause or Enter', async () => {
		await box().click();
		await box().pressSequentially('process:');
		expect(await box().getAttribute('aria-invalid')).toBeNull();
		expect((await problem().textContent())?.trim()).toBe('');
		// Typing goes on: still nothing.
		await box().pressSequentially('svc');
		expect(await box().getAttribute('aria-invalid')).toBeNull();
		await box().fill('process:');
		await box().dispatchEvent('input');
		await expect
			.poll(() => box().getAttribute('aria-invalid'), { timeout: SETTLE_MS * 5 })
			.toBe('true');
		expect(await problem().textContent()).toContain('needs a value');
	});

	it('keeps the last good answer on screen, with the error beside the box', async () => {
		const good = await applyFilter(page, 'process:svchost.exe');
		expect(good).toBeGreaterThan(0);
		expect(good).toBeLessThan(truth.totalRecords);
		for (const bad of ['foo:bar', 'rport:abc', 'process:']) {
			await box().fill(bad);
			await box().press('Enter');
			await expect.poll(() => box().getAttribute('aria-invalid')).toBe('true');
			expect((await problem().textContent())?.length).toBeGreaterThan(0);
			// The count and rows are the good filter's, and the page says so.
			expect((await answerFor(page, 'process:svchost.exe')).matched).toBe(good);
			expect(await page.getByTestId('kept-answer').textContent()).toContain('process:svchost.exe');
			expect(await page.locator('[data-testid="event-scroller"] .row').count()).toBeGreaterThan(0);
			expect(await page.getByText('No events match').count()).toBe(0);
		}
		await applyFilter(page, '');
		expect(await page.getByTestId('kept-answer').count()).toBe(0);
	});

	it('opened from a link, shows the whole trace rather than nothing', async () => {
		const hash = await hashParams(page);
		hash.set('q', 'foo:bar');
		const other = await openSite(browser, `${baseUrl}#${hash.toString()}`);
		try {
			const status = other.page.getByTestId('kept-answer');
			await status.waitFor({ timeout: 30_000 });
			expect(await status.textContent()).toContain('every event');
			expect((await answerFor(other.page, '')).matched).toBe(truth.totalRecords);
			expect(await other.page.locator('#filter-input').inputValue()).toBe('foo:bar');
			expect(other.errors).toEqual([]);
		} finally {
			await other.page.close();
		}
	});
});

describe('keys', () => {
	it('Esc closes the Columns menu, and leaves the filter and the next click alone', async () => {
		await applyFilter(page, 'process:svchost.exe');
		const button = page.getByRole('button', { name: /^Columns/ });
		await button.click();
		const list = page.locator('#column-list');
		await list.waitFor();
		await page.keyboard.press('Escape');
		await list.waitFor({ state: 'detached' });
		expect(await button.getAttribute('aria-expanded')).toBe('false');
		expect(await box().inputValue()).toBe('process:svchost.exe');
		// Open again, then a click on a row closes the list and selects the row.
		await button.click();
		await list.waitFor();
		await list.getByRole('checkbox').first().focus();
		await page.keyboard.press('Escape');
		await list.waitFor({ state: 'detached' });
		expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Columns');
		await button.click();
		await list.waitFor();
		const row = page.locator('[data-testid="event-scroller"] .row[data-position="2"]');
		await row.click();
		await list.waitFor({ state: 'detached' });
		await expect.poll(() => row.getAttribute('aria-selected')).toBe('true');
		await page.keyboard.press('Escape');
		await applyFilter(page, '');
	});

	it('Esc closes the Colours panel and the Export menu wherever the focus is, and a click elsewhere does too', async () => {
		await applyFilter(page, 'process:svchost.exe');
		const colours = page.getByTestId('colour-rules');
		const panel = page.getByRole('dialog', { name: 'Colouring rules' });
		const blur = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
		// Focus on the button that opened it, then on nothing.
		for (const focus of [() => colours.focus(), blur]) {
			await colours.click();
			await panel.waitFor();
			await focus();
			await page.keyboard.press('Escape');
			await panel.waitFor({ state: 'detached' });
			expect(await colours.getAttribute('aria-expanded')).toBe('false');
			expect(await box().inputValue()).toBe('process:svchost.exe');
		}
		// A name being typed is kept when a click elsewhere closes the panel; the click still selects.
		await colours.click();
		const name = panel.getByRole('textbox', { name: 'Name' }).first();
		const before = await name.inputValue();
		await name.fill(`${before} (edited)`);
		const row = page.locator('[data-testid="event-scroller"] .row[data-position="1"]');
		await row.click();
		await panel.waitFor({ state: 'detached' });
		await expect.poll(() => row.getAttribute('aria-selected')).toBe('true');
		await colours.click();
		expect(await name.inputValue()).toBe(`${before} (edited)`);
		await name.fill(before);
		await page.keyboard.press('Escape');
		await panel.waitFor({ state: 'detached' });
		expect(await name.count()).toBe(0);

		const exportButton = page.getByRole('button', { name: /^Export/ });
		const menu = page.getByRole('menu', { name: 'Export and copy' });
		for (const focus of [() => exportButton.focus(), blur]) {
			await exportButton.click();
			await menu.waitFor();
			await focus();
			await page.keyboard.press('Escape');
			await menu.waitFor({ state: 'detached' });
			expect(await box().inputValue()).toBe('process:svchost.exe');
		}
		await page.keyboard.press('Escape');
		await applyFilter(page, '');
	});

	it('number keys 1..N pick every tab, in order', async () => {
		await page.locator('body').click({ position: { x: 5, y: 5 } });
		for (const [k, panel] of [...PANELS.entries()].reverse()) {
			await page.keyboard.press(String(k + 1));
			await expect.poll(async () => (await hashParams(page)).get('panel') ?? 'events').toBe(panel);
			expect(await page.locator(`#tab-${panel}`).getAttribute('aria-selected')).toBe('true');
		}
	});

	it('Tab never stops on the hidden file input, and every stop has a name', async () => {
		await page.locator('body').click({ position: { x: 5, y: 5 } });
		const stops: { tag: string; type: string | null; name: string }[] = [];
		for (let k = 0; k < 40; k++) {
			await page.keyboard.press('Tab');
			stops.push(
				await page.evaluate(() => {
					const e = document.activeElement as HTMLElement;
					const labelled = e.getAttribute('aria-labelledby');
					const name =
						e.getAttribute('aria-label') ??
						(labelled ? document.getElementById(labelled)?.textContent : null) ??
						(e instanceof HTMLInputElement
							? (e.labels?.[0]?.textContent ?? e.placeholder)
							: null) ??
						e.textContent ??
						'';
					return { tag: e.tagName, type: e.getAttribute('type'), name: name.trim() };
				}),
			);
		}
		expect(stops.filter((s) => s.type === 'file')).toEqual([]);
		expect(stops.filter((s) => s.tag !== 'BODY' && s.name === '')).toEqual([]);
		// The Open… button is a stop of its own.
		expect(stops.some((s) => s.name === 'Open…')).toBe(true);
	});
});

describe('the same file twice', () => {
	const samplePath = join(projectRoot, 'public', 'sample.etl');
	const listed = () => page.locator('li[data-trace-id]').filter({ hasText: 'sample.etl' });

	async function countListed(): Promise<number> {
		await page.getByRole('button', { name: '← All traces' }).click();
		await page.getByTestId('open-trace').first().waitFor();
		const n = await listed().count();
		await page.getByTestId('open-trace').first().click();
		await answerFor(page, '');
		return n;
	}

	it('offers the trace kept rather than a second copy, or imports it again', async () => {
		const before = await countListed();
		expect(before).toBe(1);
		const shown = await page.locator('section.trace').getAttribute('aria-label');
		await pickFile(page, samplePath);
		const prompt = page.getByTestId('duplicate-prompt');
		await prompt.waitFor();
		expect(await prompt.textContent()).toContain('sample.etl is in your traces already');
		await prompt.getByRole('button', { name: 'Open it' }).click();
		await prompt.waitFor({ state: 'detached' });
		expect((await answerFor(page, '')).total).toBe(truth.totalRecords);
		expect(await page.locator('section.trace').getAttribute('aria-label')).toBe(shown);
		expect(await countListed()).toBe(1);

		// Cancel leaves everything as it was; Import again makes a second entry.
		await pickFile(page, samplePath);
		await prompt.getByRole('button', { name: 'Cancel' }).click();
		await prompt.waitFor({ state: 'detached' });
		expect(await countListed()).toBe(1);
		await pickFile(page, samplePath);
		await prompt.getByRole('button', { name: 'Import again' }).click();
		await page
			.getByTestId('filter-status')
			.filter({ hasNotText: 'importing' })
			.getByTestId('total-count')
			.filter({ hasText: truth.totalRecords.toLocaleString('en-US') })
			.waitFor({ timeout: 60_000 });
		await page.getByRole('button', { name: '← All traces' }).click();
		await expect.poll(() => listed().count()).toBe(2);
		await page.getByTestId('open-trace').first().click();
		await answerFor(page, '');
	});
});
