// The Owner column and the Sockets panel's exports in real Chromium, on a Windows-like trace
// (tests/builders/windows-owners.ts): a completion logged under PID 4 (System) shows its socket's
// process as its owner, and the sockets, conversations and findings download as files.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { SOCKET_TABLE } from '../../web/src/export/tables.ts';
import { ownerScript, SYSTEM, type OwnerScript } from '../builders/windows-owners.ts';
import { statsOf } from '../decoder/load.ts';
import { query } from '../export/duckdb.ts';
import { applyFilter, screenshot, waitForImport } from './analyst-page.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { openSite, pickFile, type OpenedPage } from './page.ts';

const baseUrl = inject('baseUrl');
const NAME = 'owners.etl';

let browser: Browser;
let tab: OpenedPage;
let page: Page;
let s: OwnerScript;

beforeAll(async () => {
	s = ownerScript();
	const path = join(mkdtempSync(join(tmpdir(), 'sockscope-owner-e2e-')), NAME);
	writeFileSync(path, s.bytes);
	browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
	tab = await openSite(browser, baseUrl);
	page = tab.page;
	await pickFile(page, path);
	await waitForImport(page, NAME, (await statsOf(s.bytes)).records);
});

afterEach(async ({ task }) => {
	if (task.result?.state === 'fail')
		await screenshot(page, `failed-owner-${task.name.replace(/\W+/g, '-').slice(0, 60)}`);
});

afterAll(async () => {
	expect(tab?.errors ?? []).toEqual([]);
	await browser?.close();
});

describe('the Owner column', () => {
	it("shows the socket's process for a completion logged under PID 4", async () => {
		const [endpoint] = [...s.ownerOf].find(([, pid]) => pid === s.tcp.pid)!;
		const matched = await applyFilter(page, `endpoint:${endpoint} pid:${SYSTEM}`);
		expect(matched).toBeGreaterThan(0);
		// The header's PID is not a default column: the user turns it on to see the two disagree.
		await page.getByRole('button', { name: /^Columns/ }).click();
		await page.getByRole('checkbox', { name: 'PID', exact: true }).check();
		await page.keyboard.press('Escape');
		const row = page.locator('[data-position="0"]');
		await expect.poll(() => row.locator('[data-column="pid"]').textContent()).toBe(String(SYSTEM));
		expect(await row.locator('[data-column="owner"]').textContent()).toBe(
			`${s.tcp.name} (${s.tcp.pid})`,
		);
		expect(await row.locator('[data-column="owner"]').getAttribute('title')).toContain(
			'through its socket',
		);
		// owner: selects it; the header's PID does not.
		expect(await applyFilter(page, `owner:${s.tcp.pid} pid:${SYSTEM}`)).toBeGreaterThanOrEqual(
			matched,
		);
		await page.getByRole('button', { name: /^Columns/ }).click();
		await page.getByRole('button', { name: 'Default columns' }).click();
		await page.keyboard.press('Escape');
		await applyFilter(page, '');
	});
});

describe("the Sockets panel's exports", () => {
	const save = async (table: string, format: string) => {
		const control = page.getByTestId('sockets-export');
		await control.getByRole('button', { name: /Export/ }).click();
		const [download] = await Promise.all([
			page.waitForEvent('download', { timeout: 60_000 }),
			control.locator(`[data-table="${table}"][data-format="${format}"]`).click(),
		]);
		return { name: download.suggestedFilename(), path: (await download.path())! };
	};

	it('downloads the sockets as CSV and the conversations as Parquet', async () => {
		await page.getByRole('tab', { name: 'Sockets' }).click();
		await page.getByTestId('socket-table').waitFor({ timeout: 30_000 });
		const csv = await save('sockets', 'csv');
		expect(csv.name).toBe('owners-sockets.csv');
		const lines = readFileSync(csv.path, 'utf8').trimEnd().split('\n');
		expect(lines[0]).toBe(SOCKET_TABLE.map((c) => c.name).join(','));
		expect(
			lines
				.slice(1)
				.map((l) => l.split(',')[0])
				.sort(),
		).toEqual(s.expected.map((x) => x.key).sort());
		const pq = await save('conversations', 'parquet');
		expect(pq.name).toBe('owners-conversations.parquet');
		const rows = await query(`select pid, remote from read_parquet('${pq.path}')`);
		expect(rows.some((r) => Number(r['pid']) === s.tcp.pid)).toBe(true);
	});
});
