// The DNS panel on the bundled sample: one row per name its lookups asked, with the count the
// sample's script wrote, every lookup listed, and a lookup leading to its event in Events. On a
// trace whose lookups fail: the failures by status by name, who asked, the sockets that used each
// answer, and the finding for the name that never resolved.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SAMPLE_LOOKUPS } from '../builders/sample-net.ts';
import { buildDnsTrace, CONNS, EDGE, LOOKUPS, NAME_ERROR, SYNC } from '../builders/dns-lookups.ts';
import { statsOf } from '../decoder/load.ts';
import { hashParams, openSampleTrace, screenshot, waitForImport } from './analyst-page.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { openSite, pickBytes, type OpenedPage } from './page.ts';

const baseUrl = inject('baseUrl');

let browser: Browser;
let tab: OpenedPage;
let page: Page;

beforeAll(async () => {
	browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
	tab = await openSite(browser, baseUrl);
	page = tab.page;
});

afterAll(async () => {
	expect(tab?.errors ?? []).toEqual([]);
	await browser?.close();
});

describe('the DNS panel', () => {
	it('lists each name with its lookups, and leads from a lookup to its event', async () => {
		await openSampleTrace(page);
		await page.getByRole('tab', { name: 'DNS' }).click();
		const names = page.getByTestId('dns-names');
		await names.waitFor();
		const want = new Map<string, number>();
		for (const l of SAMPLE_LOOKUPS) want.set(l.name, (want.get(l.name) ?? 0) + 1);
		await expect.poll(async () => await names.locator('tbody tr').count()).toBe(want.size);
		for (const [name, count] of want) {
			const row = names.locator('tbody tr').filter({ hasText: name });
			expect(await row.locator('td').nth(1).textContent(), name).toBe(String(count));
		}
		const lookups = page.getByTestId('dns-lookups');
		expect(await lookups.locator('tbody tr').count()).toBe(SAMPLE_LOOKUPS.length);
		// The asking process, not the name asked.
		const asked = await lookups.locator('tbody tr td:nth-child(2)').allTextContents();
		expect(asked.filter((p) => SAMPLE_LOOKUPS.some((l) => p.includes(l.name)))).toEqual([]);
		await screenshot(page, 'dns');

		// Picking a name narrows the lookups to it.
		await names.getByRole('button', { name: 'www.reddit.com' }).click();
		await expect.poll(() => lookups.locator('tbody tr').count()).toBe(want.get('www.reddit.com'));

		await lookups.locator('tbody tr').first().click();
		await page.getByRole('tab', { name: 'Events', selected: true }).waitFor();
		await expect.poll(async () => (await hashParams(page)).get('sel')).not.toBeNull();
		const details = page.getByTestId('details');
		await details.waitFor();
		expect(await details.textContent()).toContain('www.reddit.com');
	});

	it('names the failures by status, who asked, the sockets each answer served, and the name that never resolved', async () => {
		const bytes = buildDnsTrace().file.bytes;
		const { records } = await statsOf(bytes);
		await pickBytes(page, 'dns-failures.etl', bytes);
		await waitForImport(page, 'dns-failures.etl', records);
		await page.getByRole('tab', { name: 'DNS' }).click();

		const failures = page.getByTestId('dns-failures').locator('tbody tr');
		await failures.first().waitFor();
		const nameError = failures.filter({ hasText: 'DNS_ERROR_RCODE_NAME_ERROR' });
		expect(await nameError.locator('td').nth(1).textContent()).toBe(
			String(LOOKUPS.filter((l) => l.status === NAME_ERROR).length),
		);
		expect(await nameError.textContent()).toContain('typo.example');
		expect(await failures.count()).toBe(
			new Set(LOOKUPS.filter((l) => l.status !== 0).map((l) => l.status)).size,
		);

		// The name no lookup resolved comes first, with both processes that asked.
		const names = page.getByTestId('dns-names').locator('tbody tr');
		const typo = names.first();
		expect(await typo.locator('td').first().textContent()).toBe('typo.example');
		expect(await typo.locator('td').nth(2).textContent()).toContain('DNS_ERROR_RCODE_NAME_ERROR');
		for (const p of [EDGE, SYNC])
			expect(await typo.locator('td').nth(3).textContent()).toContain(p.name);
		// Each answer's sockets: those that connected to its address after it.
		const answered = LOOKUPS.find((l) => l.name === 'www.example.com')!;
		const sockets = CONNS.filter(
			(c) => c.remote.startsWith(answered.address!) && c.ms > answered.ms,
		).length;
		expect(sockets).toBeGreaterThan(0);
		const row = names.filter({ hasText: 'www.example.com' });
		expect(await row.locator('td').nth(5).textContent()).toBe(String(sockets));

		await page.getByRole('tab', { name: 'Sockets' }).click();
		const finding = page.getByTestId('findings').locator('[data-kind="dns-failure"]');
		await finding.waitFor();
		expect(await finding.count()).toBe(1);
		expect(await finding.textContent()).toContain('typo.example');
	});
});
