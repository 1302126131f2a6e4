// The timeline's zoom by keys and wheel (the range chip and the table follow), its time ticks,
// the Δ time column and the time reference, and the I/O graph for a filter, a conversation and a
// socket, in real Chromium over the bundled sample; expected figures from the sample's truth.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildSample, type SampleTruth } from '../builders/sample.ts';
import { answerFor, hashParams, openSampleTrace, screenshot } from './analyst-page.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { openSite, type OpenedPage } from './page.ts';

const baseUrl = inject('baseUrl');
const { truth } = buildSample() as { truth: SampleTruth };
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

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
		await screenshot(page, `failed-timeline-${task.name.replace(/\W+/g, '-').slice(0, 50)}`);
});

afterAll(async () => {
	expect(tab?.errors ?? []).toEqual([]);
	await browser?.close();
});

const plot = () => page.getByTestId('timeline-plot');
const chip = () => page.getByTestId('range-chip');

/** The range in the URL fragment, in ticks, or null. */
async function hashRange(): Promise<{ from: number; to: number } | null> {
	const p = await hashParams(page);
	const [from, to] = [p.get('from'), p.get('to')];
	return from && to
		? { from: Math.round(Number(from) * 1e7), to: Math.round(Number(to) * 1e7) }
		: null;
}

/** Waits for the table's answer over the fragment's range, and says how many events match. */
async function matchedInRange(): Promise<number> {
	const r = await hashRange();
	return (await answerFor(page, '', r ? `${r.from}-${r.to}` : '')).matched;
}

describe('timeline zoom', () => {
	it('is reached by Tab, says what it is, and shows a focus ring', async () => {
		await page.locator('#filter-input').focus();
		let reached = false;
		for (let k = 0; k < 40 && !reached; k++) {
			await page.keyboard.press('Tab');
			reached = await plot().evaluate((e) => document.activeElement === e);
		}
		expect(reached).toBe(true);
		expect(await plot().getAttribute('role')).toBe('slider');
		expect(await plot().getAttribute('aria-roledescription')).toBe('zoomable timeline');
		expect(await plot().getAttribute('aria-label')).toMatch(/events from .* to /);
		const outline = await plot().evaluate((e) => getComputedStyle(e).outlineStyle);
		expect(outline).toBe('solid');
	});

	it('shows round time ticks that follow the time mode', async () => {
		await expect.poll(async () => (await plot().getAttribute('data-ticks')) ?? '').toMatch(/ s/);
		const relative = (await plot().getAttribute('data-ticks'))!.split('|');
		expect(relative.length).toBeGreaterThanOrEqual(3);
		for (const l of relative) expect(l).toMatch(/^\d+(\.\d+)? s$/);
		await page.getByTestId('time-mode').click();
		await expect
			.poll(async () => (await plot().getAttribute('data-ticks')) ?? '')
			.toMatch(/^\d\d:\d\d:\d\d/);
		await page.getByTestId('time-mode').click();
		await expect.poll(async () => (await plot().getAttribute('data-ticks')) ?? '').toMatch(/ s/);
	});

	it('zooms with W and +, pans with D, zooms out with S, and 0 resets; Back goes back', async () => {
		const whole = await matchedInRange();
		expect(whole).toBe(truth.totalRecords);
		const theme = await page.evaluate(() => document.documentElement.dataset.theme ?? '');
		await plot().focus();
		await page.keyboard.press('w');
		await chip().waitFor();
		const first = (await hashRange())!;
		const zoomed = await matchedInRange();
		expect(zoomed).toBeLessThan(whole);
		expect(await chip().textContent()).toContain((first.from / 1e7).toFixed(6));
		await page.keyboard.press('+');
		await expect
			.poll(async () => (await hashRange())!.to - (await hashRange())!.from)
			.toBeLessThan(first.to - first.from);
		const narrow = (await hashRange())!;
		await page.keyboard.press('d');
		await expect.poll(async () => (await hashRange())!.from).toBeGreaterThan(narrow.from);
		const panned = (await hashRange())!;
		expect(panned.to - panned.from).toBe(narrow.to - narrow.from);
		// `d` pans here: the page's theme key is not taken.
		expect(await page.evaluate(() => document.documentElement.dataset.theme ?? '')).toBe(theme);
		await page.keyboard.press('s');
		await expect
			.poll(async () => (await hashRange())!.to - (await hashRange())!.from)
			.toBeGreaterThan(panned.to - panned.from);
		await page.goBack();
		await expect.poll(async () => (await hashRange())?.from).toBe(panned.from);
		await plot().focus();
		await page.keyboard.press('0');
		await expect.poll(() => chip().count()).toBe(0);
		expect(await matchedInRange()).toBe(whole);
	});

	it('zooms with the wheel around the pointer', async () => {
		// The whole trace's span, as the chart says it.
		const label = (await plot().getAttribute('aria-label'))!;
		const [, from, to] = /from ([\d.]+) s to ([\d.]+) s/.exec(label)!.map(Number) as number[];
		const over = page.locator('[data-testid="timeline-plot"] .u-over');
		const box = (await over.boundingBox())!;
		await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
		await page.mouse.wheel(0, -200);
		await chip().waitFor();
		const r = (await hashRange())!;
		expect(await matchedInRange()).toBeLessThan(truth.totalRecords);
		expect((r.to - r.from) / 1e7).toBeLessThan(to! - from!);
		// The instant under the pointer stays a quarter of the way across.
		const under = from! + 0.25 * (to! - from!);
		expect(Math.abs(r.from / 1e7 + 0.25 * ((r.to - r.from) / 1e7) - under)).toBeLessThan(
			(to! - from!) / 100,
		);
		// Zooming out as far as it goes is the whole trace again.
		for (let k = 0; k < 10 && (await chip().count()) > 0; k++) {
			await page.mouse.wheel(0, 400);
			await page.waitForTimeout(50);
		}
		await expect.poll(() => chip().count()).toBe(0);
	});
});

