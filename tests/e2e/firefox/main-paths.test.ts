// The user's main paths in Debian's Firefox ESR, through WebDriver BiDi (puppeteer-core), against
// the production build: a real file dropped and imported into IndexedDB, another picked, the
// sample in one click, filters counted against the sample's ground truth, an event's details, a
// socket's story, a CSV download, what the page says of the Chromium-only file handler, and a
// reload with the server gone that still opens the stored trace from the service worker's copy.
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ElementHandle, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sockscope } from '../../cli/run.ts';
import { SCREENSHOTS } from '../analyst-page.ts';
import { projectRoot, startServer, type RunningServer } from '../server.ts';
import { fixturesDir, readExpectedFacts } from '../sources.ts';
import { collectErrors, launchFirefox, type Firefox } from './firefox.ts';
import {
	STEP_MS,
	answerFor,
	applyFilter,
	clickText,
	downloaded,
	dropFile,
	readFact,
	textOf,
	until,
	waitForFacts,
} from './page.ts';
import { DB_NAME, type TraceRecord } from '../../../web/src/store/db.ts';
import { query } from '../../export/duckdb.ts';
import { FIREFOX_STEP_MS } from '../../timeouts.ts';

interface SampleTruth {
	session: { build: number; loggerName: string };
	processes: { pid: number; name: string; afdEvents: number }[];
	sockets: {
		pid: number;
		process: string;
		endpoint: string;
		remote: string | null;
		error: string | null;
	}[];
	afdEventCounts: Record<string, number>;
	eventsByProvider: Record<string, number>;
	totalRecords: number;
}

const truth = JSON.parse(
	readFileSync(join(projectRoot, 'tests/fixtures/sample/sample.truth.json'), 'utf8'),
) as SampleTruth;
const KERNEL_PROCESS_GUID = '22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716';
const curl = truth.processes.find((p) => p.name === 'curl.exe')!;
const refused = truth.sockets.find((s) => s.error === 'STATUS_CONNECTION_REFUSED')!;
const DROPPED = 'tx-win7-kernel-network.etl';
const dropped = join(fixturesDir, DROPPED);
const refusedCount = truth.sockets.filter((s) => s.error === 'STATUS_CONNECTION_REFUSED').length;
const en = (n: number) => n.toLocaleString('en-US');

type StoredFacts = Pick<TraceRecord, 'status' | 'copied' | 'records' | 'size' | 'error'>;

/** The library's record of the trace named `name`, read from the page's IndexedDB as it is. */
function storedTrace(tab: Page, name: string): Promise<StoredFacts | undefined> {
	return tab.evaluate(
		(dbName, name) =>
			new Promise<StoredFacts | undefined>((resolve, reject) => {
				// No version: the database as the app made it.
				const open = indexedDB.open(dbName);
				open.onerror = () => reject(open.error);
				open.onsuccess = () => {
					const db = open.result;
					const all = db.transaction('traces').objectStore('traces').getAll();
					all.onerror = () => reject(all.error);
					all.onsuccess = () => {
						db.close();
						const t = (all.result as TraceRecord[]).find((t) => t.name === name);
						resolve(
							t && {
								status: t.status,
								copied: t.copied,
								records: t.records,
								size: t.size,
								error: t.error,
							},
						);
					};
				};
			}),
		DB_NAME,
		name,
	);
}

// A server of this file's own: the offline step stops it.
let server: RunningServer;
let firefox: Firefox;
let page: Page;
let errors: string[];

beforeAll(async () => {
	server = await startServer(['dist', '--port', '0']);
	firefox = await launchFirefox();
	page = await firefox.browser.newPage();
	await page.setViewport({ width: 1280, height: 900 });
	page.setDefaultTimeout(STEP_MS);
	errors = collectErrors(page, new URL(server.url).origin);
}, FIREFOX_STEP_MS);

afterEach(async ({ task }) => {
	// A failed step leaves a picture of the page beside the Chromium tests' screenshots.
	if (task.result?.state !== 'fail' || !page) return;
	mkdirSync(SCREENSHOTS, { recursive: true });
	const name = task.name.replace(/\W+/g, '-').slice(0, 60);
	await page.screenshot({ path: join(SCREENSHOTS, `firefox-failed-${name}.png`) }).catch(() => {});
});

afterAll(async () => {
	await firefox?.close();
	await server?.stop();
	expect(errors ?? []).toEqual([]);
});

