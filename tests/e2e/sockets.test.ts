// The Sockets panel on the bundled sample, in real Chromium: the list against the writer's ground
// truth, a finding narrowing the list, two clicks from a finding to its exact events, the lanes.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildSample, type SampleTruth } from '../builders/sample.ts';
import { SAMPLE_LOOKUPS } from '../builders/sample-net.ts';
import { answerFor, openSampleTrace, screenshot } from './analyst-page.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { openSite, type OpenedPage } from './page.ts';

const baseUrl = inject('baseUrl');
const { truth } = buildSample() as { truth: SampleTruth };
const refused = truth.sockets.find((s) => s.error === 'STATUS_CONNECTION_REFUSED')!;

let browser: Browser;
let tab: OpenedPage;
let page: Page;

beforeAll(async () => {
	browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
	tab = await openSite(browser, baseUrl);
	page = tab.page;
	expect(await openSampleTrace(page)).toBe(truth.totalRecords);
});

afterEach(async ({ task }) => {
	if (task.result?.state === 'fail')
		await screenshot(page, `failed-sockets-${task.name.replace(/\W+/g, '-').slice(0, 60)}`);
});

afterAll(async () => {
	expect(tab?.errors ?? []).toEqual([]);
	await browser?.close();
});

const rowsOf = (p: Page) => p.getByTestId('socket-table').locator('tbody tr');

