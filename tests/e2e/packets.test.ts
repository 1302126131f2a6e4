// The Packets panel in real Chromium, on the netsh-like capture (tests/builders/netsh-capture.ts)
// dropped on the page: key 5 opens it with every frame, a filter keeps one process's frames with
// that process in their row, a frame's details list its layers, and Download pcapng gives a file
// that tshark reads with the same frames and their owners' comments.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { netshCaptureScenario, type CaptureScript } from '../builders/netsh-capture.ts';
import { statsOf } from '../decoder/load.ts';
import { query } from '../export/duckdb.ts';
import { screenshot, waitForImport } from './analyst-page.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { dropFile, openSite, type OpenedPage } from './page.ts';

const baseUrl = inject('baseUrl');
const axeSource = readFileSync(
	createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
	'utf8',
);
const NAME = 'netsh-capture.etl';

let browser: Browser;
let tab: OpenedPage;
let page: Page;
let s: CaptureScript;

beforeAll(async () => {
	s = netshCaptureScenario();
	const path = join(mkdtempSync(join(tmpdir(), 'sockscope-packets-e2e-')), NAME);
	writeFileSync(path, s.bytes);
	browser = await launchBrowser({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
	// bypassCSP: axe-core is added as an inline script (as the accessibility test does).
	tab = await openSite(browser, baseUrl);
	page = tab.page;
	await dropFile(page, path);
	await waitForImport(page, NAME, (await statsOf(s.bytes)).records);
});

afterEach(async ({ task }) => {
	if (task.result?.state === 'fail')
		await screenshot(page, `failed-packets-${task.name.replace(/\W+/g, '-').slice(0, 60)}`);
});

afterAll(async () => {
	expect(tab?.errors ?? []).toEqual([]);
	await browser?.close();
});

/** A download's frames as tshark reads them: each one's time and its comment's first line. */
function framesOf(file: string): { epoch: string; owner: string }[] {
	const out = execFileSync(
		'/usr/bin/tshark',
		['-r', file, '-T', 'fields', '-e', 'frame.time_epoch', '-e', 'frame.comment'],
		{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
	).trim();
	return out
		? out.split('\n').map((l) => {
				const [epoch, comment] = l.split('\t');
				return { epoch: epoch!, owner: comment!.split(/\\n|\n/)[0]! };
			})
		: [];
}

/** The owner line the script says a packet's comment starts with. */
function ownerLine(socket: number | null): string {
	const pid = socket === null ? null : s.expected[socket]!.pid;
	return pid === null ? 'pid=unknown' : `pid=${pid} process=${s.images.get(pid)}`;
}

/** The count the panel shows once the filter `filter` has been answered. */
async function countFor(filter: string): Promise<number> {
	const status = page.locator(`[data-testid="packet-status"][data-filter="${filter}"]`);
	await status.waitFor({ timeout: 60_000 });
	return Number((await status.getByTestId('packet-count').textContent())!.replace(/\D/g, ''));
}

describe('the Packets panel', () => {
	it('lists every frame, filters by process, and downloads the pcapng tshark reads', async () => {
		await page.locator('body').press('5');
		await page.getByRole('tab', { name: 'Packets', selected: true }).waitFor();
		expect(await countFor('')).toBe(s.packets.length);

		const curl = s.roles.refused;
		const pid = s.expected[curl]!.pid!;
		const image = s.images.get(pid)!;
		const owned = s.packets.filter((x) => x.socket !== null && s.expected[x.socket]!.pid === pid);
		expect(owned.length).toBeGreaterThan(0);
		const filter = `process:${image}`;
		await page.getByTestId('packet-filter').fill(filter);
		await page.getByTestId('packet-filter').press('Enter');
		expect(await countFor(filter)).toBe(owned.length);
		const rows = page.getByTestId('packet-row');
		await expect.poll(() => rows.count()).toBe(owned.length);
		expect(new Set(await rows.getByTestId('packet-process').allTextContents())).toEqual(
			new Set([`${image} (${pid})`]),
		);

		await rows.first().click();
		const details = page.getByTestId('packet-details');
		await details.waitFor();
		await expect
			.poll(() => details.getByTestId('packet-layer').locator('summary').allTextContents())
			.toEqual([
				expect.stringContaining('Ethernet'),
				expect.stringContaining('IPv4'),
				expect.stringContaining('TCP'),
			]);
		await screenshot(page, 'packets');
		// No serious or critical accessibility violation, in either language.
		await page.addScriptTag({ content: axeSource });
		await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; }' });
		for (const lang of ['zh', 'en'] as const) {
			await page.getByTestId('language').selectOption(lang);
			await page.getByTestId('packet-details').waitFor();
			const found = await page.evaluate(async () => {
				const axe = (
					window as unknown as {
						axe: {
							run(): Promise<{
								violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
							}>;
						};
					}
				).axe;
				return (await axe.run()).violations
					.filter((v) => v.impact === 'serious' || v.impact === 'critical')
					.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
			});
			expect(found, lang).toEqual([]);
		}

		const [download] = await Promise.all([
			page.waitForEvent('download', { timeout: 60_000 }),
			page.getByTestId('download-pcapng').click(),
		]);
		expect(download.suggestedFilename()).toBe('netsh-capture-packets-filtered.pcapng');
		const file = (await download.path())!;
		const comments = execFileSync(
			'/usr/bin/tshark',
			['-r', file, '-T', 'fields', '-e', 'frame.comment'],
			{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
		)
			.trim()
			.split('\n')
			.map((c) => c.split(/\\n|\n/)[0]);
		expect(comments).toEqual(owned.map(() => `pid=${pid} process=${image}`));

		// The same frames as the export's packets table, for DuckDB.
		const [table] = await Promise.all([
			page.waitForEvent('download', { timeout: 60_000 }),
			page.getByTestId('download-packets-parquet').click(),
		]);
		expect(table.suggestedFilename()).toBe('netsh-capture-packets-filtered.parquet');
		const parquet = join(tmpdir(), `sockscope-e2e-${process.pid}.parquet`);
		await table.saveAs(parquet);
		const owners = await query(
			`select pid, process from read_parquet('${parquet}') order by number`,
		);
		rmSync(parquet, { force: true });
		expect(owners).toEqual(owned.map(() => ({ pid: BigInt(pid), process: image })));

		// Ctrl-click adds a row to the one picked: Download picked rows holds those two.
		expect(owned.length).toBeGreaterThan(2);
		await rows.last().click({ modifiers: ['Control'] });
		const picked = page.getByTestId('download-selected-pcapng');
		await expect.poll(() => picked.textContent()).toContain('(2)');
		const [two] = await Promise.all([
			page.waitForEvent('download', { timeout: 60_000 }),
			picked.click(),
		]);
		expect(two.suggestedFilename()).toBe('netsh-capture-packets-2-selected.pcapng');
		expect(framesOf((await two.path())!).map((f) => f.owner)).toEqual([
			ownerLine(curl),
			ownerLine(curl),
		]);
	});

	it("shows a refused socket's packets in its story: the peer's RST to its SYN", async () => {
		const refused = s.expected[s.roles.refused]!;
		await page.getByRole('tab', { name: 'Sockets' }).click();
		const endpoint = refused.key.split('#')[0]!;
		await page
			.getByTestId('socket-table')
			.locator('tbody tr')
			.filter({ hasText: endpoint })
			.first()
			.click();
		const wire = page.getByTestId('socket-wire');
		await wire.waitFor({ timeout: 60_000 });
		const owned = s.packets.filter((x) => x.socket === s.roles.refused);
		await expect.poll(() => wire.getByTestId('wire-packet').count()).toBe(owned.length);
		expect(await wire.locator('[data-fact="refused"]').textContent()).toContain(
			`nothing listens on port ${s.refusedPort}`,
		);
		await screenshot(page, 'socket-wire');
	});

	it("downloads a socket's and a conversation's packets as pcapng", async () => {
		// The refused socket is picked in the Sockets panel (the test before): its On the wire.
		const refused = s.roles.refused;
		const wire = page.getByTestId('socket-wire');
		const [one] = await Promise.all([
			page.waitForEvent('download', { timeout: 60_000 }),
			wire.getByTestId('socket-pcapng').click(),
		]);
		expect(one.suggestedFilename()).toMatch(/^netsh-capture-socket-.+\.pcapng$/);
		const owned = s.packets.filter((x) => x.socket === refused);
		expect(framesOf((await one.path())!).map((f) => f.owner)).toEqual(
			owned.map((x) => ownerLine(x.socket)),
		);

		// msedge.exe's conversation with its web server: every socket of that process and remote.
		const web = s.expected[s.roles.web]!;
		const image = s.images.get(web.pid!)!;
		const members = new Set(
			s.expected.flatMap((e, k) => (e.pid === web.pid && e.remote === web.remote ? [k] : [])),
		);
		const want = s.packets.filter((x) => x.socket !== null && members.has(x.socket));
		const row = page
			.getByTestId('conversations')
			.locator('tbody tr')
			.filter({ hasText: image })
			.filter({ hasText: web.remote! });
		const [conv] = await Promise.all([
			page.waitForEvent('download', { timeout: 60_000 }),
			row.getByTestId('conversation-pcapng').click(),
		]);
		expect(conv.suggestedFilename()).toBe(
			`netsh-capture-conversation-${image}-${web.remote!.replace(':', '_')}.pcapng`,
		);
		expect(framesOf((await conv.path())!).map((f) => f.owner)).toEqual(
			want.map((x) => ownerLine(x.socket)),
		);
	});

	it('shows protocols and top talkers in the Statistics, each row opening its packets', async () => {
		await page.getByRole('tab', { name: 'Statistics' }).click();
		const talkers = page.getByTestId('packet-talkers');
		await talkers.waitFor({ timeout: 60_000 });
		const web = s.expected[s.roles.web]!;
		const owned = s.packets.filter(
			(x) => x.socket !== null && s.expected[x.socket]!.pid === web.pid,
		);
		const row = talkers.locator(`tr[data-key="pid:${web.pid}"]`);
		expect(await row.locator('td').nth(1).textContent()).toBe(String(owned.length));
		const arp = s.packets.filter((x) => x.unowned === 'arp').length;
		const protocols = page.getByTestId('packet-protocols');
		expect(await protocols.locator('tr[data-key="Ethernet/ARP"] td').nth(1).textContent()).toBe(
			String(arp),
		);
		await screenshot(page, 'packet-stats');
		await row.locator('button').click();
		await page.getByRole('tab', { name: 'Packets', selected: true }).waitFor();
		expect(await countFor(`pid:${web.pid}`)).toBe(owned.length);
		expect(await page.getByTestId('packet-filter').inputValue()).toBe(`pid:${web.pid}`);
	});
});
