// The Compare view in real Chromium: two runs of one workload imported (the problem run refused
// by one host every time), picked in Your traces and compared. The injected change is the only
// one listed, ranked first with its kind; it opens both sides' figures and sockets; Show sockets
// in either trace lands on that trace's Sockets panel with the pair's sockets; the URL holds both
// traces' keys and a reload shows the same comparison.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { en } from '../../web/src/i18n/en.ts';
import { zh } from '../../web/src/i18n/zh.ts';
import { REFUSED_RETRIES, run, targetOf } from '../compare/workload.ts';
import { screenshot } from './analyst-page.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { expectImported } from './import-steps.ts';
import { openSite, pickBytes, type OpenedPage } from './page.ts';

const baseUrl = inject('baseUrl');
const target = targetOf('refused');
const pairText = `${target.process} · ${target.protocol} · ${target.remote}`;
const sides = [
	{ side: 'baseline', name: 'works.etl' },
	{ side: 'problem', name: 'fails.etl' },
] as const;

let browser: Browser;
let tab: OpenedPage;
let page: Page;

beforeAll(async () => {
	browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
	tab = await openSite(browser, baseUrl);
	page = tab.page;
}, 120_000);

afterEach(async ({ task }) => {
	if (task.result?.state === 'fail')
		await screenshot(page, `failed-compare-${task.name.replace(/\W+/g, '-').slice(0, 60)}`);
});

afterAll(async () => {
	expect(tab?.errors ?? []).toEqual([]);
	await browser?.close();
});

async function importRun(name: string, bytes: Uint8Array): Promise<void> {
	await pickBytes(page, name, bytes);
	await expectImported(tab, name);
	await page.getByRole('button', { name: /All traces/ }).click();
	await page
		.locator('li[data-trace-id][data-status="complete"]')
		.filter({ hasText: name })
		.waitFor({ timeout: 60_000 });
}

const changes = () => page.getByTestId('compare-changes').locator(':scope > li');

/** The listed changes once the comparison is ready: their kinds and the first one's text. */
async function shownChanges(): Promise<{ kinds: (string | null)[]; first: string }> {
	await changes().first().waitFor({ timeout: 60_000 });
	const all = await changes().all();
	const kinds = await Promise.all(all.map((li) => li.getAttribute('data-kinds')));
	return { kinds, first: (await all[0]!.textContent()) ?? '' };
}

/** Opens the first change: both sides' figures and socket keys. */
async function openFirst(): Promise<Record<'baseline' | 'problem', string[]>> {
	await changes().first().getByRole('button').first().click();
	await page.getByTestId('compare-detail').waitFor();
	const keys = async (side: string) =>
		(await page.getByTestId(`compare-side-${side}`).locator('li code').allTextContents()).map((k) =>
			k.trim(),
		);
	return { baseline: await keys('baseline'), problem: await keys('problem') };
}

describe('Compare view', { timeout: 240_000 }, () => {
	let compareHash = '';
	let listed: Record<'baseline' | 'problem', string[]>;

	it('ranks the injected change first with its kind, and nothing else', async () => {
		await importRun('works.etl', run(41));
		await importRun('fails.etl', run(1041, 'refused'));
		const row = (name: string) => page.locator('li[data-trace-id]').filter({ hasText: name });
		// The first picked is the baseline.
		await row('works.etl').getByTestId('compare-pick').check();
		await row('fails.etl').getByTestId('compare-pick').check();
		await page.getByTestId('compare-start').click();

		const { kinds, first } = await shownChanges();
		expect(kinds).toEqual(['refused']);
		expect(first).toContain(pairText);
		expect(first).toContain(en['compare.kind.refused']);
		expect(first).toContain(
			en['compare.why.refused']!.replace('{{problem}}', String(REFUSED_RETRIES)).replace(
				'{{baseline}}',
				'0',
			),
		);
		// The URL holds both traces' keys, the baseline's first.
		compareHash = await page.evaluate(() => location.hash);
		const keys = /^#compare=([0-9a-f]{16}),([0-9a-f]{16})$/.exec(compareHash);
		expect(keys).not.toBeNull();
		expect(keys![1]).not.toBe(keys![2]);
	});

	it('opens both sides: figures and each trace’s sockets of the pair', async () => {
		listed = await openFirst();
		const detail = page.getByTestId('compare-detail');
		const connections = detail
			.locator('tr')
			.filter({ has: page.getByRole('rowheader', { name: en['compare.fig.connections'] }) });
		const cells = await connections.locator('td').allTextContents();
		expect(cells.map((c) => c.trim())[1]).toBe(String(REFUSED_RETRIES));
		expect(Number(cells[0])).toBeGreaterThan(0);
		// Every refused connect is one socket of the problem side.
		expect(listed.problem).toHaveLength(REFUSED_RETRIES);
		expect(listed.baseline.length).toBe(Number(cells[0]));
		await screenshot(page, 'compare');
	});

	it('speaks Chinese too', async () => {
		await page.getByTestId('language').selectOption('zh');
		await expect
			.poll(() => page.getByTestId('compare').textContent())
			.toContain(zh['compare.kind.refused']);
		await page.getByTestId('language').selectOption('en');
		await expect
			.poll(() => page.getByTestId('compare').textContent())
			.toContain(en['compare.kind.refused']);
	});

	it('keeps the comparison through a reload', async () => {
		await page.reload();
		expect(await page.evaluate(() => location.hash)).toBe(compareHash);
		const { kinds, first } = await shownChanges();
		expect(kinds).toEqual(['refused']);
		expect(first).toContain(pairText);
	});

	for (const { side, name } of sides)
		it(`Show sockets in the ${side} trace lands on its Sockets panel with the pair's sockets`, async () => {
			if (!(await page.getByTestId('compare-detail').isVisible())) await openFirst();
			await page.getByTestId(`show-sockets-${side}`).click();
			const table = page.getByTestId('socket-table');
			await table.waitFor({ timeout: 60_000 });
			const hash = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
			expect(hash.get('panel')).toBe('sockets');
			expect(hash.get('name')).toBe(name);
			expect(hash.get('q')).toContain(`process:${target.process}`);
			const rows = table.locator('tbody tr[data-key]');
			await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(listed[side].length);
			const keys = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-key')));
			expect(keys.sort()).toEqual([...listed[side]].sort());
			if (side === 'problem')
				expect(await rows.filter({ hasText: 'STATUS_CONNECTION_REFUSED' }).count()).toBe(
					REFUSED_RETRIES,
				);
			// Back: the comparison again.
			await page.goBack();
			expect(await page.evaluate(() => location.hash)).toBe(compareHash);
			await shownChanges();
		});
});
