// Sockscope as an installed, offline app in Chromium: install criteria, what the service worker
// precaches, files handed over by the operating system, paste and multi-file drop, the storage
// panel, and the "update available" prompt with a second build of the app.
import { SITE_BUILD_MS, SITE_UPDATE_MS } from '../timeouts.ts';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, type Browser } from './browser.ts';
import {
	captureLaunchConsumer,
	clearPrivateFiles,
	dropFiles,
	launchFiles,
	pasteFiles,
} from './hand-over.ts';
import { expectFacts, expectImported } from './import-steps.ts';
import { busyTrace } from './generated-traces.ts';
import { openSite, pickFile, readFact, type OpenedPage, openSample } from './page.ts';
import { projectRoot, startServer } from './server.ts';
import {
	appManifest,
	grantPersistentStorage,
	installabilityErrors,
	recordServiceWorkers,
	registrationState,
	type ServiceWorkerRecord,
	waitForOfflineReady,
} from './service-worker.ts';
import { buildSite } from './site-build.ts';
import { fixturesDir } from './sources.ts';

const baseUrl = inject('baseUrl');
const dist = join(projectRoot, 'dist');
const fixture = (name: string) => join(fixturesDir, name);
const TRACES = [
	'krabsetw-powershell-manifest.etl',
	'tx-win7-kernel-network.etl',
	'perfview-small-32bit-compressed.etl',
];

let browser: Browser;

beforeAll(async () => {
	browser = await launchBrowser();
});

afterAll(async () => {
	await browser?.close();
});

/**
 * The `count` newest names in the trace library, after going back to it. The library is shared by
 * every test of this file (one browser profile), so only the newest entries are this test's.
 */
async function newestInLibrary(tab: OpenedPage, count: number): Promise<string[]> {
	const { page } = tab;
	const back = page.getByRole('button', { name: '← All traces' });
	if (await back.count()) await back.click();
	await page.getByTestId('open-trace').first().waitFor();
	return (await page.getByTestId('open-trace').allTextContents()).slice(0, count);
}

describe('installing', () => {
	it('meets Chromium install criteria: manifest, icons and a service worker', async () => {
		const tab = await openSite(browser, baseUrl);
		const { page } = tab;
		await waitForOfflineReady(page);
		expect(await installabilityErrors(page)).toEqual([]);

		const manifest = await appManifest(page);
		expect(manifest.url).toBe(new URL('manifest.webmanifest', baseUrl).href);
		expect(manifest.errors).toEqual([]);
		expect(manifest.data).toMatchObject({
			start_url: './',
			scope: './',
			name: 'Sockscope',
			short_name: 'Sockscope',
			display: 'standalone',
			theme_color: '#0b6e99',
			file_handlers: [{ action: './', accept: { 'application/x-etl': ['.etl'] } }],
		});
		const icons = manifest.data.icons as { src: string; sizes: string; purpose: string }[];
		for (const size of ['192x192', '512x512']) {
			expect(icons).toContainEqual(expect.objectContaining({ sizes: size, purpose: 'any' }));
		}
		expect(icons).toContainEqual(expect.objectContaining({ purpose: 'maskable' }));
		// Every icon is served as a real PNG of the size it claims (Chromium checks, too).
		for (const icon of icons.filter((i) => i.src.endsWith('.png'))) {
			const png = readFileSync(join(dist, icon.src));
			const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
			expect(`${w}x${h}`, icon.src).toBe(icon.sizes);
		}
		expect(tab.errors).toEqual([]);
		await page.close();
	});

	it('precaches every file of the build, so a first visit is enough to work offline', async () => {
		const tab = await openSite(browser, baseUrl);
		const { page } = tab;
		await waitForOfflineReady(page);
		const cached = await page.evaluate(async () => {
			const urls: string[] = [];
			for (const name of await caches.keys()) {
				for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
			}
			return urls;
		});
		const cachedPaths = new Set(cached.map((url) => new URL(url).pathname.slice(1)));
		// The service worker's own scripts live in the browser's worker storage, not in a cache;
		// changes.json (the latest CHANGELOG entry) is read from the server on purpose: the update
		// prompt shows the waiting version's.
		const expected = listFiles(dist).filter(
			(path) => !/^(sw|workbox-[\w-]+)\.js$/.test(path) && path !== 'changes.json',
		);
		expect(expected).toEqual(
			expect.arrayContaining([
				'index.html',
				'sample.etl',
				'manifest.webmanifest',
				'icon-192.png',
				expect.stringMatching(/^assets\/decoder-[\w-]+\.wasm$/),
				expect.stringMatching(/^assets\/decoder\.worker-[\w-]+\.js$/),
			]),
		);
		expect(expected.filter((path) => !cachedPaths.has(path))).toEqual([]);
		expect(tab.errors).toEqual([]);
		await page.close();
	});
});

