// The page as a workbench, in real Chromium at two common window sizes: the events table keeps
// every column of the default set whole with the details pane open, the socket list fits the
// window, and with a trace open the table gets the height of the window.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildSample, type SampleTruth } from '../builders/sample.ts';
import { answerFor, applyFilter, openSampleTrace, screenshot } from './analyst-page.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { cutCellsIn, DEFAULT_EVENT_CELLS } from './layout-cells.ts';
import { openSite, type OpenedPage } from './page.ts';

const baseUrl = inject('baseUrl');
const { truth } = buildSample() as { truth: SampleTruth };

/** Cells that are cut (text wider than the cell) or reach outside `box` or the window. */
const cutCells = (page: Page, cells: string, box: string): Promise<string[]> =>
	page.evaluate(cutCellsIn, { cells, box });

const defaultCells = DEFAULT_EVENT_CELLS.cells;

for (const viewport of [
	{ width: 1440, height: 900 },
	{ width: 1280, height: 720 },
]) {
	const size = `${viewport.width}×${viewport.height}`;
	describe(`at ${size}`, () => {
		let browser: Browser;
		let tab: OpenedPage;
		let page: Page;

		beforeAll(async () => {
			browser = await launchBrowser({ viewport });
			tab = await openSite(browser, baseUrl);
			page = tab.page;
			expect(await openSampleTrace(page)).toBe(truth.totalRecords);
		});

		afterEach(async ({ task }) => {
			if (task.result?.state === 'fail')
				await screenshot(
					page,
					`failed-workbench-${viewport.width}-${task.name.replace(/\W+/g, '-').slice(0, 50)}`,
				);
		});

		afterAll(async () => {
			expect(tab?.errors ?? []).toEqual([]);
			await browser?.close();
		});

		it('shows a trace with the table down to the bottom of the window', async () => {
			// Where other traces come from is one button in the header.
			const zone = page.getByTestId('drop-zone');
			const header = (await page.locator('header.masthead').boundingBox())!;
			const zoneBox = (await zone.boundingBox())!;
			expect(zoneBox.y).toBeGreaterThanOrEqual(header.y);
			expect(zoneBox.y + zoneBox.height).toBeLessThanOrEqual(header.y + header.height + 0.5);
			expect(await page.getByRole('button', { name: 'Open…' }).isVisible()).toBe(true);
			// The header is one line.
			expect(header.height).toBeLessThan(60);
			// The level toggles share the filter's row on a wide window.
			const input = (await page.locator('#filter-input').boundingBox())!;
			const toggles = (await page.getByRole('group', { name: 'Quick toggles' }).boundingBox())!;
			expect(Math.abs(toggles.y + toggles.height / 2 - (input.y + input.height / 2))).toBeLessThan(
				4,
			);
			// The panels' toolbar (tabs, count, time mode, colours, columns, export) is one line.
			const tabs = (await page.getByRole('tablist').boundingBox())!;
			const toolbar = page.locator('section.trace .toolbar');
			expect((await toolbar.boundingBox())!.height).toBeLessThan(tabs.height * 1.5);
			const below = await toolbar.evaluate((bar) => {
				const top = bar.getBoundingClientRect().top;
				return [...bar.querySelectorAll<HTMLElement>(':scope > *')]
					.filter((e) => e.getBoundingClientRect().top > top + 24)
					.map((e) => e.textContent?.trim());
			});
			expect(below).toEqual([]);
			// The table reaches the window's bottom, and holds many rows.
			const scroller = (await page.getByTestId('event-scroller').boundingBox())!;
			expect(scroller.y + scroller.height).toBeGreaterThan(viewport.height - 30);
			expect(scroller.y + scroller.height).toBeLessThanOrEqual(viewport.height);
			const fullRows = await page.evaluate(() => {
				const s = document.querySelector('[data-testid="event-scroller"]')!.getBoundingClientRect();
				return [...document.querySelectorAll('[data-testid="event-scroller"] .row')].filter((r) => {
					const b = r.getBoundingClientRect();
					return b.top >= s.top && b.bottom <= s.bottom + 0.5;
				}).length;
			});
			expect(fullRows).toBeGreaterThanOrEqual(viewport.height >= 900 ? 20 : 12);
		});

		it('keeps every column of the default set whole, details closed and open', async () => {
			await page.locator('[data-testid="event-scroller"] .row').first().waitFor();
			expect(await cutCells(page, defaultCells, '[data-testid="event-scroller"]')).toEqual([]);
			// A row with an address and a status: the widest cells of the sample's first screen.
			await page
				.locator('[data-testid="event-scroller"] .row')
				.filter({ hasText: 'STATUS_' })
				.first()
				.click();
			await page.getByTestId('details').waitFor();
			await page.waitForTimeout(300);
			expect(await cutCells(page, defaultCells, '[data-testid="event-scroller"]')).toEqual([]);
			const scroller = page.getByTestId('event-scroller');
			// No sideways scrolling for the default set.
			expect(await scroller.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
			// The pane and the table do not overlap, and both are on screen.
			const table = (await scroller.boundingBox())!;
			const pane = (await page.getByTestId('details').boundingBox())!;
			const apart = pane.x >= table.x + table.width || pane.y >= table.y + table.height;
			expect(apart).toBe(true);
			expect(pane.x + pane.width).toBeLessThanOrEqual(viewport.width);
			expect(pane.y + pane.height).toBeLessThanOrEqual(viewport.height + 0.5);
			if (viewport.width === 1440)
				await page.screenshot({ path: '/tmp/sockscope-workbench-1440.png' });
		});

		it('keeps every column whole under a filter of failures, with the details open', async () => {
			// The failures' statuses are the longest texts of the Status column; the table has
			// shown other rows first, whose widths must not crowd them out.
			await page.getByTestId('event-scroller').evaluate((e) => (e.scrollTop = e.scrollHeight / 2));
			await page.waitForTimeout(300);
			expect(await applyFilter(page, 'status:error')).toBeGreaterThan(0);
			const failed = page
				.locator('[data-testid="event-scroller"] .row')
				.filter({ hasText: 'STATUS_CONNECTION_REFUSED' });
			await failed.click();
			await page.getByTestId('details').waitFor();
			await page.waitForTimeout(300);
			expect(await cutCells(page, defaultCells, '[data-testid="event-scroller"]')).toEqual([]);
			const scroller = page.getByTestId('event-scroller');
			expect(await scroller.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
			// Back to the view before: the first screen, its row selected.
			await page.goBack();
			await answerFor(page, '');
		});

		it('resizes the details pane with its splitter, by keyboard too', async () => {
			const splitter = page.getByTestId('details-splitter');
			const before = Number(await splitter.getAttribute('aria-valuenow'));
			const dock = await page.locator('.work').getAttribute('data-dock');
			await splitter.focus();
			await page.keyboard.press(dock === 'side' ? 'ArrowLeft' : 'ArrowUp');
			await expect
				.poll(async () => Number(await splitter.getAttribute('aria-valuenow')))
				.toBe(before + 16);
			const box = (await splitter.boundingBox())!;
			const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
			await page.mouse.move(x, y);
			await page.mouse.down();
			await page.mouse.move(dock === 'side' ? x + 20 : x, dock === 'side' ? y : y + 20, {
				steps: 4,
			});
			await page.mouse.up();
			await expect
				.poll(async () => Number(await splitter.getAttribute('aria-valuenow')))
				.toBe(before + 16 - 20);
			expect(await cutCells(page, defaultCells, '[data-testid="event-scroller"]')).toEqual([]);
			await page
				.getByRole('button', { name: 'Close' })
				.first()
				.click()
				.catch(() => {});
		});

		it('fits the socket list in the window', async () => {
			await page.getByRole('tab', { name: 'Sockets' }).click();
			const table = page.getByTestId('socket-table');
			await table.waitFor({ timeout: 30_000 });
			expect(await page.getByTestId('socket-table').locator('tbody tr').count()).toBe(
				truth.sockets.length,
			);
			const box = (await table.boundingBox())!;
			expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
			expect(
				await cutCells(
					page,
					'[data-testid="socket-table"] th, [data-testid="socket-table"] td',
					'[data-testid="sockets"]',
				),
			).toEqual([]);
			await page.getByRole('tab', { name: 'Events' }).click();
		});
	});
}
