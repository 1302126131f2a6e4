// Both languages in real Chromium: a browser that prefers Chinese gets the Chinese page (the
// findings and a socket's story too, AFD events named as on Microsoft's Chinese page), the
// header's switch changes it at once, and the choice outlives a reload.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { en } from '../../web/src/i18n/en.ts';
import { zh } from '../../web/src/i18n/zh.ts';
import { answerFor } from './analyst-page.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { openSite, type OpenedPage } from './page.ts';

const baseUrl = inject('baseUrl');

let browser: Browser;
let tab: OpenedPage;
let page: Page;

beforeAll(async () => {
	browser = await launchBrowser({ locale: 'zh-CN' });
	tab = await openSite(browser, baseUrl);
	page = tab.page;
});

afterAll(async () => {
	expect(tab?.errors ?? []).toEqual([]);
	await browser?.close();
});

describe('Simplified Chinese', () => {
	it('is chosen from the browser language on a first visit', async () => {
		expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-Hans');
		expect(await page.locator('.tagline').textContent()).toBe(zh['app.tagline']);
		expect(await page.getByTestId('language').inputValue()).toBe('zh');
	});

	it('tells the sample in Chinese: tabs, findings, a story, an event as Microsoft names it', async () => {
		await page.getByRole('button', { name: zh['drop.sample'] }).click();
		await answerFor(page, '');
		await page.getByRole('tab', { name: zh['trace.panel-sockets'] }).click();
		const finding = page.getByTestId('findings').locator('.title').first();
		await finding.waitFor({ timeout: 30_000 });
		// A finding's title is the Chinese message with the finding's own subject in it.
		expect(await finding.textContent()).toMatch(/[\u4e00-\u9fff]/);
		await page.getByTestId('socket-table').locator('tbody tr').first().click();
		expect(await page.getByTestId('socket-story').locator('p').first().textContent()).toMatch(
			/[\u4e00-\u9fff]/,
		);
		await page.getByRole('tab', { name: zh['trace.panel-events'] }).click();
		await page.locator('#filter-input').fill('event:SocketCreate');
		await page.locator('#filter-input').press('Enter');
		await answerFor(page, 'event:SocketCreate');
		await page.locator('[role="row"][data-position="0"]').click();
		const details = page.getByTestId('details');
		expect(await details.locator('.local-title').textContent()).toBe('套接字创建');
		// Field names as on the page, with its slip fixed (过程 → 进程).
		expect(await details.locator('tr[data-field="Process"] th').textContent()).toContain('进程');
	});

	it('switches to English from the header, and stays English after a reload', async () => {
		await page.getByTestId('language').selectOption('en');
		expect(await page.locator('.tagline').textContent()).toBe(en['app.tagline']);
		expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
		await page.reload();
		await page.getByRole('heading', { level: 1, name: 'Sockscope' }).waitFor();
		expect(await page.locator('.tagline').textContent()).toBe(en['app.tagline']);
		await page.getByTestId('language').selectOption('zh');
		expect(await page.locator('.tagline').textContent()).toBe(zh['app.tagline']);
	});
});