describe('Firefox ESR on the main paths', { timeout: FIREFOX_STEP_MS }, () => {
	it('opens the production build', async () => {
		expect(await firefox.browser.version()).toMatch(/^firefox\/\d+/);
		await page.goto(server.url);
		await page.waitForSelector('h1::-p-text(Sockscope)');
		expect(await page.title()).toBe('Sockscope');
		expect(await textOf(page, '[data-testid="privacy-note"]')).toContain(
			'Nothing leaves your machine',
		);
		// The service worker takes the app for offline use on this first visit.
		await page.waitForSelector('[data-testid="offline-status"][data-state="ready"]');
		expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
	});

	it('says that opening .etl files from Explorer needs another browser', async () => {
		expect(await page.evaluate(() => 'launchQueue' in window)).toBe(false);
		const notice = '[data-testid="os-files"]';
		await page.waitForSelector(`${notice}[data-state="unsupported"]`);
		expect(await textOf(page, notice)).toContain('cannot open .etl files from Explorer');
		// In Chinese too.
		await page.select('[data-testid="language"]', 'zh');
		await until(
			async () => ((await textOf(page, notice)).includes('资源管理器') ? true : undefined),
			'the notice in Chinese',
		);
		await page.select('[data-testid="language"]', 'en');
		await until(
			async () => ((await textOf(page, notice)).includes('Explorer') ? true : undefined),
			'the notice in English again',
		);
	});

	it('imports a dropped file into IndexedDB, with every record the command line reads', async () => {
		const highlighted = await dropFile(page, dropped);
		expect(highlighted, 'the drop zone highlights while a file is dragged over it').toBe(true);
		await waitForFacts(page, DROPPED);
		const want = readExpectedFacts().get(DROPPED.replace(/\.etl$/, ''))!;
		expect(Number(await readFact(page, 'build'))).toBe(want.build);
		expect(Number(await readFact(page, 'pointerSize'))).toBe(want.pointerSize);
		expect(Number(await readFact(page, 'cpus'))).toBe(want.cpus);
		const cli = await sockscope('decode', dropped);
		expect(cli.code).toBe(0);
		const records = cli.stdout.trimEnd().split('\n').length;
		const { matched, total } = await answerFor(page, '');
		expect({ matched, total }).toEqual({ matched: records, total: records });
		// Kept in IndexedDB, complete, with the copy of the file its details are read from.
		const stored = await until(async () => {
			const trace = await storedTrace(page, DROPPED);
			return trace?.status === 'complete' && trace.copied ? trace : undefined;
		}, `${DROPPED} complete in IndexedDB`);
		expect(stored).toMatchObject({ records, size: statSync(dropped).size, error: null });
		await clickText(page, 'button', '← All traces');
		await page.waitForSelector(`[data-testid="open-trace"]::-p-text(${DROPPED})`);
	});

	it('imports a file picked with the file input', async () => {
		const name = 'krabsetw-powershell-manifest.etl';
		const input = await page.waitForSelector('input[type="file"][data-testid="file-input"]');
		await (input as ElementHandle<HTMLInputElement>).uploadFile(join(fixturesDir, name));
		await input!.dispose();
		await waitForFacts(page, name);
		const want = readExpectedFacts().get(name.replace(/\.etl$/, ''))!;
		expect(Number(await readFact(page, 'build'))).toBe(want.build);
		expect(Number(await readFact(page, 'cpus'))).toBe(want.cpus);
		const cli = await sockscope('decode', join(fixturesDir, name));
		const records = cli.stdout.trimEnd().split('\n').length;
		expect((await answerFor(page, '')).total).toBe(records);
		await clickText(page, 'button', '← All traces');
	});

	it('opens the bundled sample with one click', async () => {
		await clickText(page, 'button', 'Open the sample trace');
		await waitForFacts(page, 'sample.etl');
		expect(Number(await readFact(page, 'build'))).toBe(truth.session.build);
		expect(await readFact(page, 'loggerName')).toBe(truth.session.loggerName);
		const { matched, total, text } = await answerFor(page, '');
		expect({ matched, total }).toEqual({ matched: truth.totalRecords, total: truth.totalRecords });
		expect(text).toContain(`${en(truth.totalRecords)} of ${en(truth.totalRecords)} events`);
	});

	it('filters, with the counts of the ground truth in the "N of M events" header', async () => {
		const cases: [string, number][] = [
			['event:1003', truth.afdEventCounts['1003']!],
			['event:1004 or event:1007', truth.afdEventCounts['1004']! + truth.afdEventCounts['1007']!],
			['process:curl.exe', curl.afdEvents],
			['provider:Microsoft-Windows-Kernel-Process', truth.eventsByProvider[KERNEL_PROCESS_GUID]!],
			// One failing connect event per refused socket.
			['status:STATUS_CONNECTION_REFUSED', refusedCount],
		];
		for (const [filter, expected] of cases) {
			const answer = await applyFilter(page, filter);
			expect(answer.matched, filter).toBe(expected);
			expect(answer.text, filter).toContain(`${en(expected)} of ${en(truth.totalRecords)} events`);
		}
	});

	it("opens an event's details: the refused connect, its NTSTATUS and the Winsock error", async () => {
		await applyFilter(page, 'status:STATUS_CONNECTION_REFUSED');
		const row = '[data-testid="event-scroller"] [data-position="0"]';
		expect(await textOf(page, `${row} [data-column="process"]`)).toBe(
			`${refused.process} (${refused.pid})`,
		);
		expect(await textOf(page, `${row} [data-column="remote"]`)).toBe(refused.remote);
		await page.locator(row).setTimeout(STEP_MS).click();
		const details = await textOf(page, '[data-testid="details"]');
		expect(details).toContain('STATUS_CONNECTION_REFUSED');
		expect(details).toContain('WSAECONNREFUSED');
		expect(details).toContain('AfdConnectWithAddress');
		expect(await page.$('[data-testid="event-scroller"] .row.selected')).not.toBeNull();
	});

	it("tells a socket's story in the Sockets panel", async () => {
		await clickText(page, '[role="tab"]', 'Sockets');
		await page.waitForSelector('[data-testid="socket-table"]');
		expect(await textOf(page, '[data-testid="socket-count"]')).toContain(
			`${truth.sockets.length} of ${truth.sockets.length}`,
		);
		expect(await page.$$eval('[data-testid="socket-table"] tbody tr', (r) => r.length)).toBe(
			truth.sockets.length,
		);
		await page
			.locator(`[data-testid="socket-table"] tbody tr::-p-text(${refused.endpoint})`)
			.setTimeout(STEP_MS)
			.click();
		const story = await textOf(page, '[data-testid="socket-story"]');
		expect(story).toContain(
			`${refused.process} (PID ${refused.pid}) tried to connect to ${refused.remote}: refused (${refused.error})`,
		);
		await clickText(page, '[role="tab"]', 'Events');
	});

	it('downloads the filtered events as CSV, one line per match (read by DuckDB)', async () => {
		const filter = 'event:1003';
		const { matched } = await applyFilter(page, filter);
		await clickText(page, 'button', 'Export ▾');
		await clickText(page, '[role="menuitem"]', 'as CSV');
		const bytes = await downloaded(firefox.downloads, 'sample-filtered.csv');
		// The table as the page shows it: its columns, one line per match.
		expect(bytes.toString('utf8').split('\n')[0]).toContain('Event');
		const csv = join(firefox.downloads, 'sample-filtered.csv').replace(/'/g, "''");
		const [read] = await query(
			`select count(*) as n, count(*) filter (where "Event" like '%Send%') as sends ` +
				`from read_csv('${csv}', header = true, all_varchar = true)`,
		);
		expect(read).toEqual({ n: BigInt(matched), sends: BigInt(matched) });
	});

	it('reloads with the server stopped and still opens the stored trace, its details from the copy', async () => {
		const filter = 'status:STATUS_CONNECTION_REFUSED';
		await applyFilter(page, filter);
		await server.stop();
		await expect(fetch(server.url), 'the server is gone').rejects.toThrow();
		await page.reload();
		await page.waitForSelector('h1::-p-text(Sockscope)');
		// The URL named the trace and the filter: the app opens it again from the library.
		const { matched, total } = await answerFor(page, filter);
		expect({ matched, total }).toEqual({ matched: refusedCount, total: truth.totalRecords });
		// Its details decode the record again from the library's copy of the file.
		await page
			.locator('[data-testid="event-scroller"] [data-position="0"]')
			.setTimeout(STEP_MS)
			.click();
		expect(await textOf(page, '[data-testid="details"]')).toContain('WSAECONNREFUSED');
		await clickText(page, '[role="tab"]', 'Sockets');
		expect(await textOf(page, '[data-testid="socket-count"]')).toContain(
			`${truth.sockets.length} of ${truth.sockets.length}`,
		);
		await clickText(page, 'button', '← All traces');
		for (const name of ['sample.etl', DROPPED])
			await page.waitForSelector(`[data-testid="open-trace"]::-p-text(${name})`);
	});
});
