// npm run bench:hostile: the page's memory (JS heap and ArrayBuffer/WASM memory of the page and
// its workers, sampled every 100 ms) while importing the largest hostile cases of
// tests/fixtures/hostile/cases.ts, against the bound of 512 MB. A readable line per case, then ONE
// JSON line, last. Needs `npm run build` first (it serves dist/).
import { launchBrowser } from '../tests/e2e/browser.ts';
import { startServer } from '../tests/e2e/server.ts';
import { pickBytes } from '../tests/e2e/page.ts';
import { HOSTILE_CASES } from '../tests/fixtures/hostile/cases.ts';
import { IsolateMemory } from './isolate-memory.ts';

const BOUND_MB = 512;
const results: {
	name: string;
	fileBytes: number;
	events: number;
	seconds: number;
	peakMB: number;
}[] = [];
const server = await startServer(['dist', '--port', '0']);
const browser = await launchBrowser({ viewport: { width: 1600, height: 1000 } });
try {
	for (const name of ['record-flood-16m', 'record-flood-64m', 'xpress-bomb-large-buffers']) {
		const c = HOSTILE_CASES.find((x) => x.name === name)!;
		const bytes = c.bytes();
		const page = await browser.context.newPage();
		await page.goto(server.url);
		await page.getByRole('heading', { level: 1, name: 'Sockscope' }).waitFor();
		const isolates = await IsolateMemory.start(browser.context.browser()!);
		let done = false;
		const sampler = (async () => {
			while (!done) {
				await isolates.sample();
				await new Promise((r) => setTimeout(r, 100));
			}
		})();
		const t = performance.now();
		await pickBytes(page, `${name}.etl`, bytes);
		await page
			.getByTestId('filter-status')
			.filter({ hasNotText: 'importing' })
			.filter({ hasText: 'events' })
			.waitFor({ timeout: 600_000 });
		const total = Number((await page.getByTestId('total-count').textContent())!.replace(/,/g, ''));
		await page.waitForTimeout(2000);
		done = true;
		await sampler;
		const seconds = (performance.now() - t) / 1000;
		results.push({
			name,
			fileBytes: bytes.length,
			events: total,
			seconds,
			peakMB: isolates.peakTotalMB,
		});
		console.log(
			`${name}: ${bytes.length} bytes, ${total.toLocaleString('en-US')} events in ${seconds.toFixed(1)} s; peak page+workers ${isolates.peakTotalMB.toFixed(0)} MB (heap ${isolates.peak.heapMB.toFixed(0)}, buffers ${isolates.peak.buffersMB.toFixed(0)}), bound ${BOUND_MB} MB: ${isolates.peakTotalMB < BOUND_MB ? 'met' : 'MISSED'}`,
		);
		await page.close();
	}
} finally {
	await browser.close();
	await server.stop();
}
console.log(
	JSON.stringify({
		bench: 'hostile-page',
		boundMB: BOUND_MB,
		cases: results.map((r) => ({
			...r,
			seconds: +r.seconds.toFixed(2),
			peakMB: Math.round(r.peakMB),
		})),
		met: results.every((r) => r.peakMB < BOUND_MB),
	}),
);
