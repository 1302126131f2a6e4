// axe-core in real Chromium: no serious or critical violation on the landing page, the events
// view with an event's details open, statistics and sockets, in the light and dark themes and in
// both languages. And the event grid names the row the keys moved to (aria-activedescendant), and
// sits in no live region.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { answerFor, screenshot } from './analyst-page.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { openSite, type OpenedPage } from './page.ts';

const baseUrl = inject('baseUrl');
const axeSource = readFileSync(
	createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
	'utf8',
);

interface Violation {
	id: string;
	impact: string | null;
	nodes: { target: string[]; failureSummary?: string }[];
}

let browser: Browser;
let tab: OpenedPage;
let page: Page;

beforeAll(async () => {
	browser = await launchBrowser({ bypassCSP: true });
	tab = await openSite(browser, baseUrl);
	page = tab.page;
});

afterAll(async () => {
	expect(tab?.errors ?? []).toEqual([]);
	await browser?.close();
});

/** The serious and critical violations axe finds on the page as it is now. */
async function serious(): Promise<string[]> {
	if (!(await page.evaluate(() => 'axe' in window)))
		await page.addScriptTag({ content: axeSource });
	const violations = await page.evaluate(async () => {
		const axe = (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
		return (await axe.run()).violations;
	});
	return (violations as Violation[])
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

type View = 'landing' | 'events' | 'stats' | 'sockets';
const COMBINATIONS = (['en', 'zh'] as const).flatMap((lang) =>
	(['light', 'dark'] as const).map((scheme) => ({ lang, scheme })),
);

async function show(view: View): Promise<void> {
	if (view === 'landing') return;
	const tabIndex = { events: 0, stats: 1, sockets: 2 }[view];
	await page.getByRole('tab').nth(tabIndex).click();
	if (view === 'events') {
		// Selecting the selected row again would open its cell menu: select it once.
		if (!(await page.getByTestId('details').isVisible()))
			await page.locator('[role="row"][data-position="0"] [data-column="time"]').click();
		await page.getByTestId('details').waitFor();
	} else if (view === 'stats') await page.getByTestId('stats-events').waitFor({ timeout: 30_000 });
	else await page.getByTestId('socket-table').waitFor({ timeout: 30_000 });
}

/** Theme colours fade (120 ms): axe would read a colour half-way; it checks the settled ones. */
async function settle(): Promise<void> {
	await page.addStyleTag({
		content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
	});
}

/** The sample trace, opened once (the tests after the first find it open), its colours settled. */
async function openSample(): Promise<void> {
	if ((await page.getByTestId('trace-facts').count()) > 0) return;
	await page.getByRole('button', { name: /Open the sample trace|打开示例跟踪/ }).click();
	await answerFor(page, '');
	await settle();
}

async function check(lang: 'en' | 'zh', scheme: 'light' | 'dark', views: readonly View[]) {
	const found: string[] = [];
	await page.getByTestId('language').selectOption(lang);
	await page.emulateMedia({ colorScheme: scheme });
	for (const view of views) {
		await show(view);
		for (const v of await serious()) found.push(`${view} ${lang} ${scheme}: ${v}`);
		if (found.length) await screenshot(page, `axe-${view}-${lang}-${scheme}`);
	}
	expect(found).toEqual([]);
}

describe('accessibility', () => {
	it.each(COMBINATIONS)('the landing page: $lang, $scheme', async ({ lang, scheme }) => {
		await settle();
		await check(lang, scheme, ['landing']);
	});

	it.each(COMBINATIONS)(
		'the events view with details open, statistics and sockets: $lang, $scheme',
		async ({ lang, scheme }) => {
			await openSample();
			await check(lang, scheme, ['events', 'stats', 'sockets']);
		},
	);
	it('Trace facts counts what cannot be trusted, and a counter shows its events', async () => {
		await page.getByTestId('language').selectOption('en');
		await page.getByRole('tab', { name: 'Events' }).click();
		const facts = page.locator('details.facts-box');
		if (!(await facts.evaluate((d) => (d as HTMLDetailsElement).open)))
			await facts.locator('summary').click();
		const trust = page.getByTestId('trust');
		const row = trust.locator('tr[data-counter="no-schema"]');
		await row.getByRole('button', { name: 'Show events' }).waitFor({ timeout: 30_000 });
		const value = Number(await row.locator('[data-value]').getAttribute('data-value'));
		expect(value).toBeGreaterThan(0);
		const filter = (await row.getByRole('button').getAttribute('title'))!;
		await row.getByRole('button').click();
		// The filter finds as many events as the counter counted.
		expect((await answerFor(page, filter)).matched).toBe(value);
		for (const name of ['events-lost', 'buffers-lost', 'damage', 'unknown-versions'])
			expect(await trust.locator(`tr[data-counter="${name}"] [data-value]`).count()).toBe(1);
	});

	it('the event grid names the row the keys moved to', async () => {
		await page.getByTestId('language').selectOption('en');
		await page.getByRole('tab', { name: 'Events' }).click();
		const grid = page.getByTestId('event-scroller');
		await page.locator('[role="row"][data-position="0"]').click();
		await grid.focus();
		for (const [key, position] of [
			['j', 1],
			['ArrowDown', 2],
			['k', 1],
		] as const) {
			await grid.press(key);
			await expect
				.poll(async () => {
					const id = await grid.getAttribute('aria-activedescendant');
					return id ? page.locator(`[id="${id}"]`).getAttribute('data-position') : null;
				})
				.toBe(String(position));
		}
		expect(await grid.getAttribute('role')).toBe('grid');
	});

	it('announces the import and its failures, not every change of a trace’s views', async () => {
		await openSample();
		await page.getByRole('tab', { name: /Events|事件/ }).click();
		// A screen reader reads out what changes inside a live region: the event grid, which a
		// query or an import refreshes, must sit in none.
		const regions = await page.getByTestId('event-scroller').evaluate((grid) => {
			const found: string[] = [];
			for (let e: Element | null = grid; e; e = e.parentElement) {
				const live = e.getAttribute('aria-live');
				const role = e.getAttribute('role') ?? '';
				if ((live && live !== 'off') || ['status', 'alert', 'log', 'timer'].includes(role))
					found.push(`<${e.tagName.toLowerCase()} class="${e.className}">`);
			}
			return found;
		});
		expect(regions).toEqual([]);
	});
});
