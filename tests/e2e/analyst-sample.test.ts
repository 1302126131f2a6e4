// The analyst's flows on the bundled sample, in real Chromium: finding the refused connect and its
// process without documentation, filter counts against the writer's ground truth (every record it
// wrote, tests/builders/sample.ts), cell actions and toggles, the timeline brush, statistics, the
// view in the URL (reload, edited hash, Back, a link matched by content hash), exports and copies,
// the keyboard on other layouts, and both themes (screenshots kept under test-results/).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { EVENT_SCHEMAS, PROVIDERS } from '../../web/src/generated/schemas.ts';
import { AFD_PROVIDER, KERNEL_PROCESS_PROVIDER, type TruthRecord } from '../builders/etl-writer.ts';
import { SAMPLE_NET_ERROR_EVENTS } from '../builders/sample-net.ts';
import { buildSample, type SampleTruth } from '../builders/sample.ts';
import {
	answerFor,
	applyFilter,
	brush,
	hashParams,
	openSampleTrace,
	pressAsLayout,
	screenshot,
	selectedPosition,
} from './analyst-page.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { openSite, pickFile, type OpenedPage } from './page.ts';
import { projectRoot } from './server.ts';
import { query } from '../export/duckdb.ts';
import { sockscope } from '../cli/run.ts';

const baseUrl = inject('baseUrl');
const samplePath = join(projectRoot, 'public', 'sample.etl');
const { file, truth } = buildSample() as { file: { records: TruthRecord[] }; truth: SampleTruth };
const records = file.records;
const start = BigInt(truth.session.startTime);
const ticksOf = (r: TruthRecord) => Number(r.time - start);
// Event names from the schema data (schema/winsock-afd.json, as generated), by AFD event id.
const afdCode = PROVIDERS.find((p) => p.key === 'afd')!.code;
const afdName = new Map(
	EVENT_SCHEMAS.filter((s) => s.provider === afdCode).map((s) => [s.id, s.name] as const),
);
const nameOf = (r: TruthRecord) =>
	r.kind === 'event' && r.provider === AFD_PROVIDER ? (afdName.get(r.id) ?? '') : '';
const count = (test: (r: TruthRecord) => boolean) => records.filter(test).length;
/** The Process field of a 64-bit AFD enter/exit event (after EnterExit and Location). */
const processOf = (r: TruthRecord) =>
	r.pointerSize === 8 && r.payload.length >= 16
		? new DataView(r.payload.buffer, r.payload.byteOffset, r.payload.length).getBigUint64(8, true)
		: null;
const refused = truth.sockets.filter((s) => s.error === 'STATUS_CONNECTION_REFUSED');
/** One failing AFD event per failed socket, and TCP/IP's own failure events. */
const errorEvents = truth.sockets.filter((s) => s.error).length + SAMPLE_NET_ERROR_EVENTS;

let browser: Browser;
let tab: OpenedPage;
let page: Page;

beforeAll(async () => {
	browser = await launchBrowser({ viewport: { width: 1280, height: 720 } });
	await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
		origin: new URL(baseUrl).origin,
	});
	tab = await openSite(browser, baseUrl);
	page = tab.page;
	expect(await openSampleTrace(page)).toBe(truth.totalRecords);
});

// A failed step leaves a picture of the page beside the other screenshots.
afterEach(async ({ task }) => {
	if (task.result?.state === 'fail')
		await screenshot(page, `failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}`);
});

afterAll(async () => {
	expect(tab?.errors ?? []).toEqual([]);
	await browser?.close();
});

/** The timeline's host and the chart drawn in it, in CSS pixels. */
const timelineWidths = () =>
	page.evaluate(() => {
		const host = document.querySelector<HTMLElement>('[data-testid="timeline-plot"]')!;
		return {
			host: host.clientWidth,
			chart: Math.round(host.querySelector('canvas')!.getBoundingClientRect().width),
		};
	});

