// The analyst's flows on traces written for the test: filter counts computed from what the writer
// was asked to write, the statistics, a brush zoom, the table reaching the last of 320,001 rows
// (past the browser's height cap, so the scroll range is scaled), and an export whose rows equal
// the matching count.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
	answerFor,
	applyFilter,
	brush,
	hashParams,
	selectedPosition,
	waitForImport,
} from './analyst-page.ts';
import { mixedTrace, type MixedTrace, type WrittenEvent } from './analyst-traces.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { busyTrace, type GeneratedTrace } from './generated-traces.ts';
import { openSite, pickFile, type OpenedPage } from './page.ts';

const baseUrl = inject('baseUrl');

let browser: Browser;
let tab: OpenedPage;
let page: Page;
let mixed: MixedTrace;
let tall: GeneratedTrace;

beforeAll(async () => {
	mixed = mixedTrace();
	// busyTrace's writer loop: event n is AfdReceive (1004) when n is odd, else AfdSend (1003),
	// on CPU n % 4 in PID 4000 + n % 5. 320,000 rows × 26 px is past the 8 M px spacer cap.
	tall = busyTrace(320_000, 'tall');
	browser = await launchBrowser({ viewport: { width: 1280, height: 720 } });
	tab = await openSite(browser, baseUrl);
	page = tab.page;
});

afterAll(async () => {
	expect(tab?.errors ?? []).toEqual([]);
	await browser?.close();
});

const count = (test: (e: WrittenEvent) => boolean) => mixed.events.filter(test).length;
const ipOf = (remote: string | null) => remote?.replace(/^\[?(.*?)\]?:\d+$/, '$1') ?? '';
const failed = (e: WrittenEvent) => e.phase === 'exit' && e.status >= 0xc0000000;

describe('a generated Winsock trace', () => {
	it('gives the counts the writer wrote', async () => {
		await pickFile(page, mixed.path);
		await waitForImport(page, 'analyst-mixed.etl', mixed.records.length);
		const cases: [string, number][] = [
			['event:AfdConnectWithAddress', count((e) => e.name === 'AfdConnectWithAddress')],
			['status:STATUS_CONNECTION_REFUSED', count((e) => e.status === 0xc0000236)],
			['status:error', count(failed)],
			[
				'event:AfdConnect* -status:error',
				count((e) => e.name.startsWith('AfdConnect') && !failed(e)),
			],
			['process:"gamma svc.exe"', count((e) => e.process === 'gamma svc.exe')],
			[
				'raddr:10.0.0.0/8',
				count(
					(e) =>
						e.remote !== null &&
						ipOf(e.remote).startsWith('10.') &&
						e.name === 'AfdConnectWithAddress',
				),
			],
			[
				'raddr:2001:db8::/32 status:ok',
				count(
					(e) =>
						// status:ok: a status was logged and it is not a failure (enters log 0).
						ipOf(e.remote).startsWith('2001:db8') &&
						e.name === 'AfdConnectWithAddress' &&
						!failed(e),
				),
			],
			['event:AfdSend bytes>=1000', count((e) => e.name === 'AfdSend' && (e.bytes ?? 0) >= 1000)],
			[
				'rport:443 -process:alpha.exe',
				count(
					(e) =>
						e.name === 'AfdConnectWithAddress' &&
						e.remote!.endsWith(':443') &&
						e.process !== 'alpha.exe',
				),
			],
			['cpu:1 or tid>3300', mixed.records.filter((r) => r.cpu === 1 || (r.tid ?? 0) > 3300).length],
			[
				// Times are rebuilt from ticks since each chunk's start: exact to the 100 ns.
				'time>=1.5s time<2.5000001s',
				mixed.records.filter((r) => {
					const t = Number(r.time - mixed.startTime);
					return t >= 15_000_000 && t < 25_000_001;
				}).length,
			],
		];
		for (const [filter, expected] of cases)
			expect(await applyFilter(page, filter), filter).toBe(expected);
	});

	it('sums bytes each way per remote endpoint, from what was written', async () => {
		await applyFilter(page, '');
		await page.getByRole('tab', { name: 'Statistics' }).click();
		const remotes = page.getByTestId('stats-remotes');
		await remotes.waitFor();
		// Bytes that reached the socket: exit events of sends and receives that did not fail.
		const remote = '10.1.2.3:443';
		const row = remotes.getByRole('row').filter({ hasText: remote });
		const cells = await row.locator('td').allTextContents();
		const exits = mixed.events.filter((e, k) => {
			if (e.phase !== 'exit' || e.bytes === null) return false;
			// Sockets are written one after another: the last connect before an event is its own.
			const connect = mixed.events.slice(0, k).findLast((c) => c.name === 'AfdConnectWithAddress');
			return connect?.remote === remote;
		});
		const sent = exits.filter((e) => e.name === 'AfdSend').reduce((n, e) => n + e.bytes!, 0);
		const received = exits.filter((e) => e.name === 'AfdReceive').reduce((n, e) => n + e.bytes!, 0);
		const exact = await row.locator('td').nth(2).getAttribute('title');
		expect(exact).toBe(`${sent.toLocaleString('en-US')} bytes`);
		expect(await row.locator('td').nth(3).getAttribute('title')).toBe(
			`${received.toLocaleString('en-US')} bytes`,
		);
		expect(cells[1]).toBe(
			String(
				mixed.events.filter(
					(e) => e.name === 'AfdConnectWithAddress' && e.phase === 'exit' && e.remote === remote,
				).length,
			),
		);
		await page.getByRole('tab', { name: 'Events' }).click();
	});

	it('narrows the table to a brushed span', async () => {
		await brush(page, 0.2, 0.4);
		const p = await hashParams(page);
		const from = Math.round(Number(p.get('from')) * 1e7);
		const to = Math.round(Number(p.get('to')) * 1e7);
		const inside = mixed.records.filter((r) => {
			const t = Number(r.time - mixed.startTime);
			return t >= from && t < to;
		}).length;
		expect((await answerFor(page, '', `${from}-${to}`)).matched).toBe(inside);
		await page.getByRole('button', { name: 'Whole trace', exact: true }).click();
		await answerFor(page, '', '');
	});
});

