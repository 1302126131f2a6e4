// "Nothing leaves your machine", tested: a whole session in Chromium with every request recorded
// twice (Playwright's request events, and a proxy that everything but 127.0.0.1 goes through), a
// check that those witnesses do catch a request to another host, the app working with the network
// off after the first visit, and hostile strings from a trace rendered as text only.
//
// The session is a list of steps: when a new feature lands (export, charts…), append its step to
// SESSION and the test covers it too.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, type Browser } from './browser.ts';
import {
	HOSTILE_FILE_NAME,
	HOSTILE_MARKUP,
	HOSTILE_SCRIPT,
	hostileTrace,
} from './hostile-trace.ts';
import { expectFacts, expectImported } from './import-steps.ts';
import { openSite, pickBytes, pickFile, readFact, type OpenedPage, openSample } from './page.ts';
import {
	RequestLog,
	notChromiumServices,
	startRecordingProxy,
	type RecordingProxy,
} from './request-log.ts';
import { startServer } from './server.ts';
import { waitForOfflineReady } from './service-worker.ts';
import { fixturesDir } from './sources.ts';
import { OFFLINE_IMPORT_MS, OFFLINE_WALK_MS } from '../timeouts.ts';

const baseUrl = inject('baseUrl');
const origin = new URL(baseUrl).origin;
const fixture = (name: string) => join(fixturesDir, name);
const TRACE = 'krabsetw-powershell-manifest.etl';

let proxy: RecordingProxy;
let browser: Browser;
let log: RequestLog;

beforeAll(async () => {
	proxy = await startRecordingProxy();
	browser = await launchBrowser({ proxy: proxy.url });
	log = new RequestLog(browser.context);
});

afterAll(async () => {
	await browser?.close();
	await proxy?.stop();
});

async function showLibrary(page: Page): Promise<void> {
	const back = page.getByRole('button', { name: '← All traces' });
	if (await back.count()) await back.click();
	await page.getByTestId('open-trace').first().waitFor();
}

interface Step {
	readonly name: string;
	run(tab: OpenedPage): Promise<void>;
}

/** What a user does in one visit, in order. Append new features here. */
const SESSION: readonly Step[] = [
	{
		name: 'load the app; it saves itself for offline use',
		run: ({ page }) => waitForOfflineReady(page),
	},
	{
		name: 'import a trace with the file picker',
		run: async (tab) => {
			await pickFile(tab.page, fixture(TRACE));
			await expectImported(tab, TRACE);
		},
	},
	{
		name: 'import the sample trace',
		run: async (tab) => {
			await openSample(tab.page);
			await expectImported(tab, 'sample.etl');
		},
	},
	{
		name: 'filter the events',
		run: async ({ page }) => {
			// Counts are shown with digit grouping ("2,039").
			const count = async (testId: string) =>
				Number(((await page.getByTestId(testId).textContent()) ?? '').replace(/,/g, ''));
			await page.getByTestId('total-count').waitFor({ timeout: 30_000 });
			const total = await count('total-count');
			await page.locator('#filter-input').fill('event:AfdConnect*');
			await page.locator('#filter-input').press('Enter');
			await expect.poll(() => count('match-count')).toBeLessThan(total);
			expect(await count('match-count')).toBeGreaterThan(0);
		},
	},
	{
		name: "open an event's details",
		run: async ({ page }) => {
			// The second match: a click on the row already selected opens its filter menu instead.
			await page.locator('[data-position="1"]').click();
			await page.getByTestId('details').waitFor();
		},
	},
	{
		// The facts panel starts folded: open it, then copy the facts as JSON to the clipboard.
		name: 'copy the trace facts as JSON',
		run: async ({ page }) => {
			await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
			await page.locator('.facts-box > summary').click();
			await page.getByRole('button', { name: 'Copy as JSON' }).click();
			await page.getByRole('button', { name: 'Copied' }).waitFor();
			const copied = await page.evaluate(() => navigator.clipboard.readText());
			expect(JSON.parse(copied)).toMatchObject({ fileName: 'sample.etl' });
		},
	},
	{
		name: 'export the filtered events as CSV and NDJSON',
		run: async ({ page }) => {
			for (const label of [/as CSV/, /as NDJSON/]) {
				await page.getByRole('button', { name: 'Export ▾' }).click();
				const [download] = await Promise.all([
					page.waitForEvent('download'),
					page.getByRole('menuitem', { name: label }).click(),
				]);
				expect(await download.failure()).toBeNull();
			}
		},
	},
	{
		name: 'look at the statistics and the sockets',
		run: async ({ page }) => {
			await page.getByRole('tab', { name: 'Statistics' }).click();
			await page.getByRole('tab', { name: 'Sockets' }).click();
			await page.getByRole('tab', { name: 'Events' }).click();
		},
	},
	{
		name: 'reopen a stored trace from the library',
		run: async (tab) => {
			await showLibrary(tab.page);
			await tab.page.getByTestId('open-trace').filter({ hasText: TRACE }).first().click();
			await expectFacts(tab, TRACE);
		},
	},
	{
		name: 'reload: the app comes from the service worker, the library from IndexedDB',
		run: async ({ page }) => {
			await page.reload();
			await page.getByRole('heading', { level: 1, name: 'Sockscope' }).waitFor();
			await showLibrary(page);
		},
	},
	{
		name: 'delete a trace',
		run: async ({ page }) => {
			const entries = page.getByTestId('open-trace');
			const before = await entries.count();
			await page.getByTestId('delete-trace').first().click();
			await expect.poll(() => entries.count()).toBe(before - 1);
		},
	},
];