describe('precaching on a first visit', () => {
	/**
	 * Init script: the page's idle moments come when the test releases them, and each call to
	 * register a service worker notes whether an import was on screen then.
	 */
	async function holdIdleMoments(page: Page): Promise<void> {
		await page.addInitScript(() => {
			const w = window as unknown as {
				__idle: IdleRequestCallback[];
				__registeredWhileImporting: boolean[];
			};
			w.__idle = [];
			w.__registeredWhileImporting = [];
			window.requestIdleCallback = (callback) => w.__idle.push(callback);
			const register = ServiceWorkerContainer.prototype.register;
			ServiceWorkerContainer.prototype.register = function (this: ServiceWorkerContainer, ...args) {
				w.__registeredWhileImporting.push(
					document.querySelector('[data-testid="import-progress"]') !== null,
				);
				return register.apply(this, args);
			};
		});
	}

	/** Lets the page's idle moments come; how many it was waiting for. */
	const releaseIdle = (page: Page) =>
		page.evaluate(() => {
			const waiting = (window as unknown as { __idle: IdleRequestCallback[] }).__idle.splice(0);
			for (const callback of waiting) callback({ didTimeout: false, timeRemaining: () => 50 });
			return waiting.length;
		});

	/** How many idle moments the page is waiting for (none released). */
	const idleAsked = (page: Page) =>
		page.evaluate(() => (window as unknown as { __idle: IdleRequestCallback[] }).__idle.length);

	it('waits for an import running at its first idle moment, then makes the app work offline', async () => {
		// A profile of its own: a first visit, with no service worker yet.
		const own = await launchBrowser();
		try {
			const tab = await openSite(own, baseUrl, holdIdleMoments);
			const { page } = tab;
			const progress = page.getByTestId('import-progress');
			// The page asks for an idle moment a second after its load: it comes when released.
			await expect.poll(() => idleAsked(page)).toBe(1);
			// A long import (about 77 MB) begun before that moment, which comes as soon as the import
			// is on screen (not after the page's own delay, which a quick import could outlast).
			await pickFile(page, busyTrace(600_000, 'long').path);
			await progress.waitFor();
			expect(await releaseIdle(page)).toBe(1);
			// The import still runs after the idle moment: the registration had its chance.
			expect(await progress.isVisible()).toBe(true);
			// Cancelled, unless it ends first: on a fast or idle machine it may end as the click lands.
			await page
				.getByRole('button', { name: 'Cancel' })
				.click({ timeout: 10_000 })
				.catch(async (e: unknown) => {
					if (await progress.isVisible()) throw e;
				});
			await progress.waitFor({ state: 'detached', timeout: 30_000 });
			// Once it is over, the page waits for another idle moment, then registers.
			await expect.poll(() => releaseIdle(page)).toBe(1);
			await waitForOfflineReady(page);
			expect(
				await page.evaluate(
					() =>
						(window as unknown as { __registeredWhileImporting: boolean[] })
							.__registeredWhileImporting,
				),
			).toEqual([false]);
			expect(tab.errors).toEqual([]);
			await page.close();
		} finally {
			await own.close();
		}
	}, 180_000);
});