describe('the Sockets panel on the sample', () => {
	it('lists exactly the sockets of the ground truth', async () => {
		await page.getByRole('tab', { name: 'Sockets' }).click();
		await page.getByTestId('socket-table').waitFor({ timeout: 30_000 });
		const rows = rowsOf(page);
		expect(await rows.count()).toBe(truth.sockets.length);
		expect(await page.getByTestId('socket-count').textContent()).toContain(
			`${truth.sockets.length} of ${truth.sockets.length}`,
		);
		for (const s of truth.sockets) {
			const row = rows.filter({ hasText: s.endpoint }).filter({ hasText: s.remote ?? s.local! });
			expect(await row.count(), `${s.process} ${s.remote}`).toBe(1);
			expect(await row.locator('[data-col="process"]').textContent()).toContain(
				`${s.process} (${s.pid})`,
			);
			if (s.local) expect(await row.locator('[data-col="local"]').textContent()).toContain(s.local);
			if (s.error) expect(await row.locator('[data-col="error"]').textContent()).toContain(s.error);
			if (s.state === 'open')
				expect(await row.locator('[data-col="state"]').textContent()).toContain('open');
			if (s.state === 'listening')
				expect(await row.locator('[data-col="state"]').textContent()).toContain('listening');
		}
		// The URL names the panel: a reload comes back to it.
		expect(
			new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('panel'),
		).toBe('sockets');
	});

	it('names each peer by the DNS answer looked up for it, and filters by host:', async () => {
		// Each answered address of the sample was looked up once, before its connection.
		const nameOf = new Map<string, string>();
		for (const l of SAMPLE_LOOKUPS)
			for (const x of l.items) if ('address' in x) nameOf.set(x.address, l.name);
		const named = truth.sockets.filter((s) => {
			const ip = s.remote?.replace(/^\[/, '').replace(/\]?:\d+$/, '');
			return ip !== undefined && nameOf.has(ip);
		});
		expect(named.length).toBeGreaterThan(3);
		for (const s of named) {
			const ip = s.remote!.replace(/^\[/, '').replace(/\]?:\d+$/, '');
			const row = rowsOf(page).filter({ hasText: s.endpoint });
			expect(await row.locator('[data-col="remote"]').textContent()).toContain(
				`${nameOf.get(ip)} (${s.remote})`,
			);
		}
		const box = page.getByTestId('socket-filter');
		const reddit = SAMPLE_LOOKUPS.filter((l) => l.name.endsWith('.reddit.com'));
		const redditIps = new Set(
			reddit.flatMap((l) => l.items.flatMap((x) => ('address' in x ? [x.address] : []))),
		);
		const redditSockets = named.filter((s) =>
			redditIps.has(s.remote!.replace(/^\[/, '').replace(/\]?:\d+$/, '')),
		).length;
		expect(redditSockets).toBeGreaterThan(0);
		await box.fill('host:*.reddit.com');
		expect(await rowsOf(page).count()).toBe(redditSockets);
		// CNAMEs count as names of the address too.
		await box.fill('host:*.fastly.net');
		expect(await rowsOf(page).count()).toBe(redditSockets);
		await box.fill('');
		expect(await rowsOf(page).count()).toBe(truth.sockets.length);
	});

	it('filters the list by words and fields', async () => {
		const box = page.getByTestId('socket-filter');
		await box.fill('curl.exe');
		const curl = truth.sockets.filter((s) => s.process === 'curl.exe');
		expect(await rowsOf(page).count()).toBe(curl.length);
		// The conversations keep to the sockets shown.
		const conversations = page.getByTestId('conversations').locator('tbody tr');
		const peers = new Set(curl.flatMap((s) => (s.remote ? [s.remote] : [])));
		await expect.poll(() => conversations.count()).toBe(peers.size);
		for (const text of await conversations.allTextContents()) expect(text).toContain('curl.exe');
		await box.fill('error:refused');
		expect(await rowsOf(page).count()).toBe(1);
		await box.fill('process:chrome -remote:443');
		expect(await rowsOf(page).count()).toBe(
			truth.sockets.filter((s) => s.process === 'chrome.exe' && !s.remote?.endsWith(':443')).length,
		);
		await box.fill('');
		expect(await rowsOf(page).count()).toBe(truth.sockets.length);
	});

	it('renders one lane per socket', async () => {
		const lanes = page.getByTestId('lanes').locator('.lane');
		expect(await lanes.count()).toBe(truth.sockets.length);
		// Clicking a lane selects its socket.
		await lanes.filter({ hasText: refused.remote! }).click();
		expect(await page.getByTestId('socket-story').textContent()).toContain('refused');
		await page.getByRole('tab', { name: 'Sockets' }).scrollIntoViewIfNeeded();
		await screenshot(page, 'sockets-panel');
	});

	it("draws round time ticks over the lanes, in the table's time mode", async () => {
		const axis = page.getByTestId('lanes-axis');
		const labels = async () =>
			((await axis.getAttribute('data-ticks')) ?? '').split('|').filter((l) => l !== '');
		await expect.poll(async () => (await labels()).length).toBeGreaterThanOrEqual(3);
		const relative = await labels();
		for (const l of relative) expect(l).toMatch(/^\d+(\.\d+)? s$/);
		// Evenly spaced by 1, 2 or 5 × 10^n seconds.
		const values = relative.map((l) => Number.parseFloat(l));
		const step = values[1]! - values[0]!;
		const power = 10 ** Math.floor(Math.log10(step));
		expect([1, 2, 5].some((m) => Math.abs(step - m * power) < step * 1e-6)).toBe(true);
		for (let k = 1; k < values.length; k++)
			expect(values[k]! - values[k - 1]!).toBeCloseTo(step, 6);

		// Each label stands over the instant it names on the lanes' bars, whole and apart.
		const legend = (await page.locator('#sockets-lanes + .legend').textContent()) ?? '';
		const [, from, to] = /([\d.]+) s – ([\d.]+) s/.exec(legend)!.map(Number) as number[];
		const bar = (await page.getByTestId('lanes').locator('.lane svg').first().boundingBox())!;
		const ticks = await axis.locator('.tick').evaluateAll((els) =>
			els.map((e) => {
				const r = e.getBoundingClientRect();
				return { at: Number(e.dataset.at), left: r.left, right: r.right, align: e.className };
			}),
		);
		expect(ticks).toHaveLength(relative.length);
		let centred = 0;
		for (const [k, t] of ticks.entries()) {
			expect(t.left, relative[k]).toBeGreaterThanOrEqual(bar.x - 0.5);
			expect(t.right, relative[k]).toBeLessThanOrEqual(bar.x + bar.width + 0.5);
			if (k > 0) expect(t.left, relative[k]).toBeGreaterThanOrEqual(ticks[k - 1]!.right);
			expect(t.at / 1e7).toBeCloseTo(values[k]!, 6);
			if (!t.align.includes('middle')) continue;
			const x = bar.x + ((t.at / 1e7 - from!) / (to! - from!)) * bar.width;
			expect(Math.abs((t.left + t.right) / 2 - x), relative[k]).toBeLessThan(1.5);
			centred++;
		}
		expect(centred).toBeGreaterThanOrEqual(2);
		await page.locator('.lanes-box').scrollIntoViewIfNeeded();
		await screenshot(page, 'sockets-lanes-axis');

		await page.getByTestId('time-mode').click();
		await expect.poll(async () => (await labels())[0] ?? '').toMatch(/^\d\d:\d\d:\d\d/);
		expect(legend).not.toBe(await page.locator('#sockets-lanes + .legend').textContent());
		await page.getByTestId('time-mode').click();
		await expect.poll(async () => (await labels())[0] ?? '').toMatch(/ s$/);
	});

	it("shows how a socket's PID was learnt and a datagram socket's remotes", async () => {
		const dns = truth.sockets.find((s) => s.peers.length === 2)!;
		await rowsOf(page).filter({ hasText: dns.endpoint }).click();
		expect(await page.getByTestId('pid-source').textContent()).toContain(
			`PID ${dns.pid} from another socket's create`,
		);
		const peers = page.getByTestId('socket-peers').locator('tbody tr');
		expect(await peers.count()).toBe(dns.peers.length);
		for (const [k, p] of dns.peers.entries())
			expect(await peers.nth(k).locator('td').first().textContent()).toBe(p.remote);
	});

	it('goes from the refused-connect finding to its exact events in two clicks', async () => {
		const finding = page.getByTestId('findings').locator('[data-kind="connect-refused"]');
		expect(await finding.textContent()).toContain(refused.process);
		await finding.click(); // 1: the list narrows to its socket, which is selected
		expect(await rowsOf(page).count()).toBe(1);
		expect(await rowsOf(page).first().textContent()).toContain(refused.remote!);
		// The chip names the finding once (its title holds the subject).
		const chip = (await page.getByTestId('finding-chip').textContent())!;
		expect(chip.split(refused.remote!).length - 1).toBe(1);
		// The conversations keep to the finding's sockets too.
		const conversations = page.getByTestId('conversations').locator('tbody tr');
		await expect.poll(() => conversations.count()).toBe(1);
		expect(await conversations.first().textContent()).toContain(refused.remote!);
		await page.getByTestId('show-events').click(); // 2: its events
		const filter = `endpoint:${refused.endpoint}`;
		const { matched } = await answerFor(page, filter);
		expect(matched).toBeGreaterThan(0);
		expect(matched).toBeLessThanOrEqual(refused.events);
		expect(await page.getByRole('tab', { name: 'Events' }).getAttribute('aria-selected')).toBe(
			'true',
		);
		const selected = page.locator('[data-testid="event-scroller"] .row.selected');
		await selected.waitFor();
		expect(await selected.locator('[data-column="event"]').textContent()).toContain(
			'AfdConnectWithAddress',
		);
		expect(await selected.locator('[data-column="status"]').textContent()).toContain(
			'STATUS_CONNECTION_REFUSED',
		);
		await screenshot(page, 'sockets-refused-events');
	});
});