describe('a whole session', () => {
	it('sends no request to any other origin, and the console shows no CSP violation', async () => {
		const from = log.requests.length;
		const proxied = proxy.seen.length;
		const tab = await openSite(browser, baseUrl);
		const leaks: string[] = [];
		for (const step of SESSION) {
			const mark = log.requests.length;
			await step.run(tab);
			for (const r of log.leaving(origin).filter((r) => log.requests.indexOf(r) >= mark)) {
				leaks.push(`${step.name}: ${r.method} ${r.url} (${r.type}, from the ${r.from})`);
			}
		}
		expect(leaks).toEqual([]);
		expect(notChromiumServices(proxy.seen.slice(proxied)), 'requests at the proxy').toEqual([]);
		// Console errors include every "Refused to connect/load … Content Security Policy" line.
		expect(tab.errors).toEqual([]);

		// The log did record the session: the page, the service worker, the WASM and the sample.
		const paths = log.requests.slice(from).map((r) => new URL(r.url).pathname);
		expect(paths).toEqual(
			expect.arrayContaining([
				'/',
				'/sw.js',
				'/sample.etl',
				expect.stringMatching(/^\/assets\/decoder-[\w-]+\.wasm$/),
			]),
		);
		expect(log.requests.slice(from).some((r) => r.from === 'service worker')).toBe(true);
		await tab.page.close();
	});

	it('would fail if anything phoned home: the witnesses and the CSP are live', async () => {
		const tab = await openSite(browser, baseUrl);
		const { page } = tab;
		const proxied = proxy.seen.length;

		// From the app: the Content-Security-Policy stops these before the network, and says so.
		const blocked = await page.evaluate(async () => {
			const violations: string[] = [];
			// Both violations (the fetch's and the image's) come as tasks: wait for the two kinds
			// (each may be reported once per policy: the header's and the page's own).
			const reported = new Promise<void>((resolve) =>
				document.addEventListener('securitypolicyviolation', (e) => {
					violations.push(`${e.effectiveDirective} ${e.blockedURI}`);
					const kinds = new Set(violations.map((v) => v.split(' ')[0]));
					if (kinds.has('connect-src') && kinds.has('img-src')) resolve();
				}),
			);
			const fetched = await fetch('http://telemetry.invalid/collect', { method: 'POST' }).then(
				() => 'sent',
				() => 'blocked',
			);
			const image = new Image();
			image.src = 'http://telemetry.invalid/pixel.gif';
			if (fetched === 'blocked') await reported;
			return { fetched, violations };
		});
		expect(blocked.fetched).toBe('blocked');
		expect(blocked.violations).toEqual(
			expect.arrayContaining([
				'connect-src http://telemetry.invalid/collect',
				'img-src http://telemetry.invalid/pixel.gif',
			]),
		);
		await expect
			.poll(() => tab.errors.filter((e) => e.includes('Content Security Policy')).length)
			.toBeGreaterThanOrEqual(2);

		// Where no CSP applies (a blank tab here; a worker on a host without the header), the
		// request goes out, and both witnesses see it.
		const blank = await browser.context.newPage();
		await blank.goto('http://telemetry.invalid/ping').catch(() => undefined);
		await blank.close();
		expect(notChromiumServices(proxy.seen.slice(proxied))).toContain(
			'GET http://telemetry.invalid/ping',
		);
		expect(log.leaving(origin).map((r) => r.url)).toContain('http://telemetry.invalid/ping');
		await page.close();
	});
});

