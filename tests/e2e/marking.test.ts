// Marks, saved filters and colouring rules on the bundled sample: an event marked with M and one
// from the row menu survive a reload and are what `marked:yes` selects; a saved filter is a
// button that applies it, kept across a reload; the default rules colour the failed events red,
// a rule added colours its rows, and turning the rules off takes the colours away.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { SampleTruth } from '../builders/sample.ts';
import { answerFor, applyFilter, openSampleTrace, screenshot } from './analyst-page.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { openSite, type OpenedPage } from './page.ts';

const baseUrl = inject('baseUrl');
const truth = JSON.parse(
	readFileSync(join(import.meta.dirname, '../fixtures/sample/sample.truth.json'), 'utf8'),
) as SampleTruth;

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
		await screenshot(page, `failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}`);
});

afterAll(async () => {
	expect(tab?.errors ?? []).toEqual([]);
	await browser?.close();
});

const row = (position: number) => page.locator(`[data-position="${position}"]`);

/** The contrast ratio of a row's text with its background, as the page computes its colours. */
async function contrastOf(el: ReturnType<typeof row>): Promise<number> {
	const [fg, bg] = await el.evaluate((e) => {
		// Whatever notation the browser gives (rgb(), color(srgb …), a color-mix()), a canvas
		// turns it into sRGB bytes.
		const ctx = document.createElement('canvas').getContext('2d')!;
		const rgb = (css: string) => {
			ctx.clearRect(0, 0, 1, 1);
			ctx.fillStyle = css;
			ctx.fillRect(0, 0, 1, 1);
			return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
		};
		const cell = e.querySelector('[data-column="event"]') ?? e;
		return [rgb(getComputedStyle(cell).color), rgb(getComputedStyle(e).backgroundColor)];
	});
	const luminance = ([r, g, b]: number[]) => {
		const lin = (c: number) => {
			const s = c / 255;
			return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
		};
		return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
	};
	const [a, b] = [luminance(fg!), luminance(bg!)].sort((x, y) => y - x);
	return (a! + 0.05) / (b! + 0.05);
}

describe('marks', () => {
	it('marks with M and the row menu, keeps them across a reload, and filters on them', async () => {
		await applyFilter(page, '');
		await row(2).click();
		await page.getByTestId('details').waitFor();
		await page.getByTestId('event-scroller').focus();
		await page.keyboard.press('m');
		await expect.poll(() => row(2).getAttribute('data-pinned')).toBe('');
		const first = Number(await row(2).getAttribute('data-index'));

		// The row menu (Enter on the selected row) marks another.
		await row(9).click();
		await page.getByTestId('event-scroller').focus();
		await page.keyboard.press('Enter');
		await page.getByTestId('menu-mark').click();
		await expect.poll(() => row(9).getAttribute('data-pinned')).toBe('');
		const second = Number(await row(9).getAttribute('data-index'));

		await page.reload();
		await answerFor(page, '');
		await expect.poll(() => row(2).getAttribute('data-pinned')).toBe('');
		expect(await row(9).getAttribute('data-pinned')).toBe('');
		expect(await row(3).getAttribute('data-pinned')).toBe(null);

		expect(await applyFilter(page, 'marked:yes')).toBe(2);
		expect(await row(0).getAttribute('data-index')).toBe(String(first));
		expect(await row(1).getAttribute('data-index')).toBe(String(second));
		expect(await applyFilter(page, 'marked:no')).toBe(truth.totalRecords - 2);

		// n goes to the next mark the filter shows.
		await applyFilter(page, '');
		await page.getByTestId('event-scroller').focus();
		await page.keyboard.press('n');
		await expect
			.poll(() => page.locator('.row.selected').getAttribute('data-index'))
			.toBe(String(first));
		await page.keyboard.press('n');
		await expect
			.poll(() => page.locator('.row.selected').getAttribute('data-index'))
			.toBe(String(second));
		// Unmarking takes it out of a filter on the marks.
		await page.keyboard.press('m');
		expect(await applyFilter(page, 'marked:yes')).toBe(1);
	});
});

describe('saved filters', () => {
	it('saves the filter as a button that applies it, kept across a reload', async () => {
		const errors = await applyFilter(page, 'status:error');
		await page.getByTestId('save-filter').click();
		await page.getByTestId('saved-name').fill('Failures');
		await page.getByTestId('saved-name').press('Enter');
		const button = page.getByTestId('saved-filter').filter({ hasText: 'Failures' });
		await button.waitFor();
		await applyFilter(page, '');
		await page.reload();
		await answerFor(page, '');
		await button.click();
		expect((await answerFor(page, 'status:error')).matched).toBe(errors);
	});
});