describe('traces from outside the page', () => {
	it('imports the traces an installed app is launched with (launchQueue)', async () => {
		const tab = await openSite(browser, baseUrl, captureLaunchConsumer);
		const { page } = tab;
		await launchFiles(page, [fixture(TRACES[0]!), fixture(TRACES[1]!)]);
		// One after another; the last one stays on screen.
		await expectImported(tab, TRACES[1]!);
		expect(await newestInLibrary(tab, 2)).toEqual([TRACES[1], TRACES[0]]);

		// A second launch into the open window (launch_handler focus-existing) adds to them.
		await launchFiles(page, [fixture(TRACES[2]!)]);
		await expectImported(tab, TRACES[2]!);
		expect(await readFact(page, 'pointerSize')).toBe('4');
		expect(await newestInLibrary(tab, 3)).toEqual([TRACES[2], TRACES[1], TRACES[0]]);
		await clearPrivateFiles(page);
		expect(tab.errors).toEqual([]);
		await page.close();
	});

	it('imports several traces pasted, dropped or picked at once', async () => {
		const tab = await openSite(browser, baseUrl);
		const { page } = tab;
		await pasteFiles(page, [fixture(TRACES[0]!), fixture(TRACES[2]!)]);
		await expectImported(tab, TRACES[2]!);
		expect(await newestInLibrary(tab, 2)).toEqual([TRACES[2], TRACES[0]]);

		await dropFiles(page, [fixture(TRACES[1]!), fixture(TRACES[0]!)]);
		await expectImported(tab, TRACES[0]!);
		expect(await readFact(page, 'build')).toBe('22623');
		expect(await page.getByTestId('drop-zone').getAttribute('data-dragging')).toBe('false');
		expect(await newestInLibrary(tab, 4)).toEqual([TRACES[0], TRACES[1], TRACES[2], TRACES[0]]);

		await page
			.getByLabel('Choose a trace')
			.setInputFiles([fixture(TRACES[2]!), fixture(TRACES[1]!)]);
		await expectImported(tab, TRACES[1]!);
		expect(await newestInLibrary(tab, 2)).toEqual([TRACES[1], TRACES[2]]);
		expect(tab.errors).toEqual([]);
		await page.close();
	});
});