/** The table's cells of a column, by row position, for the rows drawn. */
async function cells(column: string): Promise<Map<number, string>> {
	const pairs = await page.evaluate((column) => {
		return [...document.querySelectorAll<HTMLElement>('[data-testid="event-scroller"] .row')].map(
			(r) => [
				Number(r.dataset.position),
				r.querySelector<HTMLElement>(`[data-column="${column}"]`)?.textContent ?? '',
			],
		);
	}, column);
	return new Map(pairs as [number, string][]);
}

describe('Δ time and the time reference', () => {
	it('adds a Δ time column, off by default, of the time since the previous match', async () => {
		expect(await page.locator('[data-head="delta"]').count()).toBe(0);
		await page.getByRole('button', { name: 'Columns ▾' }).click();
		await page.getByRole('checkbox', { name: 'Δ time' }).check();
		await page.keyboard.press('Escape');
		await page.locator('[data-head="delta"]').waitFor();
		expect(await page.locator('[data-head="delta"]').textContent()).toBe('Δ time (s)');
		await expect.poll(async () => (await cells('delta')).get(1) ?? '').not.toBe('');
		const times = await cells('time');
		const deltas = await cells('delta');
		expect(deltas.get(0)).toBe('0.000000');
		let checked = 0;
		for (const [p, d] of deltas) {
			if (p === 0 || !times.has(p - 1)) continue;
			expect(Number(d), `row ${p}`).toBeCloseTo(Number(times.get(p)) - Number(times.get(p - 1)), 5);
			checked++;
		}
		expect(checked).toBeGreaterThan(10);
	});

	it('sets and clears a time reference with Shift+T and the cell menu', async () => {
		const before = await cells('time');
		const row = page.locator('[data-testid="event-scroller"] .row[data-position="5"]');
		await row.locator('[data-column="event"]').click();
		await page.keyboard.press('Shift+T');
		await page.getByTestId('reference-chip').waitFor();
		await expect.poll(() => row.getAttribute('data-reference')).toBe('');
		expect(await row.locator('[data-column="time"]').textContent()).toBe('*REF*');
		expect(await page.locator('[data-head="time"]').textContent()).toBe('Time since reference (s)');
		const after = await cells('time');
		const ref = Number(before.get(5));
		expect(Number(after.get(9))).toBeCloseTo(Number(before.get(9)) - ref, 5);
		expect(Number(after.get(1))).toBeCloseTo(Number(before.get(1)) - ref, 5);
		expect(after.get(1)).toMatch(/^-/);
		await page.keyboard.press('Shift+T');
		await expect.poll(() => page.getByTestId('reference-chip').count()).toBe(0);
		expect((await cells('time')).get(5)).toBe(before.get(5));
		// The cell menu sets it too, and the same item clears it.
		await row.locator('[data-column="event"]').click({ button: 'right' });
		await page.getByTestId('time-reference-item').click();
		await page.getByTestId('reference-chip').waitFor();
		await row.locator('[data-column="event"]').click({ button: 'right' });
		expect(await page.getByTestId('time-reference-item').textContent()).toContain('Clear');
		await page.getByTestId('time-reference-item').click();
		await expect.poll(() => page.getByTestId('reference-chip').count()).toBe(0);
		await page.getByRole('button', { name: 'Columns ▾' }).click();
		await page.getByRole('checkbox', { name: 'Δ time' }).uncheck();
		await page.keyboard.press('Escape');
	});
});

