// What the analyst e2e tests do as a user, in one place: apply a filter and wait for its answer,
// read the counts, drag across the timeline, press keys the way other keyboard layouts send them.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { projectRoot } from './server.ts';
import { openSample } from './page.ts';

/** Where screenshots go: kept as test artefacts, never compared pixel by pixel. */
export const SCREENSHOTS = join(projectRoot, 'test-results', 'screenshots');

export async function screenshot(page: Page, name: string): Promise<string> {
	mkdirSync(SCREENSHOTS, { recursive: true });
	const path = join(SCREENSHOTS, `${name}.png`);
	// Buttons fade between theme colours (120 ms): let them settle before the picture.
	await page.waitForTimeout(250);
	await page.screenshot({ path });
	return path;
}

const digits = (s: string | null) => Number((s ?? '').replace(/[^\d]/g, ''));

/**
 * Waits until the status line shows the answer for `filter` (and range), then reads it: the
 * whole answer, not one given while the trace is still being imported.
 */
export async function answerFor(
	page: Page,
	filter: string,
	range?: string,
): Promise<{ matched: number; total: number }> {
	const status = page
		.locator(
			`[data-testid="filter-status"][data-filter="${filter.replace(/["\\]/g, '\\$&')}"]` +
				(range === undefined ? '' : `[data-range="${range}"]`),
		)
		.filter({ hasNotText: 'importing' });
	await status.waitFor({ timeout: 30_000 });
	return {
		matched: digits(await status.getByTestId('match-count').textContent()),
		total: digits(await status.getByTestId('total-count').textContent()),
	};
}

/** Waits until the trace named `name` is shown with all of its `records` imported. */
export async function waitForImport(page: Page, name: string, records: number): Promise<void> {
	await page.locator(`section.trace[aria-label="Trace ${name}"]`).waitFor({ timeout: 60_000 });
	const status = page.getByTestId('filter-status').filter({ hasNotText: 'importing' });
	await status
		.getByTestId('total-count')
		.filter({ hasText: records.toLocaleString('en-US') })
		.waitFor({ timeout: 120_000 });
}

/** Types a filter in the box and applies it with Enter, as a user would. */
export async function applyFilter(page: Page, filter: string): Promise<number> {
	const box = page.locator('#filter-input');
	await box.fill(filter);
	// Enter applies the box as typed; only after an arrow key does it pick a suggestion.
	await box.press('Enter');
	return (await answerFor(page, filter)).matched;
}

/** Opens the bundled sample; its event count once imported. */
export async function openSampleTrace(page: Page): Promise<number> {
	await openSample(page);
	return (await answerFor(page, '')).total;
}

/** The URL fragment's parameters. */
export async function hashParams(page: Page): Promise<URLSearchParams> {
	return new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
}

/** Drags across the timeline from one fraction of its width to another. */
export async function brush(page: Page, from: number, to: number): Promise<void> {
	const over = page.locator('[data-testid="timeline-plot"] .u-over');
	const box = (await over.boundingBox())!;
	const y = box.y + box.height / 2;
	await page.mouse.move(box.x + box.width * from, y);
	await page.mouse.down();
	await page.mouse.move(box.x + box.width * ((from + to) / 2), y, { steps: 4 });
	await page.mouse.move(box.x + box.width * to, y, { steps: 4 });
	await page.mouse.up();
}

/**
 * A key press as a given layout sends it: `key` is the character typed, `code` the physical key
 * (US QWERTY name). Playwright's keyboard always types as US QWERTY, so other layouts are sent as
 * DOM events to the focused element.
 */
export async function pressAsLayout(
	page: Page,
	key: string,
	code: string,
	shiftKey = false,
): Promise<void> {
	await page.evaluate(
		({ key, code, shiftKey }) => {
			const target = document.activeElement ?? document.body;
			const init = { key, code, shiftKey, bubbles: true, cancelable: true, composed: true };
			target.dispatchEvent(new KeyboardEvent('keydown', init));
			target.dispatchEvent(new KeyboardEvent('keyup', init));
		},
		{ key, code, shiftKey },
	);
}

/** The selected row's position among the matches, or null. */
export async function selectedPosition(page: Page): Promise<number | null> {
	const row = page.locator('[data-testid="event-scroller"] .row.selected');
	if ((await row.count()) === 0) return null;
	return Number(await row.getAttribute('data-position'));
}