describe('the storage panel', () => {
	/** Counts navigator.storage.persist() calls, to see when the app asks. */
	const countPersistCalls = (page: OpenedPage['page']) =>
		page.addInitScript(() => {
			const w = window as { __persistCalls?: number };
			w.__persistCalls = 0;
			const original = StorageManager.prototype.persist;
			StorageManager.prototype.persist = function (this: StorageManager) {
				w.__persistCalls! += 1;
				return original.call(this);
			};
		});
	const persistCalls = (tab: OpenedPage) =>
		tab.page.evaluate(() => (window as { __persistCalls?: number }).__persistCalls);

	it('shows usage, quota, persistence and offline state; asks to persist on the first import', async () => {
		const tab = await openSite(browser, baseUrl, countPersistCalls);
		const { page } = tab;
		const panel = page.getByTestId('storage-panel');
		await waitForOfflineReady(page);

		const usage = Number(await panel.getByTestId('storage-usage').getAttribute('data-bytes'));
		const quota = Number(await panel.getByTestId('storage-quota').getAttribute('data-bytes'));
		expect(quota).toBeGreaterThan(0);
		expect(usage).toBeLessThanOrEqual(quota);
		expect(await panel.getByTestId('offline-status').textContent()).toContain('Ready');
		expect(await panel.getByTestId('app-version').textContent()).toBe(packageVersion());

		// Not on load: only when a trace comes in, and only once.
		const persisted = panel.getByTestId('storage-persisted');
		expect(await persistCalls(tab)).toBe(0);
		expect(await persisted.getAttribute('data-state')).toBe('not-asked');
		await openSample(page);
		await expectImported(tab, 'sample.etl');
		expect(await persistCalls(tab)).toBe(1);
		// Headless Chromium has no engagement signals, so it declines: the panel says what that means.
		await expect.poll(() => persisted.getAttribute('data-state')).toBe('denied');
		await pasteFiles(page, [fixture(TRACES[0]!)]);
		await expectImported(tab, TRACES[0]!);
		expect(await persistCalls(tab)).toBe(1);
		// The import ends a moment after its bar is full (the copy, the sockets), and its end
		// refreshes this panel (begun as the bar goes): once granted below, that would take away
		// the button clicked.
		await page.getByTestId('import-progress').waitFor({ state: 'detached', timeout: 30_000 });
		await page.locator('[data-testid="storage-panel"][aria-busy="false"]').waitFor();
		// Two traces are stored now: the panel counts their bytes.
		const stored = Number(await panel.getByTestId('storage-usage').getAttribute('data-bytes'));
		expect(stored).toBeGreaterThan(0);
		expect(stored).toBeLessThanOrEqual(quota);

		// What an installed app gets: Chromium grants persistence and the panel shows it.
		await grantPersistentStorage(page, new URL(baseUrl).origin);
		await panel.getByRole('button', { name: 'Ask again' }).click();
		await expect.poll(() => persisted.getAttribute('data-state')).toBe('persistent');
		expect(await persisted.textContent()).toBe('Persistent');
		expect(tab.errors).toEqual([]);
		await page.close();
	});

	it('lists each stored trace by size and deletes it', async () => {
		const tab = await openSite(browser, baseUrl);
		const { page } = tab;
		// Two of its own, so the list has something to sort even when this test runs alone.
		await pasteFiles(page, [fixture(TRACES[0]!), fixture(TRACES[2]!)]);
		await expectImported(tab, TRACES[2]!);

		const stored = page.getByTestId('stored-traces');
		await stored.locator('summary').click();
		const rows = stored.locator('tbody tr');
		// The library's keys grow, so the newest trace (the one just pasted) has the largest id. The
		// list is re-read when the import has returned, which may be a moment after its last byte.
		const newestRow = async () => {
			const ids = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.traceId)));
			const id = Math.max(...ids);
			return { id, name: await stored.locator(`tr[data-trace-id="${id}"] .name`).textContent() };
		};
		await expect.poll(async () => (await newestRow()).name).toBe(TRACES[2]);
		const newest = (await newestRow()).id;

		const sizes = await rows.evaluateAll((trs) =>
			trs.map((tr) => Number(tr.querySelector('[data-bytes]')?.getAttribute('data-bytes'))),
		);
		expect(sizes.every((n) => n > 0)).toBe(true);
		expect(sizes, 'largest first').toEqual([...sizes].sort((a, b) => b - a));
		expect(await stored.getByTestId('stored-traces-summary').textContent()).toMatch(
			new RegExp(`^${sizes.length} · `),
		);

		const row = stored.locator(`tr[data-trace-id="${newest}"]`);
		await row.getByRole('button', { name: `Delete ${TRACES[2]} from this device` }).click();
		await expect.poll(() => row.count()).toBe(0);
		await expect.poll(() => rows.count()).toBe(sizes.length - 1);
		// It was on screen: the view closes, and the library (the same store) no longer lists it.
		await page.getByRole('button', { name: '← All traces' }).waitFor({ state: 'detached' });
		await page.getByTestId('open-trace').first().waitFor();
		expect(await page.locator(`li[data-trace-id="${newest}"]`).count()).toBe(0);
		expect(tab.errors).toEqual([]);
		await page.close();
	});
});