describe('a trace of 320,001 events', () => {
	it('scrolls to the very last row, past the browser height cap', async () => {
		await pickFile(page, tall.path);
		await waitForImport(page, 'tall-320000.etl', tall.records);
		const { total } = await answerFor(page, '');
		await page.getByTestId('event-scroller').focus();
		await page.keyboard.press('End');
		await expect.poll(() => selectedPosition(page)).toBe(total - 1);
		const last = page.locator(`[data-position="${total - 1}"]`);
		await expect.poll(() => last.getAttribute('data-index')).toBe(String(total - 1));
		// In view once the table has laid it out (its columns are measured as its rows arrive): how
		// far its bottom is below the scroller's, at most a pixel.
		const below = async () => {
			const box = await last.boundingBox();
			const view = await page.getByTestId('event-scroller').boundingBox();
			return box && view ? box.y + box.height - (view.y + view.height) : Infinity;
		};
		await expect.poll(below).toBeLessThanOrEqual(1);
		// Dragging the scroll bar to the end shows it too.
		await page.keyboard.press('Home');
		// Home brings the first row into view as its own step: the drag comes after it, as a
		// person's does (dragging first, Home's scroll could land after it and undo it).
		await expect
			.poll(() => page.getByTestId('event-scroller').evaluate((s) => s.scrollTop))
			.toBe(0);
		await page.locator('[data-position="0"] [data-column="event"]').waitFor();
		await page.getByTestId('event-scroller').evaluate((s) => (s.scrollTop = s.scrollHeight));
		await last.locator('[data-column="event"]').waitFor();
		expect(await page.getByTestId('event-scroller').evaluate((s) => s.scrollHeight)).toBeLessThan(
			total * 26,
		);
	});

	it('exports as many rows as the filter matches', async () => {
		// n ≡ 1 (mod 4) and n ≡ 1 (mod 5): n ≡ 1 (mod 20), and n odd: AfdReceive.
		const expected = Array.from({ length: 320_000 }, (_, n) => n).filter(
			(n) => n % 4 === 1 && n % 5 === 1,
		).length;
		expect(await applyFilter(page, 'cpu:1 pid:4001 event:AfdReceive')).toBe(expected);
		await page.getByRole('button', { name: 'Export ▾' }).click();
		const [download] = await Promise.all([
			page.waitForEvent('download', { timeout: 60_000 }),
			page.getByRole('menuitem', { name: /as NDJSON/ }).click(),
		]);
		const lines = readFileSync((await download.path())!, 'utf8')
			.trimEnd()
			.split('\n');
		expect(lines).toHaveLength(expected);
		expect(JSON.parse(lines[0]!)).toMatchObject({ cpu: 1, pid: 4001, name: 'AfdReceive' });
		expect(JSON.parse(lines.at(-1)!)).toMatchObject({ cpu: 1, pid: 4001, name: 'AfdReceive' });
	});
});
