// One dist/ for every host: at the root and under a sub-path, from a server that sends .wasm with
// the wrong type, and from one that sends no security headers at all. Each time the app must
// register its service worker for its own path, be installable, decode traces, and keep its
// Content-Security-Policy.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, type Browser } from './browser.ts';
import { expectImported } from './import-steps.ts';
import { openSite, pickFile, readFact, type OpenedPage, openSample } from './page.ts';
import { startPlainServer } from './plain-server.ts';
import { projectRoot, startServer } from './server.ts';
import {
	appManifest,
	installabilityErrors,
	serviceWorkerScope,
	waitForOfflineReady,
} from './service-worker.ts';
import { fixturesDir } from './sources.ts';

const baseUrl = inject('baseUrl');
const dist = join(projectRoot, 'dist');
const fixture = (name: string) => join(fixturesDir, name);

let browser: Browser;

beforeAll(async () => {
	browser = await launchBrowser();
});

afterAll(async () => {
	await browser?.close();
});

/** The app at `url` is installable, scoped to `url`, and decodes a trace. */
async function expectWorkingApp(tab: OpenedPage, url: string): Promise<void> {
	const { page } = tab;
	await waitForOfflineReady(page);
	expect(await serviceWorkerScope(page)).toBe(url);
	expect(await installabilityErrors(page)).toEqual([]);
	const manifest = await appManifest(page);
	expect(manifest.url).toBe(`${url}manifest.webmanifest`);
	expect(manifest.parsed).toMatchObject({ id: url, startUrl: url, scope: url });

	await pickFile(page, fixture('krabsetw-powershell-manifest.etl'));
	await expectImported(tab, 'krabsetw-powershell-manifest.etl');
	expect(await readFact(page, 'build')).toBe('22623');
}

/** What the page's own CSP does with a request to another origin (the meta tag, no header). */
function tryToLeave(page: Page): Promise<{ fetched: string; violations: string[] }> {
	return page.evaluate(async () => {
		const violations: string[] = [];
		// The violation event is queued as a task after the fetch has failed: wait for it (without
		// a policy there is none, and the test's own timeout ends the wait).
		const reported = new Promise<void>((resolve) =>
			document.addEventListener('securitypolicyviolation', (e) => {
				violations.push(`${e.effectiveDirective} ${e.blockedURI}`);
				resolve();
			}),
		);
		const fetched = await fetch('http://telemetry.invalid/collect').then(
			() => 'sent',
			() => 'blocked',
		);
		if (fetched === 'blocked') await reported;
		return { fetched, violations };
	});
}

describe('hosting', () => {
	it('works at the root of a plain static server', async () => {
		expect(new URL(baseUrl).pathname).toBe('/');
		const tab = await openSite(browser, baseUrl);
		await expectWorkingApp(tab, baseUrl);
		expect(tab.errors).toEqual([]);
		await tab.page.close();
	});

	it('works under a sub-path where .wasm comes as application/octet-stream, offline too', async () => {
		const server = await startServer([
			'dist',
			'--port',
			'0',
			'--base',
			'/tools/net/sockscope/',
			'--wasm-mime',
			'application/octet-stream',
		]);
		try {
			const wasmTypes: string[] = [];
			browser.context.on('response', (response) => {
				if (response.url().endsWith('.wasm') && response.url().startsWith(server.url)) {
					wasmTypes.push(response.headers()['content-type'] ?? '');
				}
			});
			const tab = await openSite(browser, server.url);
			await expectWorkingApp(tab, server.url);
			// instantiateStreaming refused it, and the decoder fell back to compiling the bytes.
			expect(wasmTypes.length).toBeGreaterThan(0);
			expect(new Set(wasmTypes)).toEqual(new Set(['application/octet-stream']));

			await browser.context.setOffline(true);
			try {
				// The link still names the trace on screen: it comes back from IndexedDB offline, and
				// only then is the landing page one click away (clicking before it is back races it).
				await tab.page.reload();
				await expectImported(tab, 'krabsetw-powershell-manifest.etl');
				await openSample(tab.page);
				await expectImported(tab, 'sample.etl');
			} finally {
				await browser.context.setOffline(false);
			}
			expect(tab.errors).toEqual([]);
			await tab.page.close();
		} finally {
			await server.stop();
		}
	});

	it('works from a host that sends no security headers, and keeps its CSP there', async () => {
		const server = await startPlainServer(dist, '/sockscope/');
		try {
			const tab = await openSite(browser, server.url);
			await expectWorkingApp(tab, server.url);
			expect(await tryToLeave(tab.page)).toEqual({
				fetched: 'blocked',
				violations: ['connect-src http://telemetry.invalid/collect'],
			});
			// The only console errors are Chromium reporting the blocked request.
			await expect.poll(() => tab.errors.length).toBeGreaterThan(0);
			for (const error of tab.errors) {
				expect(error).toMatch(/telemetry\.invalid.*Content Security Policy/);
			}
			await tab.page.close();
		} finally {
			await server.stop();
		}
	});
});
