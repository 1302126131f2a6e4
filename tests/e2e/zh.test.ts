// The page in 中文 at 1440×900, walked on the sample: landing and storage, events with details,
// a filter error, statistics, sockets with findings and a story, lanes and conversations, trace
// facts, DNS, then a capture's packets and an import error, and two runs compared. No Latin word but data may show
// (tests/i18n/latin-words.ts); what is still English on a page is listed in STILL_ENGLISH, so a
// new English word fails. Screenshots of each stop go to test-results/zh/ (the CJK font is
// fonts-noto-cjk).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { zh } from '../../web/src/i18n/zh.ts';
import { FILTER_FIELDS } from '../../web/src/query/filter-fields.ts';
import { netshCaptureScenario } from '../builders/netsh-capture.ts';
import { run } from '../compare/workload.ts';
import { statsOf } from '../decoder/load.ts';
import { latinWords as dataFree } from '../i18n/latin-words.ts';
import { answerFor } from './analyst-page.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { listedComplete, openFirstChange } from './compare-steps.ts';
import { projectRoot } from './server.ts';
import { dropFile, openSite, type OpenedPage } from './page.ts';

const baseUrl = inject('baseUrl');
const shots = 'test-results/zh';

let browser: Browser;
let tab: OpenedPage;
let page: Page;