describe('a new version', () => {
	const NEXT_VERSION = `${packageVersion()}+update-test`;
	let work: string;

	beforeAll(async () => {
		work = mkdtempSync(join(tmpdir(), 'sockscope-update-'));
		await buildSite(join(work, 'next'), { SOCKSCOPE_VERSION: NEXT_VERSION });
	}, SITE_BUILD_MS);

	afterAll(() => {
		if (work) rmSync(work, { recursive: true, force: true });
	});

	it(
		'is offered with a prompt instead of replacing the app, and Reload switches to it',
		async () => {
			// One origin serves the current build, then the next one from the same directory.
			const site = join(work, 'site');
			cpSync(dist, site, { recursive: true });
			const server = await startServer([site, '--port', '0']);
			try {
				let record!: ServiceWorkerRecord;
				const tab = await openSite(browser, server.url, async (page) => {
					record = await recordServiceWorkers(page, new URL(server.url).origin);
				});
				const { page } = tab;
				const version = page.getByTestId('app-version');
				await waitForOfflineReady(page);
				expect(await version.textContent()).toBe(packageVersion());
				expect(await page.getByTestId('update-prompt').count()).toBe(0);

				rmSync(site, { recursive: true });
				cpSync(join(work, 'next'), site, { recursive: true });
				// The browser looks for a new service worker on every navigation.
				await page.reload();
				const prompt = page.getByTestId('update-prompt');
				await prompt.waitFor({ timeout: 30_000 });
				expect(await prompt.textContent()).toContain('Update available');
				// It says what the waiting version brings: its CHANGELOG entry, read from the server.
				await expect
					.poll(() => prompt.getByTestId('update-changes').locator('summary').textContent(), {
						timeout: 30_000,
					})
					.toBe(`What's new in ${NEXT_VERSION}`);
				// Until the user says so, the page keeps running the version it was loaded with.
				expect(await version.textContent()).toBe(packageVersion());

				// "Later" hides it for this page; a reload does not activate the waiting version.
				await prompt.getByRole('button', { name: 'Later' }).click();
				expect(await prompt.count()).toBe(0);
				await page.reload();
				await prompt.waitFor({ timeout: 30_000 });
				expect(await version.textContent()).toBe(packageVersion());

				// Reload is pressed while a request of the page wakes the old worker. Chromium then
				// kept the new version waiting (5 minutes with DevTools attached, as here) if the page
				// asked it to take over straight away: the app stayed on the old version about one run
				// in four on a busy machine, when the decoder's WASM request came with the press, and
				// three runs in three with this forcing. Forced here every time: the old worker
				// stopped, then a request and the press in one go.
				const old = record.versions().find((v) => v.status === 'activated');
				expect(old, 'the old version is active').toBeDefined();
				const stopped = record.stops(old!.versionId);
				await record.session.send('ServiceWorker.stopWorker', { versionId: old!.versionId });
				// A request of the page may start it again at once: that is the case tested too.
				const oldStopped = () =>
					record.stops(old!.versionId) > stopped ||
					record.versions().find((v) => v.versionId === old!.versionId)?.runningStatus ===
						'stopped';
				await expect
					.poll(oldStopped)
					.toBe(true)
					.catch((cause: unknown) => {
						throw new Error(`the old worker did not stop:\n${record.lines().join('\n')}`, {
							cause,
						});
					});
				record.note('the old worker stopped; a request and Reload');
				await page.evaluate(() => {
					void fetch('./favicon.svg');
					const prompt = document.querySelector('[data-testid="update-prompt"]');
					const reload = [...(prompt?.querySelectorAll('button') ?? [])].find(
						(b) => b.textContent?.trim() === 'Reload',
					);
					if (!reload) throw new Error('no Reload button in the update prompt');
					reload.click();
				});
				record.note('Reload pressed');
				// One press must be enough. A watchdog, not a speed test: on a loaded machine the new
				// worker's activation, the reload and the app's start can take more than 30 s together.
				const switched = await expect
					.poll(() => version.textContent(), { timeout: 90_000, interval: 500 })
					.toBe(NEXT_VERSION)
					.then(() => true)
					.catch(() => false);
				if (!switched) {
					record.note(`the page shows ${await version.textContent().catch(() => '?')}`);
					record.note(`the registration: ${JSON.stringify(await registrationState(page))}`);
				}
				expect(
					switched,
					`Reload did not switch to ${NEXT_VERSION}:\n${record.lines().join('\n')}`,
				).toBe(true);
				expect(await prompt.count()).toBe(0);

				// The new version works, offline included.
				await waitForOfflineReady(page);
				await openSample(page);
				await expectFacts(tab, 'sample.etl');
				expect(tab.errors).toEqual([]);
				await record.stop();
				await page.close();
			} finally {
				await server.stop();
			}
		},
		SITE_UPDATE_MS,
	);
});

function packageVersion(): string {
	return (
		JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string }
	).version;
}

/** Files under `dir`, as slash-separated paths relative to it. */
function listFiles(dir: string): string[] {
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
		.sort();
}