describe('the analyst on the sample', () => {
	it('sees the timeline across its whole width, after the import and as the window changes', async () => {
		// The chart is made while the page settles after a drop: it was once left at the width of
		// that moment (a fifth of it empty) until the trace was opened again.
		const fits = async () => {
			const w = await timelineWidths();
			return w.host > 0 && w.chart === w.host;
		};
		await expect.poll(fits).toBe(true);
		await page.setViewportSize({ width: 1600, height: 720 });
		await expect.poll(fits).toBe(true);
		expect((await timelineWidths()).host).toBeGreaterThan(1400);
		await page.setViewportSize({ width: 1280, height: 720 });
		await expect.poll(fits).toBe(true);
	});

	it('finds every refused connect and the process that made it, from a word typed', async () => {
		const box = page.locator('#filter-input');
		await box.fill('refused');
		const offer = page
			.getByTestId('suggestions')
			.getByRole('option', { name: /status:STATUS_CONNECTION_REFUSED/ });
		await offer.waitFor();
		await offer.dispatchEvent('pointerdown');
		expect(await box.inputValue()).toBe('status:STATUS_CONNECTION_REFUSED ');
		await box.press('Enter');
		const { matched } = await answerFor(page, 'status:STATUS_CONNECTION_REFUSED');
		expect(matched).toBe(refused.length);
		for (const [k, s] of refused.entries()) {
			const row = page.locator(`[data-position="${k}"]`);
			expect(await row.locator('[data-column="process"]').textContent()).toBe(
				`${s.process} (${s.pid})`,
			);
			expect(await row.locator('[data-column="remote"]').textContent()).toBe(s.remote);
			expect(await row.locator('[data-column="status"]').textContent()).toBe(s.error);
		}
		// The same from the statistics: the errors table names the process, a click filters.
		await applyFilter(page, '');
		await page.getByRole('tab', { name: 'Statistics' }).click();
		const errorRow = page
			.getByTestId('stats-errors')
			.getByRole('row')
			.filter({ hasText: 'STATUS_CONNECTION_REFUSED' });
		expect(await errorRow.textContent()).toContain(`${refused[0]!.process} (${refused[0]!.pid})`);
		expect(await errorRow.textContent()).toContain('WSAECONNREFUSED');
		await errorRow.getByRole('button').click();
		expect((await answerFor(page, 'status:STATUS_CONNECTION_REFUSED')).matched).toBe(
			refused.length,
		);
		expect(await page.getByRole('tab', { name: 'Events' }).getAttribute('aria-selected')).toBe(
			'true',
		);
	});

	it('counts what the writer wrote, for every kind of expression', async () => {
		const cases: [string, number][] = [
			['', records.length],
			['event:1003', truth.afdEventCounts['1003']!],
			['event:AfdSend*', count((r) => nameOf(r).startsWith('AfdSend'))],
			[
				'event:afdconnect* or event:AfdAccept*',
				count((r) => /^AfdConnect|^AfdAccept/.test(nameOf(r))),
			],
			['cpu:2 -pid:4', count((r) => r.cpu === 2 && r.pid !== 4)],
			[
				'tid>5000 (cpu:0 or cpu:3)',
				count((r) => (r.tid ?? 0) > 5000 && (r.cpu === 0 || r.cpu === 3)),
			],
			['level:verbose or level<3', count((r) => r.level === 5 || r.level < 3)],
			['not (cpu:1 or cpu:2) pid!=4', count((r) => r.cpu !== 1 && r.cpu !== 2 && r.pid !== 4)],
			[
				`provider:Microsoft-Windows-Kernel-Process`,
				truth.eventsByProvider[KERNEL_PROCESS_PROVIDER]!,
			],
			['process:curl.exe', truth.processes.find((p) => p.name === 'curl.exe')!.afdEvents],
			['status:error', errorEvents],
			['time>=2s time<3s', count((r) => ticksOf(r) >= 2e7 && ticksOf(r) < 3e7)],
		];
		for (const [filter, expected] of cases)
			expect(await applyFilter(page, filter), filter).toBe(expected);
	});

	it('points at the place an expression goes wrong', async () => {
		const box = page.locator('#filter-input');
		await box.fill('event:AfdSend (cpu:1');
		const problem = page.getByTestId('filter-error');
		await expect.poll(() => problem.textContent()).toContain('missing ")"');
		expect(await problem.locator('mark').count()).toBe(1);
		expect(await box.getAttribute('aria-invalid')).toBe('true');
		// Unknown names are found by the worker, with the position of the term.
		await box.fill('event:AfdSend colour:red');
		await box.press('Enter');
		await expect.poll(() => problem.textContent()).toContain('unknown field "colour"');
		expect(await problem.locator('mark').textContent()).toBe('c');
		await box.press('Escape');
		await box.press('Escape');
		await answerFor(page, '');
	});

	it('filters on a cell, excludes another, and toggles levels and errors', async () => {
		await applyFilter(page, 'process:curl.exe');
		const first = page.locator('[data-position="0"]');
		await first.locator('[data-column="event"]').click({ button: 'right' });
		const menu = page.getByTestId('cell-menu');
		await menu.getByRole('menuitem', { name: 'Exclude this' }).click();
		const excluded = (await page.locator('#filter-input').inputValue()).trim();
		expect(excluded).toMatch(/^process:curl\.exe -event:\S+$/);
		const name = excluded.split('-event:')[1]!;
		const curl = truth.processes.find((p) => p.name === 'curl.exe')!;
		const { matched } = await answerFor(page, excluded);
		// From the truth: curl's AFD events (its EPROCESS in their Process field: some completions
		// are logged in System, PID 4) not of that name.
		const curlRecords = records.filter(
			(r) => r.provider === AFD_PROVIDER && processOf(r) === BigInt(curl.eprocess),
		);
		expect(curlRecords).toHaveLength(curl.afdEvents);
		expect(matched).toBe(curlRecords.filter((r) => nameOf(r) !== name).length);
		expect(matched).toBeLessThan(curl.afdEvents);

		// A click in the selected row offers the same menu; "Filter on this" narrows.
		const remote = page.locator('[data-column="remote"]:not(:empty)').first();
		await remote.click();
		await remote.click();
		await page
			.getByTestId('cell-menu')
			.getByRole('menuitem', { name: /Filter on this/ })
			.click();
		const narrowed = (await page.locator('#filter-input').inputValue()).trim();
		expect(narrowed).toMatch(/raddr:\S+ rport:\d+$/);
		expect((await answerFor(page, narrowed)).matched).toBeGreaterThan(0);

		await applyFilter(page, '');
		await page.getByRole('button', { name: 'Errors only' }).click();
		expect((await answerFor(page, 'status:error')).matched).toBe(errorEvents);
		await page.getByRole('button', { name: 'Verbose' }).click();
		expect(await page.getByRole('button', { name: 'Verbose' }).getAttribute('aria-pressed')).toBe(
			'false',
		);
		expect((await answerFor(page, 'status:error -level:verbose')).matched).toBe(errorEvents);
		await page.getByRole('button', { name: 'Errors only' }).click();
		expect((await answerFor(page, '-level:verbose')).matched).toBe(count((r) => r.level !== 5));
		await page.getByRole('button', { name: 'Verbose' }).click();
		await answerFor(page, '');
	});

	it('zooms the table to a span brushed on the timeline, and back out', async () => {
		await brush(page, 0.3, 0.55);
		await page.getByTestId('range-chip').waitFor();
		const p = await hashParams(page);
		const from = Math.round(Number(p.get('from')) * 1e7);
		const to = Math.round(Number(p.get('to')) * 1e7);
		expect(to).toBeGreaterThan(from);
		const { matched, total } = await answerFor(page, '', `${from}-${to}`);
		expect(matched).toBe(count((r) => ticksOf(r) >= from && ticksOf(r) < to));
		expect(matched).toBeLessThan(total);
		// The table now starts at the span's first event.
		const firstTime = Number(
			await page.locator('[data-position="0"] [data-column="time"]').textContent(),
		);
		expect(firstTime * 1e7).toBeGreaterThanOrEqual(from - 10);

		await page.getByRole('button', { name: 'Zoom out' }).click();
		const wider = await hashParams(page);
		expect(Number(wider.get('to')) - Number(wider.get('from'))).toBeGreaterThan((to - from) / 1e7);
		await page.getByRole('button', { name: 'Whole trace' }).click();
		expect((await answerFor(page, '', '')).matched).toBe(truth.totalRecords);
	});

	it('shows statistics whose rows filter the table', async () => {
		await page.getByRole('tab', { name: 'Statistics' }).click();
		const processes = page.getByTestId('stats-processes');
		for (const p of truth.processes) {
			const row = processes.getByRole('row').filter({ hasText: `${p.name} (${p.pid})` });
			expect(await row.locator('td').nth(1).textContent()).toBe(
				p.afdEvents.toLocaleString('en-US'),
			);
		}
		// A stream's remote, and each peer of a datagram socket.
		const remotes = page.getByTestId('stats-remotes');
		const peers = truth.sockets.flatMap((s) =>
			s.peers.length > 0 ? s.peers.map((p) => p.remote) : s.remote ? [s.remote] : [],
		);
		expect(await remotes.getByRole('row').count()).toBe(
			new Set(peers.map((r) => r.replace(/%\d+/, ''))).size + 1,
		);
		const options = page.getByTestId('stats-options');
		expect(await options.textContent()).toContain('SIO_UDP_CONNRESET');
		const chrome = truth.processes.find((p) => p.name === 'chrome.exe')!;
		await processes.getByRole('button', { name: `chrome.exe (${chrome.pid})` }).click();
		expect((await answerFor(page, `process:${chrome.pid}`)).matched).toBe(chrome.afdEvents);
		await applyFilter(page, '');
	});

	it('keeps the view in the URL: reload, edited hash, Back, and a link to the same content', async () => {
		await applyFilter(page, 'status:error');
		await page.locator('[data-position="1"]').click();
		await page.getByTestId('details').waitFor();
		const index = await page.locator('[data-position="1"]').getAttribute('data-index');
		await expect.poll(async () => (await hashParams(page)).get('sel')).toBe(index);
		const p = await hashParams(page);
		expect(p.get('q')).toBe('status:error');
		expect(p.get('trace')).toMatch(/^[0-9a-f]{16}$/);
		expect(p.get('name')).toBe('sample.etl');

		await page.reload();
		expect((await answerFor(page, 'status:error')).matched).toBe(errorEvents);
		expect(await page.locator('#filter-input').inputValue()).toBe('status:error');
		await expect.poll(() => selectedPosition(page)).toBe(1);
		await page.getByTestId('details').waitFor();

		// Editing the fragment changes the view; Back brings the previous one.
		await page.evaluate(() => {
			const p = new URLSearchParams(location.hash.slice(1));
			p.set('q', 'event:AfdSend');
			p.delete('sel');
			location.hash = p.toString();
		});
		expect((await answerFor(page, 'event:AfdSend')).matched).toBe(truth.afdEventCounts['1003']);
		await page.goBack();
		expect((await answerFor(page, 'status:error')).matched).toBe(errorEvents);

		// A copied link reopens the view in a browser whose library has the same file under
		// another id: here the trace is deleted and the file imported again.
		const link = await page.evaluate(() => location.href);
		await page.getByRole('button', { name: '← All traces' }).click();
		expect(await page.evaluate(() => location.hash)).toBe('');
		const row = page.locator('li[data-trace-id]').filter({ hasText: 'sample.etl' });
		const oldId = await row.first().getAttribute('data-trace-id');
		for (let n = await row.count(); n > 0; n--)
			await row.first().getByTestId('delete-trace').click();
		await row.first().waitFor({ state: 'detached' });
		await page.goto(link);
		await page.getByTestId('link-missing').filter({ hasText: 'sample.etl' }).waitFor();
		await pickFile(page, samplePath);
		expect((await answerFor(page, 'status:error')).matched).toBe(errorEvents);
		await expect.poll(() => selectedPosition(page)).toBe(1);
		expect(await page.getByTestId('link-missing').count()).toBe(0);
		await page.getByRole('button', { name: '← All traces' }).click();
		expect(await page.locator('li[data-trace-id]').first().getAttribute('data-trace-id')).not.toBe(
			oldId,
		);
		await page.getByTestId('open-trace').first().click();
		await answerFor(page, '');
	});

	it('takes the Wireshark spellings and payload fields, with the counts of decode --filter', async () => {
		for (const filter of [
			'rport in {80 443} || SocketType == SOCK_DGRAM',
			'!status:error && Backlog',
		]) {
			const [matched, cli] = await Promise.all([
				applyFilter(page, filter),
				sockscope('decode', samplePath, '--filter', filter),
			]);
			expect(matched).toBeGreaterThan(0);
			expect(matched).toBe(cli.stdout.trim().split('\n').length);
		}
		const box = page.locator('#filter-input');
		await box.fill('rprot == 443');
		await box.press('Enter');
		await expect
			.poll(() => page.getByTestId('filter-error').textContent())
			.toContain('did you mean rport?');
		await page.getByRole('button', { name: 'Syntax' }).click();
		await page.getByTestId('filter-grammar').getByText('rport in {80 443}').waitFor();
		await page.getByRole('button', { name: 'Syntax' }).click();
		await applyFilter(page, '');
	});

	it('exports the filtered view with as many rows as it matches, and copies rows', async () => {
		const matched = await applyFilter(page, 'event:AfdSend* or status:error');
		const save = async (label: RegExp) => {
			await page.getByRole('button', { name: 'Export ▾' }).click();
			const [download] = await Promise.all([
				page.waitForEvent('download'),
				page.getByRole('menuitem', { name: label }).click(),
			]);
			const path = (await download.path())!;
			return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8'), path };
		};
		const csv = await save(/as CSV/);
		expect(csv.name).toBe('sample-filtered.csv');
		const csvLines = csv.text.trimEnd().split('\n');
		// As the table shows them: its visible columns in its order, each cell the text on screen.
		const headers = await page.getByRole('columnheader').allTextContents();
		expect(csvLines[0]).toBe(headers.map((h) => h.replace(/[▲▼]/g, '').trim()).join(','));
		expect(csvLines[0]).toMatch(/^Time \(s\),Process,Owner,.*,Status$/);
		expect(csvLines.length - 1).toBe(matched);
		expect(csvLines.filter((l) => /,STATUS_[A-Z_]+$/.test(l)).length).toBeGreaterThan(0);
		const nd = await save(/as NDJSON/);
		const lines = nd.text
			.trimEnd()
			.split('\n')
			.map((l) => JSON.parse(l));
		expect(lines).toHaveLength(matched);
		expect(lines.filter((l) => l.fields.Status >= 0xc0000000)).toHaveLength(errorEvents);
		const pq = await save(/as Parquet/);
		expect(pq.name).toBe('sample-filtered.parquet');
		const [read] = await query(
			`select count(*) as n, count(*) filter (where status >= 3221225472) as failed from read_parquet('${pq.path}')`,
		);
		expect(read).toEqual({ n: BigInt(matched), failed: BigInt(errorEvents) });

		await page.locator('[data-position="0"]').click();
		await page.locator('[data-position="2"]').click({ modifiers: ['Shift'] });
		await page.getByRole('button', { name: 'Export ▾' }).click();
		await page.getByRole('menuitem', { name: /Copy 3 selected rows as TSV/ }).click();
		await page.getByTestId('toast').filter({ hasText: 'Copied 3 rows' }).waitFor();
		const tsv = await page.evaluate(() => navigator.clipboard.readText());
		expect(tsv.trimEnd().split('\n')).toHaveLength(4);
		expect(tsv.split('\n')[0]).toContain('Time (s)'.slice(0, 4));
		await page.getByRole('button', { name: 'Export ▾' }).click();
		await page.getByRole('menuitem', { name: /as Markdown/ }).click();
		await page.getByTestId('toast').filter({ hasText: 'as Markdown' }).waitFor();
		const md = await page.evaluate(() => navigator.clipboard.readText());
		expect(md.split('\n')[1]).toMatch(/^\| ---: \|/);
		expect(md.trimEnd().split('\n')).toHaveLength(5);
		await applyFilter(page, '');
	});

	it('moves with arrows and j/k on any keyboard layout; / focuses, Esc clears, ? lists', async () => {
		await page.locator('body').click({ position: { x: 2, y: 2 } });
		// Esc (outside the box) drops the selection; j then selects the first row in view.
		await page.keyboard.press('Escape');
		await expect.poll(() => selectedPosition(page)).toBe(null);
		await page.keyboard.press('j');
		await expect.poll(() => selectedPosition(page)).not.toBe(null);
		const p0 = (await selectedPosition(page))!;
		await page.keyboard.press('j');
		await page.keyboard.press('ArrowDown');
		await expect.poll(() => selectedPosition(page)).toBe(p0 + 2);
		await page.keyboard.press('k');
		await expect.poll(() => selectedPosition(page)).toBe(p0 + 1);
		await page.keyboard.press('End');
		await expect.poll(() => selectedPosition(page)).toBe(truth.totalRecords - 1);
		await page.locator(`[data-position="${truth.totalRecords - 1}"]`).waitFor();
		await page.keyboard.press('Home');
		await expect.poll(() => selectedPosition(page)).toBe(0);

		// Dvorak types "j" with the key QWERTY calls C; Cyrillic types "о" on the J key.
		await pressAsLayout(page, 'j', 'KeyC');
		await expect.poll(() => selectedPosition(page)).toBe(1);
		await pressAsLayout(page, 'о', 'KeyJ');
		await expect.poll(() => selectedPosition(page)).toBe(2);
		// AZERTY types "/" with Shift and the key QWERTY calls Period.
		await pressAsLayout(page, '/', 'Period', true);
		await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('filter-input');
		await page.keyboard.type('status:error');
		await page.keyboard.press('Enter');
		expect((await answerFor(page, 'status:error')).matched).toBe(errorEvents);
		await page.keyboard.press('Escape');
		await page.keyboard.press('Escape');
		await answerFor(page, '');

		await page.locator('body').click({ position: { x: 2, y: 2 } });
		await page.keyboard.press('Shift+?');
		await page
			.getByTestId('shortcuts')
			.getByRole('heading', { name: 'Keyboard shortcuts' })
			.waitFor();
		await page.keyboard.press('Escape');
		await page.getByTestId('shortcuts').waitFor({ state: 'hidden' });
		await page.keyboard.press('2');
		await page.getByTestId('stats').waitFor();
		await page.keyboard.press('1');
		await page.getByTestId('timeline').waitFor();
	});

	it('shows times in UTC to the microsecond, and the columns chosen', async () => {
		await applyFilter(page, 'status:STATUS_CONNECTION_REFUSED');
		const cell = page.locator('[data-position="0"] [data-column="time"]');
		const relative = Number(await cell.textContent());
		await page.getByTestId('time-mode').click();
		const utc = (await cell.textContent())!;
		expect(utc).toMatch(/^\d\d:\d\d:\d\d\.\d{6}$/);
		// The same instant: trace start plus the relative time, in UTC.
		const startIso = truth.session.startTimeIso;
		const startMs = Date.parse(startIso);
		const startMicros = Number(startIso.slice(20, 26)) % 1000;
		const micros = Math.round(relative * 1e6) + startMicros + (startMs % 1000) * 1000;
		const at = new Date(startMs - (startMs % 1000) + Math.floor(micros / 1000));
		expect(utc).toBe(
			`${at.toISOString().slice(11, 19)}.${String(micros % 1_000_000).padStart(6, '0')}`,
		);
		await page.keyboard.press('t');
		await expect.poll(() => cell.textContent()).toBe(relative.toFixed(6));

		await page.getByRole('button', { name: 'Columns ▾' }).click();
		await page.getByRole('checkbox', { name: 'TID' }).uncheck();
		await page.getByRole('checkbox', { name: 'CPU' }).check();
		expect(await page.getByRole('columnheader', { name: 'TID' }).count()).toBe(0);
		expect(await page.locator('[data-position="0"] [data-column="cpu"]').textContent()).toMatch(
			/^\d$/,
		);
		await page.getByRole('button', { name: 'Default columns' }).click();
		await page.getByRole('button', { name: 'Columns ▾' }).click();
		expect(await page.getByRole('columnheader', { name: 'TID' }).count()).toBe(1);
		await applyFilter(page, '');
	});

	it('has accessible roles and names', async () => {
		await page.getByRole('search').waitFor();
		await page.getByRole('combobox', { name: 'Filter' }).waitFor();
		await page.getByRole('grid', { name: 'Events' }).waitFor();
		await page.getByRole('tablist', { name: 'Panels' }).waitFor();
		// The timeline takes the keyboard: a slider whose value is the span shown.
		await page.getByRole('slider', { name: /events from .* drag to zoom/ }).waitFor();
		expect(await page.getByRole('columnheader').count()).toBeGreaterThanOrEqual(10);
		expect(await page.getByTestId('privacy-note').textContent()).toContain(
			'Nothing leaves your machine',
		);
	});

	it('renders in light and dark, at 1280×720 and 1920×1080, and follows a chosen theme', async () => {
		const background = () =>
			page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
		await page.locator('.row[data-position]').nth(3).click();
		await page.getByTestId('details').waitFor();
		await page.emulateMedia({ colorScheme: 'light' });
		const light = await background();
		await screenshot(page, 'analyst-light-1280x720');
		await page.emulateMedia({ colorScheme: 'dark' });
		const dark = await background();
		expect(dark).not.toBe(light);
		await screenshot(page, 'analyst-dark-1280x720');
		await page.setViewportSize({ width: 1920, height: 1080 });
		await screenshot(page, 'analyst-dark-1920x1080');
		await page.getByRole('tab', { name: 'Statistics' }).click();
		await page.getByTestId('stats-errors').waitFor();
		await screenshot(page, 'analyst-stats-dark-1920x1080');
		// The toggle overrides the system: system (dark here) → light → dark → system.
		const toggle = page.getByTestId('theme-toggle');
		await toggle.click();
		expect(await toggle.getAttribute('data-theme')).toBe('light');
		expect(await background()).toBe(light);
		await screenshot(page, 'analyst-stats-light-1920x1080');
		await page.reload();
		await page.getByTestId('stats-errors').waitFor();
		expect(await background()).toBe(light);
		await page.getByTestId('theme-toggle').click();
		await page.getByTestId('theme-toggle').click();
		expect(await page.getByTestId('theme-toggle').getAttribute('data-theme')).toBe('dark');
		await page.setViewportSize({ width: 1280, height: 720 });
	});
});
