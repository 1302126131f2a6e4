// The page in 中文 at 1440×900, walked on the sample: landing, events with details, statistics,
// sockets with findings and a story, lanes and conversations. Where this branch routed the words
// through the catalogue (event titles, levels, socket states, "ended by"), no Latin word but data
// may show. Screenshots of each stop go to test-results/zh/ (the CJK font is fonts-noto-cjk).
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { zh } from '../../web/src/i18n/zh.ts';
import { answerFor } from './analyst-page.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { openSite, type OpenedPage } from './page.ts';

const baseUrl = inject('baseUrl');
const shots = 'test-results/zh';

let browser: Browser;
let tab: OpenedPage;
let page: Page;

beforeAll(async () => {
	mkdirSync(shots, { recursive: true });
	browser = await launchBrowser({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
	tab = await openSite(browser, baseUrl);
	page = tab.page;
});

afterAll(async () => {
	expect(tab?.errors ?? []).toEqual([]);
	await browser?.close();
});

/** Latin words that are data or names, not prose: identifiers, addresses, hex, units. */
const DATA =
	/^(Sockscope|AFD|TCP|UDP|IP|IPv4|IPv6|DNS|PID|ID|RIO|NRT|GUID|FILETIME|I\/O|select|poll|sendto|recvfrom|sendmsg|recv|send|WSASendMsg|WSAEventSelect|ms|s|MB|KiB|MiB|GiB|bytes?)$/;

/** The Latin words in `texts` that are not data: words of 2+ letters, hex and names cut out. */
function latinWords(texts: readonly string[]): string[] {
	const out = new Set<string>();
	for (const text of texts)
		for (const w of text
			.replace(/\b0x[0-9a-f]+\b/gi, ' ')
			.replace(/\S+\.(exe|dll)\b/gi, ' ')
			.match(/[A-Za-z][A-Za-z/]+/g) ?? [])
			if (!DATA.test(w)) out.add(w);
	return [...out];
}

const shoot = (name: string) => page.screenshot({ path: `${shots}/${name}.png` });

describe('中文 at 1440×900', () => {
	it('landing', async () => {
		expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-Hans');
		await shoot('landing');
	});

	it('events: each AFD event by its Chinese title and level, with the name on hover', async () => {
		await page.getByRole('button', { name: zh['drop.sample'] }).click();
		await answerFor(page, '');
		const cells = page.locator('[role="gridcell"][data-column="event"]');
		await cells.first().waitFor();
		await page.locator('#filter-input').fill('event:SocketCreate');
		await page.locator('#filter-input').press('Enter');
		await answerFor(page, 'event:SocketCreate');
		const first = page.locator('[role="row"][data-position="0"] [data-column="event"]');
		expect(await first.textContent()).toBe('套接字创建');
		expect(await first.getAttribute('title')).toContain('SocketCreate');
		const level = page.locator('[role="row"][data-position="0"] [data-column="level"]');
		expect(await level.textContent()).toBe(zh['level.info']);
		// The filter takes the title the table shows: the same rows.
		const byName = await answerFor(page, 'event:SocketCreate');
		await page.locator('#filter-input').fill('event:套接字创建');
		await page.locator('#filter-input').press('Enter');
		expect(await answerFor(page, 'event:套接字创建')).toEqual(byName);
		await page.locator('[role="row"][data-position="0"]').click();
		const details = page.getByTestId('details');
		await details.waitFor();
		const keys = await details.locator('th[scope="row"][title]').allTextContents();
		expect(latinWords(keys)).toEqual([]);
		await shoot('events-details');
	});

	it('statistics', async () => {
		await page.getByRole('tab', { name: zh['trace.panel-stats'] }).click();
		await page.waitForTimeout(300);
		await shoot('statistics');
	});

	it('sockets with findings, a story, lanes and conversations', async () => {
		await page.getByRole('tab', { name: zh['trace.panel-sockets'] }).click();
		const rows = page.getByTestId('socket-table').locator('tbody tr');
		await rows.first().waitFor({ timeout: 30_000 });
		const states = await page
			.getByTestId('socket-table')
			.locator('td[data-col="state"], td[data-col="endedBy"]')
			.allTextContents();
		expect(states.length).toBeGreaterThan(0);
		expect(latinWords(states)).toEqual([]);
		await shoot('sockets-findings');
		await rows.first().click();
		const story = await page.getByTestId('socket-story').locator('p').first().textContent();
		expect(story).toMatch(/[\u4e00-\u9fff]/);
		// When before what, in Chinese units.
		expect(story ?? '').not.toMatch(/\d s\b|后，/);
		await shoot('story');
		await page.getByTestId('lanes').scrollIntoViewIfNeeded();
		await shoot('lanes-conversations');
	});
});
