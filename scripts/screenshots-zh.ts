// The Chinese screenshots (`npm run screenshots -- zh [NAME…]`): every page in 中文 at 1440×900,
// written to docs/screenshots/zh/. A zh-CN browser gets the Chinese page; the labels are the
// catalogue's. The pages: landing and storage, events with details, statistics, sockets with
// findings, a story, lanes, conversations, trace facts, DNS, a capture's packets, an import
// error, a damaged trace's damage in the library, the comparison of two runs and the update prompt
// (a second build of the site served over the first, as tests/e2e/pwa.test.ts does).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { zh } from '../web/src/i18n/zh.ts';
import { netshCaptureScenario } from '../tests/builders/netsh-capture.ts';
import { run } from '../tests/compare/workload.ts';
import { launchBrowser } from '../tests/e2e/browser.ts';
import { listedComplete, openFirstChange } from '../tests/e2e/compare-steps.ts';
import { buildSite } from '../tests/e2e/site-build.ts';
import { projectRoot, startServer } from '../tests/e2e/server.ts';
import { waitForOfflineReady } from '../tests/e2e/service-worker.ts';

/** The pictures taken on the sample trace, in one visit. */
const SAMPLE_SHOTS = [
	'landing',
	'storage',
	'events-details',
	'filter-error',
	'statistics',
	'sockets-findings',
	'story',
	'lanes',
	'conversations',
	'trace-facts',
	'dns',
] as const;

export const ZH_SHOTS = [
	...SAMPLE_SHOTS,
	'packets',
	'packet-filter-error',
	'packet-details',
	'import-error',
	'library-damage',
	'compare',
	'update',
] as const;

const NO_FADES = '* { transition: none !important; animation: none !important; }';

