// The workbench's layout in Debian's Firefox ESR (puppeteer-core over WebDriver BiDi), at two
// common window sizes: the table gets the window's height under a one-line toolbar, and no column
// of the events table's default set nor of the socket list is cut or off-screen, with the details
// pane closed and open. The measures are the Chromium workbench test's (layout-cells.ts).
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS } from '../analyst-page.ts';
import {
	cutCellsIn,
	DEFAULT_EVENT_CELLS,
	SOCKET_LIST_CELLS,
	type CellsIn,
} from '../layout-cells.ts';
import { projectRoot, startServer, type RunningServer } from '../server.ts';
import { collectErrors, launchFirefox, type Firefox } from './firefox.ts';
import { STEP_MS, answerFor, clickText, until, waitForFacts } from './page.ts';
import { FIREFOX_STEP_MS } from '../../timeouts.ts';

const truth = JSON.parse(
	readFileSync(join(projectRoot, 'tests/fixtures/sample/sample.truth.json'), 'utf8'),
) as { totalRecords: number; sockets: unknown[] };

let server: RunningServer;
let firefox: Firefox;
let page: Page;
let errors: string[];

beforeAll(async () => {
	server = await startServer(['dist', '--port', '0']);
	firefox = await launchFirefox();
	page = await firefox.browser.newPage();
	await page.setViewport({ width: 1440, height: 900 });
	page.setDefaultTimeout(STEP_MS);
	errors = collectErrors(page, new URL(server.url).origin);
	await page.goto(server.url);
	// The service worker takes the page first: no reload of it in the middle of the import.
	await page.waitForSelector('[data-testid="offline-status"][data-state="ready"]');
	await clickText(page, 'button', 'Open the sample trace');
	await waitForFacts(page, 'sample.etl');
	try {
		expect((await answerFor(page, '')).total).toBe(truth.totalRecords);
	} catch (e) {
		mkdirSync(SCREENSHOTS, { recursive: true });
		await page.screenshot({ path: join(SCREENSHOTS, 'firefox-layout-open.png') });
		throw new Error(`${String(e)}; page errors: ${errors.join(' | ')}`);
	}
}, FIREFOX_STEP_MS);

afterEach(async ({ task }) => {
	if (task.result?.state !== 'fail' || !page) return;
	mkdirSync(SCREENSHOTS, { recursive: true });
	const name = task.name.replace(/\W+/g, '-').slice(0, 60);
	await page.screenshot({ path: join(SCREENSHOTS, `firefox-layout-${name}.png`) }).catch(() => {});
});

afterAll(async () => {
	await firefox?.close();
	await server?.stop();
	expect(errors ?? []).toEqual([]);
});

/** The cells cut or off-screen, once the table has settled at its columns' widths. */
async function cut(cells: CellsIn): Promise<string[]> {
	// Columns widen to their text a frame after the rows are drawn.
	await new Promise((r) => setTimeout(r, 400));
	// Measured cells, not an empty match.
	expect(await page.$$eval(cells.cells, (c) => c.length)).toBeGreaterThan(10);
	return page.evaluate(cutCellsIn, cells);
}

for (const viewport of [
	{ width: 1440, height: 900 },
	{ width: 1280, height: 720 },
]) {
	describe(`Firefox at ${viewport.width}×${viewport.height}`, { timeout: FIREFOX_STEP_MS }, () => {
		it('gives the table the height of the window, under one line of tabs and buttons', async () => {
			await page.setViewport(viewport);
			await page.waitForSelector('[data-testid="event-scroller"] .row [data-column="event"]');
			// The work area is measured again after the window's resize.
			await new Promise((r) => setTimeout(r, 400));
			const m = await page.evaluate(() => {
				const box = (s: string) => document.querySelector(s)!.getBoundingClientRect();
				const header = box('header.masthead');
				const zone = box('[data-testid="drop-zone"]');
				const bar = document.querySelector('section.trace .toolbar')!;
				const top = bar.getBoundingClientRect().top;
				const scroller = box('[data-testid="event-scroller"]');
				const rows = [...document.querySelectorAll('[data-testid="event-scroller"] .row')].filter(
					(r) => {
						const b = r.getBoundingClientRect();
						return b.top >= scroller.top && b.bottom <= scroller.bottom + 0.5;
					},
				).length;
				return {
					zoneInHeader: zone.top >= header.top && zone.bottom <= header.bottom + 0.5,
					below: [...bar.children]
						.filter((e) => e.getBoundingClientRect().top > top + 24)
						.map((e) => e.textContent?.trim()),
					bottom: scroller.bottom,
					rows,
				};
			});
			// Other traces come from one button in the header, not a drop zone above the table.
			expect(m.zoneInHeader).toBe(true);
			expect(m.below).toEqual([]);
			expect(m.bottom).toBeGreaterThan(viewport.height - 30);
			expect(m.bottom).toBeLessThanOrEqual(viewport.height);
			expect(m.rows).toBeGreaterThanOrEqual(viewport.height >= 900 ? 20 : 12);
		});

		it('keeps every column of the events table whole, details closed and open', async () => {
			await page.setViewport(viewport);
			await page.waitForSelector('[data-testid="event-scroller"] .row [data-column="event"]');
			expect(await cut(DEFAULT_EVENT_CELLS)).toEqual([]);
			// A row with a status: among the widest cells of the sample's first screen.
			const row = await page.waitForSelector(
				'[data-testid="event-scroller"] .row [data-column="status"]::-p-text(STATUS_)',
			);
			await row!.click();
			await row!.dispose();
			await page.waitForSelector('[data-testid="details"]');
			expect(await cut(DEFAULT_EVENT_CELLS)).toEqual([]);
			// No sideways scrolling for the default set.
			expect(
				await page.$eval('[data-testid="event-scroller"]', (e) => e.scrollWidth - e.clientWidth),
			).toBeLessThanOrEqual(0);
			await page.keyboard.press('Escape');
			await until(
				async () => ((await page.$('[data-testid="details"]')) === null ? true : undefined),
				'the details pane closed',
			);
		});

		it('fits the socket list in the window', async () => {
			await clickText(page, '[role="tab"]', 'Sockets');
			await page.waitForSelector('[data-testid="socket-table"] tbody tr');
			expect(await page.$$eval('[data-testid="socket-table"] tbody tr', (r) => r.length)).toBe(
				truth.sockets.length,
			);
			const right = await page.$eval(
				'[data-testid="socket-table"]',
				(t) => t.getBoundingClientRect().right,
			);
			expect(right).toBeLessThanOrEqual(viewport.width);
			expect(await cut(SOCKET_LIST_CELLS)).toEqual([]);
			await clickText(page, '[role="tab"]', 'Events');
		});
	});
}