describe('colouring rules', () => {
	it('colours failed events red, a new rule its rows, and none once turned off', async () => {
		expect(await applyFilter(page, 'status:error')).toBeGreaterThan(0);
		await expect.poll(() => row(0).getAttribute('data-colour')).toBe('red');
		const red = await row(0).evaluate((el) => getComputedStyle(el).backgroundColor);
		expect(red).not.toBe('rgba(0, 0, 0, 0)');

		await applyFilter(page, 'event:AfdSend -status:error');
		await page.getByTestId('colour-rules').click();
		await page.getByTestId('colour-add').click();
		const rule = page.getByTestId('colour-rule').last();
		await rule.getByTestId('colour-filter').fill('event:AfdSend');
		await rule.getByTestId('colour-filter').press('Tab');
		await rule.getByTestId('colour-colour').selectOption('purple');
		await expect.poll(() => row(0).getAttribute('data-colour')).toBe('purple');
		await screenshot(page, 'colouring-rules');

		// The tints keep the text readable in either theme (WCAG AA: 4.5:1).
		for (const scheme of ['light', 'dark'] as const) {
			await page.emulateMedia({ colorScheme: scheme });
			await expect.poll(() => contrastOf(row(0))).toBeGreaterThanOrEqual(4.5);
		}
		await page.emulateMedia({ colorScheme: 'light' });

		await page.getByTestId('colours-enabled').uncheck();
		await expect.poll(() => row(0).getAttribute('data-colour')).toBe(null);
		await page.getByTestId('colours-enabled').check();
		await expect.poll(() => row(0).getAttribute('data-colour')).toBe('purple');
	});
});

describe('a selected row', () => {
	it("keeps its mark's bar and its rule's colour, and still shows it is selected", async () => {
		expect(await applyFilter(page, 'status:error')).toBeGreaterThan(1);
		await expect.poll(() => row(0).getAttribute('data-colour')).toBe('red');
		await expect.poll(() => row(1).getAttribute('data-colour')).toBe('red');
		// The Colours panel, left open above, closes on Esc wherever the focus is.
		await page.keyboard.press('Escape');
		await page.getByRole('dialog', { name: 'Colouring rules' }).waitFor({ state: 'detached' });
		await row(0).click();
		await page.getByTestId('event-scroller').focus();
		if ((await row(0).getAttribute('data-pinned')) === null) await page.keyboard.press('m');
		await expect.poll(() => row(0).getAttribute('data-pinned')).toBe('');
		expect(await row(0).getAttribute('class')).toContain('selected');
		// The pointer away from the rows: hover is not what is measured.
		await page.mouse.move(0, 0);

		const look = (position: number) =>
			row(position).evaluate((e) => {
				const ctx = document.createElement('canvas').getContext('2d')!;
				ctx.fillStyle = getComputedStyle(e).backgroundColor;
				ctx.fillRect(0, 0, 1, 1);
				const s = getComputedStyle(e);
				return {
					rgb: [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)],
					image: s.backgroundImage,
					outline: s.boxShadow,
				};
			});
		for (const scheme of ['light', 'dark'] as const) {
			await page.emulateMedia({ colorScheme: scheme });
			const selected = await look(0);
			const other = await look(1);
			// The mark's bar is still drawn.
			expect(selected.image, scheme).toContain('gradient');
			// Red stays red: more red than green or blue, as the unselected red row.
			const [r, g, b] = selected.rgb as [number, number, number];
			expect(r, `${scheme} ${selected.rgb}`).toBeGreaterThan(g + 15);
			expect(r, `${scheme} ${selected.rgb}`).toBeGreaterThan(b + 15);
			// And the selection is told apart from a red row that is not selected.
			expect(selected.rgb, scheme).not.toEqual(other.rgb);
			expect(selected.outline, scheme).not.toBe(other.outline);
			await expect.poll(() => contrastOf(row(0))).toBeGreaterThanOrEqual(4.5);
		}
		await page.emulateMedia({ colorScheme: 'light' });
		await screenshot(page, 'selected-marked-red-row');
		await page.keyboard.press('m');
		await expect.poll(() => row(0).getAttribute('data-pinned')).toBe(null);
	});
});