beforeAll(async () => {
	mkdirSync(shots, { recursive: true });
	browser = await launchBrowser({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
	tab = await openSite(browser, baseUrl);
	page = tab.page;
});

afterAll(async () => {
	expect(tab?.errors ?? []).toEqual([]);
	await browser?.close();
});

/**
 * English still shown on a page, and why (see the README's Chinese section): words of the
 * decoder's and the packet dissectors' own descriptions, which the page shows as data.
 */
const STILL_ENGLISH: Record<string, readonly string[]> = {
	// Percentiles, and the Location field's name.
	sockets: ['p50', 'p90', 'p99', 'Location'],
	// DNS record types and DNS status codes are identifiers; p50 a percentile.
	dns: [
		'p50',
		'p90',
		'p99',
		'ERROR_SUCCESS',
		'AAAA',
		'CNAME',
		'PTR',
		'SRV',
		'TXT',
		'MX',
		'NS',
		'SOA',
	],
	// The commands that record a trace, named in the hint.
	error: ['logman', 'netsh', 'trace', 'pktmon', 'WPR', 'cab'],
	// Header field names the facts quote (EventsLost, BuffersLost) and a provider's name.
	facts: ['EventsLost', 'BuffersLost', 'winsock'],
	// Interface names, protocol names, TCP flags and options (data), and the packet filter the
	// user typed (tcp.nosuch).
	packets: ['eth', 'ICMPv6', 'MSS', 'WS', 'ACK', 'PSH', 'FIN', 'SYN', 'RST', 'tcp.nosuch'],
	// The header fields a damage names (as the trace header spells them).
	damage: ['BufferSize', 'Offset'],
	// The header fields the description of a file that is no trace names.
	'not-etl': ['BufferSize'],
	// The header field a note about missing buffers names.
	notes: ['BuffersWritten'],
	// Percentiles of the connect times.
	compare: ['p50', 'p90'],
	// The file extension in the storage panel's notes.
	storage: ['etl'],
	// The user's own filter text, and the field names the message lists (identifiers).
	filter: ['colour', 'red', ...FILTER_FIELDS],
};

/** The Latin words in `texts` that are neither data nor listed as still English on `stop`. */
function latinWords(texts: readonly string[], stop = ''): string[] {
	return dataFree(texts, STILL_ENGLISH[stop] ?? []);
}

/** What a part of the page shows, as a person reads it. */
const shown = async (testId: string) => [(await page.getByTestId(testId).innerText()) ?? ''];

const shoot = (name: string) => page.screenshot({ path: `${shots}/${name}.png` });

describe('中文 at 1440×900', () => {
	it('landing, with the storage panel', async () => {
		expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-Hans');
		await page.getByTestId('storage-panel').waitFor();
		expect(latinWords(await shown('storage-panel'), 'storage')).toEqual([]);
		await shoot('landing');
	});

	it('events: each AFD event by its Chinese title and level, with the name on hover', async () => {
		await page.getByRole('button', { name: zh['drop.sample'] }).click();
		await answerFor(page, '');
		const cells = page.locator('[role="gridcell"][data-column="event"]');
		await cells.first().waitFor();
		// AFD events beyond Microsoft's page have Chinese titles too: no manifest name in the table.
		const shown = await cells.allTextContents();
		expect(shown.length).toBeGreaterThan(5);
		expect(shown.filter((x) => /\bAfd[A-Z]/.test(x))).toEqual([]);
		await page.locator('#filter-input').fill('event:SocketCreate');
		await page.locator('#filter-input').press('Enter');
		await answerFor(page, 'event:SocketCreate');
		const first = page.locator('[role="row"][data-position="0"] [data-column="event"]');
		expect(await first.textContent()).toBe('套接字创建');
		expect(await first.getAttribute('title')).toContain('SocketCreate');
		const level = page.locator('[role="row"][data-position="0"] [data-column="level"]');
		expect(await level.textContent()).toBe(zh['level.info']);
		// The filter takes the title the table shows: the rows of every event of that title (the
		// page's SocketCreate and AfdCreate, 套接字创建 both).
		await page.locator('#filter-input').fill('event:SocketCreate or event:AfdCreate');
		await page.locator('#filter-input').press('Enter');
		const byName = await answerFor(page, 'event:SocketCreate or event:AfdCreate');
		expect(byName.matched).toBeGreaterThan(1);
		await page.locator('#filter-input').fill('event:套接字创建');
		await page.locator('#filter-input').press('Enter');
		expect(await answerFor(page, 'event:套接字创建')).toEqual(byName);
		await page.locator('[role="row"][data-position="0"]').click();
		const details = page.getByTestId('details');
		await details.waitFor();
		const keys = await details.locator('th[scope="row"][title]').allTextContents();
		expect(latinWords(keys)).toEqual([]);
		await shoot('events-details');
	});

	it('a filter error, in Chinese at the place it points to', async () => {
		await page.locator('#filter-input').fill('colour:red');
		await page.locator('#filter-input').press('Enter');
		const problem = page.getByTestId('filter-error');
		await expect.poll(() => problem.innerText(), { timeout: 20_000 }).toMatch(/未知字段/);
		expect(latinWords([await problem.innerText()], 'filter')).toEqual([]);
		await shoot('filter-error');
		await page.locator('#filter-input').fill('');
		await page.locator('#filter-input').press('Enter');
		await answerFor(page, '');
	});

	it('statistics', async () => {
		await page.getByRole('tab', { name: zh['trace.panel-stats'] }).click();
		await page.waitForTimeout(300);
		await shoot('statistics');
	});

	it('sockets with findings, a story, lanes and conversations', async () => {
		await page.getByRole('tab', { name: zh['trace.panel-sockets'] }).click();
		const rows = page.getByTestId('socket-table').locator('tbody tr');
		await rows.first().waitFor({ timeout: 30_000 });
		const states = await page
			.getByTestId('socket-table')
			.locator('td[data-col="state"], td[data-col="endedBy"]')
			.allTextContents();
		expect(states.length).toBeGreaterThan(0);
		expect(latinWords(states)).toEqual([]);
		await shoot('sockets-findings');
		await rows.first().click();
		const story = await page.getByTestId('socket-story').locator('p').first().textContent();
		expect(story).toMatch(/[\u4e00-\u9fff]/);
		// When before what, in Chinese units.
		expect(story ?? '').not.toMatch(/\d s\b|后，/);
		await shoot('story');
		await page.getByTestId('lanes').scrollIntoViewIfNeeded();
		await shoot('lanes-conversations');
		const sockets = await page.getByTestId('sockets').innerText();
		expect(latinWords([sockets], 'sockets')).toEqual([]);
		// Its follow-socket times in Chinese units, none in ms or s.
		expect(await page.getByTestId('follow-socket').innerText()).not.toMatch(/\d (ms|s)\b/);
		// A filter the list does not take says so in Chinese, naming what was typed.
		await page.getByTestId('socket-filter').fill('colour:red');
		const problem = page.getByTestId('socket-filter-error');
		expect(await problem.innerText()).toBe(
			zh['sockets.filter-unknown-field']!.replace('{{name}}', 'colour'),
		);
		await page.getByTestId('socket-filter').fill('latency>abc');
		expect(latinWords([await problem.innerText()], 'filter')).toEqual(['abc']);
		await page.getByTestId('socket-filter').fill('');
	});

	it('trace facts', async () => {
		await page.getByRole('tab', { name: zh['trace.panel-events'] }).click();
		const box = page.locator('details.facts-box');
		if (!(await box.evaluate((d) => (d as HTMLDetailsElement).open)))
			await box.locator('summary').click();
		const facts = page.getByTestId('trace-facts');
		await facts.waitFor();
		expect(latinWords(await shown('trace-facts'), 'facts')).toEqual([]);
		// The duration and the timer's resolution in Chinese units.
		expect((await shown('trace-facts'))[0]).not.toMatch(/\d (ms|s)\b/);
		await facts.scrollIntoViewIfNeeded();
		await shoot('trace-facts');
	});

	it('DNS', async () => {
		await page.getByRole('tab', { name: zh['trace.panel-dns'] }).click();
		await page.getByTestId('dns-names').waitFor();
		expect(latinWords(await shown('dns'), 'dns')).toEqual([]);
		expect((await shown('dns'))[0]).not.toMatch(/\d (ms|s)\b/);
		await shoot('dns');
	});

	it('packets of a capture', { timeout: 120_000 }, async () => {
		const s = netshCaptureScenario();
		const name = 'netsh-capture.etl';
		const path = join(mkdtempSync(join(tmpdir(), 'sockscope-zh-')), name);
		writeFileSync(path, s.bytes);
		await dropFile(page, path);
		// As waitForImport (analyst-page.ts), with the page's Chinese labels.
		await page
			.locator(`section.trace[aria-label="${zh['trace.label']!.replace('{{name}}', name)}"]`)
			.waitFor({ timeout: 60_000 });
		await page
			.getByTestId('filter-status')
			.filter({ hasNotText: zh['trace.importing']!.trim() })
			.getByTestId('total-count')
			.filter({ hasText: (await statsOf(s.bytes)).records.toLocaleString('en-US') })
			.waitFor({ timeout: 120_000 });
		await page.locator('body').press('5');
		await page.getByRole('tab', { name: zh['trace.panel-packets'], selected: true }).waitFor();
		await page
			.locator('[data-testid="packet-status"][data-filter=""]')
			.waitFor({ timeout: 60_000 });
		expect(latinWords(await shown('packets'), 'packets')).toEqual([]);
		// Info in Chinese: the DNS query and response, why a frame has no socket.
		const info = (await page.getByTestId('packets').innerText()).split('\n');
		expect(info.some((l) => l.includes('DNS 查询'))).toBe(true);
		expect(info.some((l) => l.includes('DNS 响应'))).toBe(true);
		expect(info.some((l) => l.includes(zh['packet-stats.reason.arp']!))).toBe(true);
		await shoot('packets');
		// A filter the packets do not take: what is wrong, in Chinese.
		await page.getByTestId('packet-filter').fill('tcp.nosuch==1');
		await page.getByTestId('packet-filter').press('Enter');
		const problem = page.getByTestId('packet-error');
		await expect.poll(() => problem.innerText(), { timeout: 20_000 }).toMatch(/数据包没有字段/);
		expect(latinWords([await problem.innerText()], 'packets')).toEqual([]);
		await page.getByTestId('packet-filter').fill('');
		await page.getByTestId('packet-filter').press('Enter');
		await problem.waitFor({ state: 'detached' });
	});

	it('an import error', async () => {
		const path = join(mkdtempSync(join(tmpdir(), 'sockscope-zh-')), 'damaged.etl');
		writeFileSync(path, new TextEncoder().encode('this is no trace\n'.repeat(20)));
		await dropFile(page, path);
		const error = page.getByTestId('error');
		await error.waitFor({ timeout: 30_000 });
		const words = await error.evaluate((e) => {
			const c = e.cloneNode(true) as HTMLElement;
			c.querySelector('[data-testid="error-message"]')?.remove();
			c.querySelector('[data-testid="error-file"]')?.remove();
			return c.innerText;
		});
		expect(words).toMatch(/[\u4e00-\u9fff]/);
		expect(latinWords([words], 'error')).toEqual([]);
		// The decoder's description in Chinese too: the offsets and values it names stay as they
		// are, and so does the sample of the file's text (data, quoted).
		const why = await page.getByTestId('error-message').innerText();
		expect(why).toMatch(/^不是 ETL 文件：缓冲区 0（偏移 0x0）的 BufferSize 为 0x[0-9a-f]+/);
		expect(why).toMatch(/；文件开头：文本（"this is no trace this is no trac…"）$/);
		expect(latinWords([why.replace(/"[^"]*"/g, ' ')], 'not-etl')).toEqual([]);
		await shoot('import-error');
	});

	it('a damaged trace in the library: its damage in Chinese', { timeout: 120_000 }, async () => {
		// The sample with one buffer's BufferSize broken: imported to the end, its damage listed.
		const bytes = readFileSync(join(projectRoot, 'public', 'sample.etl'));
		bytes.writeUInt32LE(0x7fffffff, 0x30000);
		const path = join(mkdtempSync(join(tmpdir(), 'sockscope-zh-')), 'damaged-sample.etl');
		writeFileSync(path, bytes);
		await dropFile(page, path);
		const item = page
			.locator('li[data-trace-id][data-status="damaged"]')
			.filter({ hasText: 'damaged-sample.etl' });
		await item.waitFor({ timeout: 120_000 });
		await page.goto(baseUrl);
		const damage = await item.getByTestId('trace-damage').innerText();
		expect(damage).toContain('缓冲区 3（偏移 0x30000）的 BufferSize 为 0x7fffffff');
		expect(latinWords([damage], 'damage')).toEqual([]);
		await shoot('library-damage');
	});

	it('a trace with a buffer missing: its note in Chinese', { timeout: 120_000 }, async () => {
		// The sample without its buffer 1: the header's BuffersWritten and the sequence numbers
		// say which one is missing.
		const bytes = readFileSync(join(projectRoot, 'public', 'sample.etl'));
		const cut = Buffer.concat([bytes.subarray(0, 0x10000), bytes.subarray(0x20000)]);
		const path = join(mkdtempSync(join(tmpdir(), 'sockscope-zh-')), 'gap-sample.etl');
		writeFileSync(path, cut);
		await dropFile(page, path);
		const item = page
			.locator('li[data-trace-id][data-status="damaged"]')
			.filter({ hasText: 'gap-sample.etl' });
		await item.waitFor({ timeout: 120_000 });
		await page.goto(baseUrl);
		const damage = await item.getByTestId('trace-damage').innerText();
		expect(damage).toMatch(/缺少序号为 \d+ 的缓冲区/);
		expect(damage).toMatch(/跟踪标头记录写入了 \d+ 个缓冲区（BuffersWritten）/);
		expect(latinWords([damage], 'notes')).toEqual([]);
	});

	it(
		'two runs compared: the change, its sentence and the figures',
		{ timeout: 180_000 },
		async () => {
			const runs = [
				{ name: 'works.etl', bytes: run(41) },
				{ name: 'fails.etl', bytes: run(1041, 'refused') },
			];
			const dir = mkdtempSync(join(tmpdir(), 'sockscope-zh-'));
			for (const r of runs) {
				await page.goto(baseUrl);
				const path = join(dir, r.name);
				writeFileSync(path, r.bytes);
				await dropFile(page, path);
				await listedComplete(page, r.name, 120_000);
			}
			await page.goto(baseUrl);
			await openFirstChange(
				page,
				runs.map((r) => r.name),
			);
			const sentences = page.getByTestId('compare-sentences');
			await sentences.waitFor();
			expect(await sentences.innerText()).toMatch(/个连接中有 \d+ 个被拒绝/);
			const compare = await page.locator('section.compare').innerText();
			expect(latinWords([compare], 'compare')).toEqual([]);
			expect(compare).not.toMatch(/\d (ms|s)\b/);
			await shoot('compare');
		},
	);
});