describe('hostile strings in a trace', () => {
	it('are shown as text and never run', async () => {
		const tab = await openSite(browser, baseUrl);
		const { page } = tab;
		const xRequests = () =>
			log.requests.filter((r) => new URL(r.url).pathname.endsWith('/x')).length;
		const before = xRequests();
		await pickBytes(page, HOSTILE_FILE_NAME, hostileTrace());
		await expectImported(tab, HOSTILE_FILE_NAME);

		expect(await readFact(page, 'fileName')).toBe(HOSTILE_FILE_NAME);
		expect(await readFact(page, 'loggerName')).toBe(HOSTILE_MARKUP);
		expect(await readFact(page, 'logFileName')).toBe(`C:\\traces\\${HOSTILE_MARKUP}.etl`);
		expect(await page.title()).toBe(`${HOSTILE_FILE_NAME} · Sockscope`);

		// The events table names the process by its image name, and the details pane shows the
		// TraceLogging string fields.
		const rows = page.locator('[data-testid="event-scroller"] [role="row"]');
		await expect.poll(() => rows.count()).toBeGreaterThan(0);
		const table = page.getByRole('grid', { name: 'Events' });
		await expect.poll(() => table.textContent()).toContain(HOSTILE_MARKUP);
		// Rows load in the background (and reload when the import ends): go through them until the
		// TraceLogging event's details show, and keep what they said.
		const details = page.getByTestId('details');
		let shown = '';
		await expect
			.poll(
				async () => {
					for (let i = 0; i < (await rows.count()); i++) {
						await rows.nth(i).click();
						shown = (await details.textContent({ timeout: 5_000 }).catch(() => '')) ?? '';
						if (shown.includes(HOSTILE_SCRIPT)) return true;
					}
					return false;
				},
				{ timeout: 60_000 },
			)
			.toBe(true);
		expect(shown).toContain(HOSTILE_MARKUP);

		// Give an injected <img> the time to fail and fire onerror, then look for any trace of it.
		await page.waitForTimeout(300);
		expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
		const images = await page
			.locator('img')
			.evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src')));
		expect(images).toEqual(['./favicon.svg']);
		expect(await page.locator('script:not([src])').count()).toBe(0);
		expect(xRequests(), 'a request for the injected image').toBe(before);
		// Still the app's page (the view keeps its state in the fragment, which is fine).
		const url = new URL(page.url());
		expect(url.origin + url.pathname).toBe(baseUrl);
		expect(tab.errors).toEqual([]);
		await page.close();
	});
});

describe('with the network off after the first visit', () => {
	it(
		'starts, imports a new trace, and works through the library',
		async () => {
			// A server of its own, so it can be stopped: then nothing answers at all.
			const server = await startServer(['dist', '--port', '0']);
			const tab = await openSite(browser, server.url);
			const { page } = tab;
			try {
				await waitForOfflineReady(page);
				await openSample(page);
				await expectImported(tab, 'sample.etl');
			} finally {
				await server.stop();
			}
			await browser.context.setOffline(true);
			try {
				await page.reload();
				await page.getByRole('heading', { level: 1, name: 'Sockscope' }).waitFor();
				expect(
					await page.getByTestId('offline-status').getAttribute('data-state'),
					'controlled by the service worker',
				).toBe('ready');

				// The reload restores the trace in the URL, as a user sees before picking another:
				// a pick while the page swaps its landing view for the trace's would be lost with
				// the input it went to.
				await expectFacts(tab, 'sample.etl');

				// A trace never seen before: the decoder worker and its WASM come from the cache.
				await pickFile(page, fixture(TRACE));
				await expectImported(tab, TRACE, OFFLINE_IMPORT_MS);
				expect(await readFact(page, 'build')).toBe('22623');

				// What was imported online is still there.
				await showLibrary(page);
				await page.getByTestId('open-trace').filter({ hasText: 'sample.etl' }).first().click();
				await expectFacts(tab, 'sample.etl');

				// A second tab opens from the cache too.
				const second = await openSite(browser, server.url);
				await openSample(second.page);
				await expectImported(second, 'sample.etl', OFFLINE_IMPORT_MS);
				expect(second.errors).toEqual([]);
				await second.page.close();
			} finally {
				await browser.context.setOffline(false);
			}
			expect(tab.errors).toEqual([]);
			await page.close();
		},
		OFFLINE_WALK_MS,
	);
});
