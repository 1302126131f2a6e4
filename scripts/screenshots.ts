// The README's screenshots, made from the bundled sample in the production build (run
// `npm run build` first): Debian's Chromium through playwright-core, light theme, English.
// `npm run screenshots` rewrites docs/screenshots/*.png; `npm run screenshots -- compare` only
// the ones named. The comparison is of two runs of the compare tests' workload (one refused by
// its API host every time), imported as files. `npm run screenshots -- zh [NAME…]` takes the
// Chinese ones instead (scripts/screenshots-zh.ts).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { run } from '../tests/compare/workload.ts';
import { launchBrowser } from '../tests/e2e/browser.ts';
import { listedComplete, openFirstChange } from '../tests/e2e/compare-steps.ts';
import { pickBytes } from '../tests/e2e/page.ts';
import { projectRoot, startServer } from '../tests/e2e/server.ts';
import { zhShots } from './screenshots-zh.ts';

const SAMPLE_SHOTS = [
	'events',
	'findings',
	'sockets',
	'lanes',
	'conversations',
	'follow',
	'dns',
	'pivot',
];
const only = process.argv.slice(2);
if (only[0] === 'zh') {
	await zhShots(only.slice(1));
	process.exit(0);
}
const wanted = (name: string) => only.length === 0 || only.includes(name);

const out = join(projectRoot, 'docs', 'screenshots');
mkdirSync(out, { recursive: true });
const server = await startServer(['dist', '--port', '0']);
const browser = await launchBrowser({
	viewport: { width: 1280, height: 820 },
	colorScheme: 'light',
});
try {
	const page = await browser.context.newPage();
	await page.goto(server.url);
	// Theme fades would be caught half-way; the "ready to work offline" toast would cover a panel.
	await page.addStyleTag({
		content: '* { transition: none !important; } .toasts { display: none !important; }',
	});
	const shoot = async (name: string, clip?: { selector: string }) => {
		if (!wanted(name)) return;
		const path = join(out, `${name}.png`);
		if (clip) await page.locator(clip.selector).screenshot({ path });
		else await page.screenshot({ path });
		console.log(`screenshots: wrote docs/screenshots/${name}.png`);
	};

	if (SAMPLE_SHOTS.some(wanted)) await sampleShots();
	if (wanted('compare')) await compareShot();

	async function sampleShots() {
		await page.getByRole('button', { name: 'Open the sample trace' }).click();
		await page
			.locator('[data-testid="filter-status"][data-filter=""]')
			.filter({ hasNotText: 'importing' })
			.getByTestId('match-count')
			.waitFor({ timeout: 60_000 });
		// Events with a refused connect selected: its fields, the NTSTATUS explained.
		await page.locator('#filter-input').fill('status:error');
		await page.locator('#filter-input').press('Enter');
		await page.locator('[role="row"][data-position="0"] [data-column="time"]').click();
		await page.getByTestId('details').waitFor();
		await shoot('events');

		await page.getByRole('tab', { name: 'Sockets' }).click();
		await page.getByTestId('socket-table').waitFor({ timeout: 60_000 });
		await page.getByTestId('findings').waitFor({ timeout: 60_000 });
		await shoot('findings', { selector: 'section.findings' });
		// A socket's story: the first one that failed.
		await page.getByTestId('socket-table').locator('tbody tr.failed').first().click();
		await page.getByTestId('socket-story').waitFor();
		await shoot('sockets', { selector: 'section.list' });
		await shoot('lanes', { selector: 'section.lanes-box' });
		await shoot('conversations', { selector: 'section.conversations' });
		// Follow socket: the failed socket's events as a sequence, sends and receives on two sides.
		await page.getByTestId('follow-socket').locator('tbody tr').first().waitFor();
		await shoot('follow', { selector: '[data-testid="follow-socket"]' });

		await page.getByRole('tab', { name: 'DNS' }).click();
		await page.getByTestId('dns-names').waitFor({ timeout: 60_000 });
		await shoot('dns', { selector: '[data-testid="dns"]' });

		// Group by the Winsock events: process → socket → event, the busiest process opened.
		await page.locator('#filter-input').fill('provider:Microsoft-Windows-Winsock-AFD');
		await page.locator('#filter-input').press('Enter');
		await page.getByRole('tab', { name: 'Statistics' }).click();
		await page.getByTestId('stats-mode-pivot').click();
		await page.getByTestId('pivot-table').waitFor({ timeout: 60_000 });
		await page.getByTestId('pivot-toggle').first().click();
		await page.locator('[data-testid="pivot-row"][data-depth="1"]').first().waitFor();
		await page
			.locator('[data-testid="pivot-row"][data-depth="1"]')
			.getByTestId('pivot-toggle')
			.first()
			.click();
		await page.locator('[data-testid="pivot-row"][data-depth="2"]').first().waitFor();
		await shoot('pivot', { selector: '[data-testid="pivot"]' });
	}

	// Two runs of one workload compared, the change opened: both sides' figures and sockets.
	async function compareShot() {
		const runs = [
			{ name: 'works.etl', bytes: run(41) },
			{ name: 'fails.etl', bytes: run(1041, 'refused') },
		];
		for (const r of runs) {
			await page.goto(server.url);
			await pickBytes(page, r.name, r.bytes);
			await listedComplete(page, r.name, 60_000);
		}
		await page.goto(server.url);
		await openFirstChange(
			page,
			runs.map((r) => r.name),
		);
		await page.getByTestId('compare-detail').waitFor();
		await shoot('compare', { selector: 'section.compare' });
	}
} finally {
	await browser.close();
	await server.stop();
}
