// npm run profile:ingest [-- --size-mb N --dist DIR --top N --no-trace]: where an import's CPU
// time goes. The bench trace (bench/winsock-trace.ts, 64 MB unless told) is dropped on the page in
// headless Chromium while the browser traces V8's sampling profiler in every thread (the page, the
// decoder worker, the copy and sockets workers, which end before the import does); prints, per
// thread, its busy time per half second and the functions with the most self time. Slower than an
// unprofiled import (sampling costs): read the shares, not the totals. Function names need a
// build that is not minified: `npx vite build --minify false --outDir /tmp/x`, then `--dist /tmp/x`.
// `--callers NAME` shows where the self time of the functions so named is called from.
// `--no-trace` only imports, printing what the app logs (for a build instrumented for a question).
// `--first MS` reports only the first MS milliseconds after the file is chosen (its first rows).
// `--reopen` imports unprofiled, then profiles the page's reload until the trace's first rows.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { launchBrowser } from '../tests/e2e/browser.ts';
import { projectRoot, startServer } from '../tests/e2e/server.ts';
import { cachePath, cached, generate } from './winsock-trace.ts';

const args = process.argv.slice(2);
const sizeAt = args.indexOf('--size-mb');
const sizeMB = sizeAt >= 0 ? Number(args[sizeAt + 1]) : 64;
const topAt = args.indexOf('--top');
const TOP = topAt >= 0 ? Number(args[topAt + 1]) : 25;
/** `--callers NAME`: where the self time of functions named NAME is spent from (3 callers up). */
const callersAt = args.indexOf('--callers');
const CALLERS = callersAt >= 0 ? args[callersAt + 1]! : null;
const firstAt = args.indexOf('--first');
/** `--first MS`: only what happens in the first MS ms of the import, in µs of the trace clock. */
const WINDOW_US = firstAt >= 0 ? Number(args[firstAt + 1]) * 1000 : Infinity;

interface ProfileNode {
	id: number;
	parent?: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
}

interface TraceEvent {
	name: string;
	pid: number;
	tid: number;
	id?: string;
	ts: number;
	args?: {
		name?: string;
		data?: {
			cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
			timeDeltas?: number[];
		};
	};
}

/** One thread's samples, rebuilt from the trace's ProfileChunk events. */
interface ThreadProfile {
	thread: string;
	/** When its first sample was taken (trace clock, µs). */
	start: number;
	nodes: Map<number, ProfileNode>;
	samples: number[];
	deltas: number[];
}

function profilesOf(events: TraceEvent[]): ThreadProfile[] {
	const threadNames = new Map<string, string>();
	for (const e of events)
		if (e.name === 'thread_name' && e.args?.name) threadNames.set(`${e.pid}:${e.tid}`, e.args.name);
	const byId = new Map<string, ThreadProfile>();
	for (const e of events) {
		if (e.name === 'Profile') {
			const key = `${e.pid}:${e.id}`;
			byId.set(key, {
				thread: `${threadNames.get(`${e.pid}:${e.tid}`) ?? 'thread'} ${e.pid}:${e.tid}`,
				start: (e.args?.data as { startTime?: number } | undefined)?.startTime ?? e.ts,
				nodes: new Map(),
				samples: [],
				deltas: [],
			});
		}
	}
	for (const e of events) {
		if (e.name !== 'ProfileChunk') continue;
		const p = byId.get(`${e.pid}:${e.id}`);
		const data = e.args?.data;
		if (!p || !data) continue;
		for (const n of data.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
		p.samples.push(...(data.cpuProfile?.samples ?? []));
		p.deltas.push(...(data.timeDeltas ?? []));
	}
	return [...byId.values()];
}

const IDLE = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

function shortUrl(url: string): string {
	const m = /\/assets\/([^/?]+)/.exec(url) ?? /([^/?]+)(\?.*)?$/.exec(url);
	return m ? m[1]! : url;
}

/** Busy milliseconds per BUCKET_MS of the import, from `origin` (µs). */
const BUCKET_MS = 500;

function report(p: ThreadProfile, origin: number): void {
	const buckets: number[] = [];
	let at = p.start;
	const self = new Map<string, number>();
	const callers = new Map<string, number>();
	let total = 0;
	let busy = 0;
	for (let i = 0; i < p.samples.length; i++) {
		// A sample's time is the delta to the next one.
		const dt = (p.deltas[i + 1] ?? 0) / 1000;
		at += p.deltas[i] ?? 0;
		if (at - origin > WINDOW_US) break;
		const node = p.nodes.get(p.samples[i]!);
		if (!node) continue;
		const f = node.callFrame;
		const name = f.functionName || '(anonymous)';
		const key = IDLE.has(name) ? name : `${name} ${shortUrl(f.url)}:${f.lineNumber + 1}`;
		self.set(key, (self.get(key) ?? 0) + dt);
		if (name === CALLERS) {
			const chain: string[] = [];
			for (let up = p.nodes.get(node.parent ?? -1); up && chain.length < 3;) {
				const c = up.callFrame;
				chain.push(`${c.functionName || '(anonymous)'}:${c.lineNumber + 1}`);
				up = p.nodes.get(up.parent ?? -1);
			}
			const k = `${key} <- ${chain.join(' <- ')}`;
			callers.set(k, (callers.get(k) ?? 0) + dt);
		}
		total += dt;
		if (name !== '(idle)') {
			busy += dt;
			const k = Math.floor((at - origin) / 1000 / BUCKET_MS);
			if (k >= 0) buckets[k] = (buckets[k] ?? 0) + dt;
		}
	}
	if (busy < 50) return;
	console.log(
		`\n== ${p.thread}: busy ${busy.toFixed(0)} ms of ${total.toFixed(0)} ms sampled (idle ${(self.get('(idle)') ?? 0).toFixed(0)} ms)`,
	);
	self.delete('(idle)');
	console.log(
		`busy per ${BUCKET_MS} ms: ${Array.from(buckets, (v) => Math.round((100 * (v ?? 0)) / BUCKET_MS)).join(' ')} (%)`,
	);
	const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP);
	for (const [k, ms] of top)
		console.log(
			`${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / busy).toFixed(1).padStart(5)}%  ${k}`,
		);
	if (callers.size > 0) console.log(`-- where ${CALLERS} is called from`);
	for (const [k, ms] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, TOP))
		console.log(`${ms.toFixed(0).padStart(7)} ms  ${k}`);
}