describe('the time reference in the URL', () => {
	it('survives a reload, and its chip clears it from the URL too', async () => {
		const before = await cells('time');
		const row = page.locator('[data-testid="event-scroller"] .row[data-position="5"]');
		await row.locator('[data-column="event"]').click();
		await page.keyboard.press('Shift+T');
		await page.getByTestId('reference-chip').waitFor();
		const index = await row.getAttribute('data-index');
		await expect.poll(async () => (await hashParams(page)).get('ref')).toBe(index);

		await page.reload();
		await answerFor(page, '');
		await page.getByTestId('reference-chip').waitFor();
		await expect.poll(() => row.getAttribute('data-reference')).toBe('');
		expect(await row.locator('[data-column="time"]').textContent()).toBe('*REF*');
		const after = await cells('time');
		expect(Number(after.get(9))).toBeCloseTo(Number(before.get(9)) - Number(before.get(5)), 5);

		await page.getByTestId('reference-chip').getByRole('button').click();
		await expect.poll(async () => (await hashParams(page)).has('ref')).toBe(false);
		expect((await cells('time')).get(5)).toBe(before.get(5));
	});
});

/** The I/O graph's totals once they are in. */
async function ioTotals(
	scope = page.getByTestId('io-graph'),
): Promise<{ sent: number; received: number }> {
	const totals = scope.getByTestId('io-totals');
	await totals.waitFor({ timeout: 30_000 });
	return {
		sent: Number(await totals.getAttribute('data-sent')),
		received: Number(await totals.getAttribute('data-received')),
	};
}