export async function zhShots(only: readonly string[]): Promise<void> {
	const wanted = (name: string) => only.length === 0 || only.includes(name);
	const out = join(projectRoot, 'docs', 'screenshots', 'zh');
	mkdirSync(out, { recursive: true });
	const server = await startServer(['dist', '--port', '0']);
	const browser = await launchBrowser({
		locale: 'zh-CN',
		viewport: { width: 1440, height: 900 },
		colorScheme: 'light',
	});
	const page = await browser.context.newPage();
	const shoot = async (name: string, selector?: string) => {
		if (!wanted(name)) return;
		const path = join(out, `${name}.png`);
		if (selector) await page.locator(selector).screenshot({ path });
		else await page.screenshot({ path });
		console.log(`screenshots: wrote docs/screenshots/zh/${name}.png`);
	};
	const open = async (url: string, toasts = false) => {
		await page.goto(url);
		await page.addStyleTag({
			content: NO_FADES + (toasts ? '' : ' .toasts { display: none !important; }'),
		});
		await page.getByRole('heading', { level: 1, name: 'Sockscope' }).waitFor();
	};
	const pick = (name: string, bytes: Uint8Array) =>
		page
			.getByTestId('file-input')
			.setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
	const settled = (filter: string) =>
		page
			.locator(`[data-testid="filter-status"][data-filter="${filter.replace(/["\\]/g, '\\$&')}"]`)
			.filter({ hasNotText: zh['trace.importing']!.trim() })
			.getByTestId('match-count')
			.waitFor({ timeout: 120_000 });
	const filter = async (text: string) => {
		await page.locator('#filter-input').fill(text);
		await page.locator('#filter-input').press('Enter');
		if (!text.includes('colour')) await settled(text);
	};
	const panel = (key: string) => page.getByRole('tab', { name: zh[key] }).click();

	try {
		await open(server.url);
		if (SAMPLE_SHOTS.some(wanted)) await sampleShots(page);
		if (['packets', 'packet-filter-error', 'packet-details'].some(wanted)) await packetShots();
		if (wanted('import-error')) await importError();
		if (wanted('library-damage')) await libraryDamage();
		if (wanted('compare')) await compareShot();
		if (wanted('update')) await updateShot();
	} finally {
		await browser.close();
		await server.stop();
	}

	async function sampleShots(page: Page) {
		await page.getByTestId('storage-panel').waitFor();
		await shoot('landing');
		await shoot('storage', '[data-testid="storage-panel"]');
		await page.getByRole('button', { name: zh['drop.sample'] }).click();
		await settled('');
		// A refused connect selected: its fields, the NTSTATUS explained.
		await filter('status:error');
		await page.locator('[role="row"][data-position="0"] [data-column="time"]').click();
		await page.getByTestId('details').waitFor();
		await shoot('events-details');
		await filter('colour:red');
		await page.getByTestId('filter-error').waitFor();
		await shoot('filter-error');
		await filter('');

		await panel('trace.panel-stats');
		await page.waitForTimeout(500);
		await shoot('statistics');

		await panel('trace.panel-sockets');
		await page.getByTestId('socket-table').locator('tbody tr').first().waitFor({ timeout: 60_000 });
		await page.getByTestId('findings').waitFor({ timeout: 60_000 });
		await shoot('sockets-findings');
		await page.getByTestId('socket-table').locator('tbody tr.failed').first().click();
		await page.getByTestId('socket-story').waitFor();
		await shoot('story', 'section.list');
		await shoot('lanes', 'section.lanes-box');
		await shoot('conversations', 'section.conversations');

		await panel('trace.panel-events');
		const box = page.locator('details.facts-box');
		if (!(await box.evaluate((d) => (d as HTMLDetailsElement).open)))
			await box.locator('summary').click();
		await page.getByTestId('trace-facts').waitFor();
		await shoot('trace-facts', 'details.facts-box');
		// Closed again: the facts box would fill the next pages' screenshots.
		await box.locator('summary').click();

		await page.evaluate(() => scrollTo(0, 0));
		await panel('trace.panel-dns');
		await page.getByTestId('dns-names').waitFor({ timeout: 60_000 });
		await shoot('dns');
	}

	async function packetShots() {
		await open(server.url);
		const s = netshCaptureScenario();
		await pick('netsh-capture.etl', s.bytes);
		await page
			.getByTestId('filter-status')
			.filter({ hasNotText: zh['trace.importing']!.trim() })
			.getByTestId('total-count')
			.waitFor({ timeout: 120_000 });
		await panel('trace.panel-packets');
		await page
			.locator('[data-testid="packet-status"][data-filter=""]')
			.waitFor({ timeout: 60_000 });
		await shoot('packets');
		// A filter the packets do not take: what is wrong, in Chinese.
		await page.getByTestId('packet-filter').fill('tcp.nosuch==1');
		await page.getByTestId('packet-filter').press('Enter');
		await page.getByTestId('packet-error').waitFor();
		await shoot('packet-filter-error', '[data-testid="packets"]');
		await page.getByTestId('packet-filter').fill('');
		await page.getByTestId('packet-filter').press('Enter');
		await page.getByTestId('packet-error').waitFor({ state: 'detached' });
		// An unowned frame (ARP or neighbor discovery) says why it has no socket.
		await page.getByTestId('packet-row').last().click();
		await page.getByTestId('packet-details').waitFor();
		await shoot('packet-details');
	}

	async function importError() {
		await open(server.url);
		await pick('damaged.etl', new TextEncoder().encode('this is no trace\n'.repeat(20)));
		await page.getByTestId('error').waitFor({ timeout: 30_000 });
		await shoot('import-error');
	}

	// The sample with one buffer's BufferSize broken: imported to the end, its damage listed.
	async function libraryDamage() {
		await open(server.url);
		const bytes = readFileSync(join(projectRoot, 'public', 'sample.etl'));
		bytes.writeUInt32LE(0x7fffffff, 0x30000);
		await pick('damaged-sample.etl', bytes);
		const item = page
			.locator('li[data-trace-id][data-status="damaged"]')
			.filter({ hasText: 'damaged-sample.etl' });
		await item.waitFor({ timeout: 120_000 });
		await open(server.url);
		await item.getByTestId('trace-damage').waitFor();
		await shoot('library-damage', 'section.library');
	}

	// Two runs of one workload compared (one refused by its API host every time), the change
	// opened: both sides' figures and sockets.
	async function compareShot() {
		const runs = [
			{ name: 'works.etl', bytes: run(41) },
			{ name: 'fails.etl', bytes: run(1041, 'refused') },
		];
		for (const r of runs) {
			await open(server.url);
			await pick(r.name, r.bytes);
			await listedComplete(page, r.name, 120_000);
		}
		await open(server.url);
		await openFirstChange(
			page,
			runs.map((r) => r.name),
		);
		await page.getByTestId('compare-detail').waitFor();
		await shoot('compare', 'section.compare');
	}

	// The page loaded from one build while a newer one is installed and waits: its prompt.
	async function updateShot() {
		const work = mkdtempSync(join(tmpdir(), 'sockscope-shots-'));
		const site = join(work, 'site');
		cpSync(join(projectRoot, 'dist'), site, { recursive: true });
		const next = join(work, 'next');
		const built = buildSite(next, { SOCKSCOPE_VERSION: '0.2.0' });
		const own = await startServer([site, '--port', '0']);
		try {
			await open(own.url, true);
			await waitForOfflineReady(page);
			await built;
			rmSync(site, { recursive: true });
			cpSync(next, site, { recursive: true });
			await page.reload();
			const prompt = page.getByTestId('update-prompt');
			await prompt.waitFor({ timeout: 60_000 });
			const changes = prompt.getByTestId('update-changes');
			await changes.waitFor({ timeout: 30_000 });
			// Open, to show what is new in Chinese (CHANGELOG.zh.md).
			await changes.locator('summary').click();
			await shoot('update');
		} finally {
			await own.stop();
			rmSync(work, { recursive: true, force: true });
		}
	}
}
