// Group by on the bundled sample: each process's AFD events and bytes each way as the sample's
// ground truth counts them (tests/fixtures/sample/sample.truth.json), a socket's group leading
// to its events, the tree exported; and a payload field applied as a column of the table, kept
// across a reload and written to the CSV export.
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
const AFD = 'provider:Microsoft-Windows-Winsock-AFD';
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const digits = (s: string | null) => Number((s ?? '').replace(/[^\d]/g, ''));

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

describe('Group by', () => {
	it("counts each process's events and bytes as the ground truth does, and leads to a group's events", async () => {
		await applyFilter(page, AFD);
		await page.getByRole('tab', { name: 'Statistics' }).click();
		await page.getByTestId('stats-mode-pivot').click();
		await page.getByTestId('pivot-table').waitFor();
		const top = page.locator('[data-testid="pivot-row"][data-depth="0"]');
		await expect.poll(() => top.count()).toBe(truth.processes.length);
		for (const p of truth.processes) {
			const row = page.locator(`[data-testid="pivot-row"][data-filter="process:${p.pid}"]`);
			const sockets = truth.sockets.filter((s) => s.pid === p.pid);
			expect(digits(await row.getByTestId('pivot-count').textContent()), p.name).toBe(p.afdEvents);
			expect(Number(await row.getByTestId('pivot-sent').getAttribute('data-bytes'))).toBe(
				sum(sockets.map((s) => s.bytesSent)),
			);
			expect(Number(await row.getByTestId('pivot-received').getAttribute('data-bytes'))).toBe(
				sum(sockets.map((s) => s.bytesReceived)),
			);
		}
		await screenshot(page, 'pivot');

		// Expand the busiest process: its sockets, each with its bytes.
		const busiest = [...truth.processes].sort((a, b) => b.afdEvents - a.afdEvents)[0]!;
		const parent = page.locator(`[data-testid="pivot-row"][data-filter="process:${busiest.pid}"]`);
		await parent.getByTestId('pivot-toggle').click();
		const children = page.locator('[data-testid="pivot-row"][data-depth="1"]');
		await expect.poll(() => children.count()).toBeGreaterThan(0);
		const socket = truth.sockets.find((s) => s.pid === busiest.pid && s.bytesSent > 0)!;
		const child = page.locator(
			`[data-testid="pivot-row"][data-filter="process:${busiest.pid} endpoint:${socket.endpoint}"]`,
		);
		expect(Number(await child.getByTestId('pivot-sent').getAttribute('data-bytes'))).toBe(
			socket.bytesSent,
		);
		const count = digits(await child.getByTestId('pivot-count').textContent());

		// Its name leads to its events, the filter narrowed by the group's terms.
		await child.getByTestId('pivot-label').click();
		const filter = `${AFD} process:${busiest.pid} endpoint:${socket.endpoint}`;
		expect((await answerFor(page, filter)).matched).toBe(count);
		expect(await page.getByRole('tab', { name: 'Events' }).getAttribute('aria-selected')).toBe(
			'true',
		);
	});

	it('exports the tree as CSV, one line per group', async () => {
		await applyFilter(page, AFD);
		await page.getByRole('tab', { name: 'Statistics' }).click();
		await page.getByTestId('pivot-table').waitFor();
		const [download] = await Promise.all([
			page.waitForEvent('download'),
			page.getByRole('button', { name: 'Export CSV' }).click(),
		]);
		expect(download.suggestedFilename()).toBe('sample-groups.csv');
		const lines = readFileSync((await download.path())!, 'utf8')
			.trimEnd()
			.split('\n');
		expect(lines[0]).toBe(
			'process,socket,event,level,count,bytesSent,bytesReceived,errors,first,last,filter',
		);
		const top = lines.filter((l) => /^[^,]*,,,1,/.test(l));
		expect(top).toHaveLength(truth.processes.length);
		expect(sum(top.map((l) => Number(l.split(',')[4])))).toBe(
			sum(truth.processes.map((p) => p.afdEvents)),
		);
	});

	it('applies a payload field as a column, kept across a reload and in the CSV export', async () => {
		await page.getByRole('tab', { name: 'Events' }).click();
		const creates = await applyFilter(page, 'event:AfdCreate');
		expect(creates).toBeGreaterThan(0);
		await page.locator('[data-position="0"]').click();
		await page.getByTestId('details').waitFor();
		await page.locator('[data-field="SocketType"]').getByTestId('apply-column').click();
		const cells = page.locator('[data-column="field:SocketType"]');
		await expect.poll(() => cells.first().textContent()).toMatch(/^SOCK_/);
		expect(await page.getByRole('columnheader', { name: 'SocketType' }).count()).toBe(1);

		await page.reload();
		await answerFor(page, 'event:AfdCreate');
		await expect.poll(() => cells.first().textContent()).toMatch(/^SOCK_/);

		await page.getByRole('button', { name: 'Export ▾' }).click();
		const [download] = await Promise.all([
			page.waitForEvent('download'),
			page.getByRole('menuitem', { name: /as CSV/ }).click(),
		]);
		const lines = readFileSync((await download.path())!, 'utf8')
			.trimEnd()
			.split('\n');
		expect(lines[0]).toMatch(/,SocketType$/);
		expect(lines).toHaveLength(creates + 1);
		expect(lines.slice(1).every((l) => /,SOCK_[A-Z]+$/.test(l))).toBe(true);
	});
});