describe('I/O graph', () => {
	it("draws the bytes each way of the Events panel's filter", async () => {
		await page.getByTestId('io-graph-toggle').click();
		expect(await ioTotals()).toEqual({
			sent: sum(truth.sockets.map((s) => s.bytesSent)),
			received: sum(truth.sockets.map((s) => s.bytesReceived)),
		});
		await page.getByTestId('io-svg').waitFor();
		expect(await page.getByTestId('io-tick').count()).toBeGreaterThanOrEqual(2);
		expect(await page.getByTestId('io-graph').textContent()).toContain('Sent');
		// For a filter, the filter's bytes.
		// The process that moved the most bytes.
		const bytesOf = (pid: number) =>
			sum(truth.sockets.filter((s) => s.pid === pid).map((s) => s.bytesSent + s.bytesReceived));
		const pid = truth.processes.map((p) => p.pid).sort((a, b) => bytesOf(b) - bytesOf(a))[0]!;
		expect(bytesOf(pid)).toBeGreaterThan(0);
		const box = page.locator('#filter-input');
		await box.fill(`process:${pid}`);
		await box.press('Enter');
		await answerFor(page, `process:${pid}`);
		const mine = truth.sockets.filter((s) => s.pid === pid);
		await expect
			.poll(() => ioTotals())
			.toEqual({
				sent: sum(mine.map((s) => s.bytesSent)),
				received: sum(mine.map((s) => s.bytesReceived)),
			});
		// Another interval: the same totals in more, narrower intervals.
		const auto = Number(await page.getByTestId('io-totals').getAttribute('data-interval'));
		await page.getByTestId('io-interval').selectOption({ label: '1 ms' });
		await expect
			.poll(async () => Number(await page.getByTestId('io-totals').getAttribute('data-interval')))
			.toBeLessThanOrEqual(auto);
		expect((await ioTotals()).sent).toBe(sum(mine.map((s) => s.bytesSent)));
		await screenshot(page, 'io-graph-filter');
		await box.fill('');
		await box.press('Enter');
		await answerFor(page, '');
		await page.getByTestId('io-graph-toggle').click();
	});

	it("draws a socket's and a conversation's bytes, equal to the socket's figures", async () => {
		await page.getByRole('tab', { name: 'Sockets' }).click();
		await page.getByTestId('socket-table').waitFor({ timeout: 30_000 });
		const counts = new Map<string, number>();
		for (const s of truth.sockets) counts.set(s.endpoint, (counts.get(s.endpoint) ?? 0) + 1);
		const socket = truth.sockets.find(
			(s) => counts.get(s.endpoint) === 1 && s.peers.length === 0 && s.bytesReceived > 0,
		)!;
		await page
			.getByTestId('socket-table')
			.locator('tbody tr')
			.filter({ hasText: socket.endpoint })
			.click();
		await page.getByTestId('socket-io-graph').click();
		const story = page.getByTestId('socket-story');
		expect(await ioTotals(story.getByTestId('io-graph'))).toEqual({
			sent: socket.bytesSent,
			received: socket.bytesReceived,
		});
		await page.getByTestId('socket-io-graph').click();
		// Its conversation: the process's sockets to the same remote.
		const peers = truth.sockets.filter(
			(s) => s.pid === socket.pid && s.remote === socket.remote && s.peers.length === 0,
		);
		await page
			.getByTestId('conversations')
			.locator('tbody tr')
			.filter({ hasText: socket.remote! })
			.filter({ hasText: socket.process })
			.getByTestId('conversation-io-graph')
			.click();
		const graph = page.locator('.conversations').getByTestId('io-graph');
		expect(await ioTotals(graph)).toEqual({
			sent: sum(peers.map((s) => s.bytesSent)),
			received: sum(peers.map((s) => s.bytesReceived)),
		});
		await graph.scrollIntoViewIfNeeded();
		await screenshot(page, 'io-graph-conversation');
		// A datagram socket's conversation with one of its peers: that peer's bytes only.
		const dns = truth.sockets.find((s) => s.peers.length === 2)!;
		for (const peer of dns.peers) {
			await page
				.getByTestId('conversations')
				.locator('tbody tr')
				.filter({ hasText: peer.remote })
				.filter({ hasText: dns.process })
				.getByTestId('conversation-io-graph')
				.click();
			await expect
				.poll(() => ioTotals(graph))
				.toEqual({ sent: peer.bytesSent, received: peer.bytesReceived });
		}
		await page.getByRole('tab', { name: 'Events' }).click();
	});
});