/** What the pages' main threads spent in the browser's own work (style, layout, paint…), in ms. */
function rendering(events: TraceEvent[], origin: number): void {
	const KINDS = new Set([
		'UpdateLayoutTree',
		'Layout',
		'Paint',
		'PrePaint',
		'Layerize',
		'HitTest',
		'ParseHTML',
		'IntersectionObserverController::computeIntersections',
		'ResizeObserverController::DeliverObservations',
	]);
	const sums = new Map<string, { ms: number; n: number }>();
	for (const e of events as (TraceEvent & { ph?: string; dur?: number })[]) {
		if (e.ph !== 'X' || !e.dur || !KINDS.has(e.name) || e.ts - origin > WINDOW_US) continue;
		const s = sums.get(e.name) ?? { ms: 0, n: 0 };
		s.ms += e.dur / 1000;
		s.n++;
		sums.set(e.name, s);
	}
	if (sums.size === 0) return;
	console.log('\n== rendering work of the pages (ms, times)');
	for (const [name, s] of [...sums].sort((a, b) => b[1].ms - a[1].ms))
		console.log(`${s.ms.toFixed(0).padStart(7)} ms ${String(s.n).padStart(6)}×  ${name}`);
}

async function main() {
	const distAt = args.indexOf('--dist');
	const dist = distAt >= 0 ? args[distAt + 1]! : 'dist';
	if (!existsSync(resolve(projectRoot, dist, 'index.html')))
		throw new Error('run npm run build first');
	const path = cachePath(sizeMB);
	if (!cached(sizeMB)) generate(path, sizeMB, (l) => process.stderr.write(`${l}\n`));
	const server = await startServer([dist, '--port', '0']);
	const browser = await launchBrowser({ viewport: { width: 1600, height: 1000 } });
	try {
		const page = await browser.context.newPage();
		await page.goto(server.url);
		await page.getByRole('heading', { level: 1, name: 'Sockscope' }).waitFor();
		// What the app's workers log (a build instrumented for a question prints its answer so).
		page.context().on('console', (m) => console.log(`console: ${m.text()}`));
		const b = browser.context.browser()!;
		const tracing = !args.includes('--no-trace');
		const reopen = args.includes('--reopen');
		if (tracing && !reopen)
			await b.startTracing(page, {
				categories: [
					'disabled-by-default-v8.cpu_profiler',
					'v8.execute',
					'__metadata',
					'devtools.timeline',
				],
			});
		const t0 = performance.now();
		await page.getByLabel('Choose a trace').setInputFiles(path);
		await page.getByTestId('import-progress').waitFor({ state: 'attached', timeout: 60_000 });
		await page.getByTestId('import-progress').waitFor({ state: 'detached', timeout: 3_600_000 });
		const ms = performance.now() - t0;
		console.log(`import took ${(ms / 1000).toFixed(2)} s${tracing ? ' (profiled)' : ''}`);
		const firstRows = await page.evaluate(() => {
			const open = performance.getEntriesByName('sockscope:open').at(-1);
			const rows = performance.getEntriesByName('sockscope:first-rows').at(-1);
			return open && rows ? rows.startTime - open.startTime : null;
		});
		console.log(`first rows ${firstRows?.toFixed(0) ?? '?'} ms after the file was chosen`);
		if (reopen) {
			if (tracing)
				await b.startTracing(page, {
					categories: ['disabled-by-default-v8.cpu_profiler', 'v8.execute', '__metadata'],
				});
			const t1 = performance.now();
			// The URL names the trace: the reloaded page opens it.
			await page.reload();
			await page
				.locator('[data-position="0"] [role=gridcell]')
				.first()
				.waitFor({ timeout: 120_000 });
			const reloadMs = performance.now() - t1;
			const marked = await page.evaluate(() => {
				const open = performance.getEntriesByName('sockscope:open').at(-1);
				const rows = performance.getEntriesByName('sockscope:first-rows').at(-1);
				return open && rows ? rows.startTime - open.startTime : null;
			});
			console.log(
				`reopened: first rows ${marked?.toFixed(0) ?? '?'} ms after the page asked for the trace (${reloadMs.toFixed(0)} ms after the reload)`,
			);
		}
		if (!tracing) return;
		const trace = JSON.parse((await b.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
		const profiles = profilesOf(trace.traceEvents);
		const origin = Math.min(...profiles.map((p) => p.start));
		for (const p of profiles) report(p, origin);
		rendering(trace.traceEvents, origin);
	} finally {
		await browser.close();
		await server.stop();
	}
}

await main();
