// The offline precache waits for the page to load, a quiet moment, and no import running.
import { describe, expect, it } from 'vitest';
import {
	IDLE_TIMEOUT_MS,
	QUIET_AFTER_MS,
	whenQuiet,
	type Imports,
	type QuietHost,
} from '../../web/src/pwa/quiet.ts';

/** A hand-driven page: each step settles only when the test says so. */
function page() {
	const log: string[] = [];
	let load!: () => void;
	const loaded = new Promise<void>((r) => (load = r));
	const idles: (() => void)[] = [];
	const host: QuietHost = {
		loaded: () => loaded,
		idle: (afterMs, timeoutMs) => {
			log.push(`idle ${afterMs} ${timeoutMs}`);
			return new Promise<void>((r) => idles.push(r));
		},
	};
	let running = false;
	let end: (() => void) | null = null;
	const imports: Imports = {
		running: () => running,
		settled: () => (running ? new Promise<void>((r) => (end = r)) : Promise.resolve()),
	};
	return {
		host,
		imports,
		log,
		load,
		idle: () => idles.shift()!(),
		startImport: () => (running = true),
		endImport: () => {
			running = false;
			end?.();
			end = null;
		},
	};
}

/** Lets every pending callback run. */
const flush = () => new Promise((r) => setTimeout(r, 0));

function track(p: Promise<void>) {
	const state = { done: false };
	void p.then(() => (state.done = true));
	return state;
}

describe('whenQuiet', () => {
	it('waits for the load, then a quiet moment', async () => {
		const p = page();
		const quiet = track(whenQuiet(p.imports, p.host));
		await flush();
		expect(p.log).toEqual([]);
		p.load();
		await flush();
		expect(p.log).toEqual([`idle ${QUIET_AFTER_MS} ${IDLE_TIMEOUT_MS}`]);
		expect(quiet.done).toBe(false);
		p.idle();
		await flush();
		expect(quiet.done).toBe(true);
	});

	it('waits for an import running at the idle moment, then for another quiet moment', async () => {
		const p = page();
		const quiet = track(whenQuiet(p.imports, p.host));
		p.load();
		p.startImport();
		await flush();
		p.idle();
		await flush();
		expect(quiet.done).toBe(false);
		expect(p.log).toHaveLength(1);
		p.endImport();
		await flush();
		expect(p.log).toHaveLength(2);
		expect(quiet.done).toBe(false);
		// A second file dropped before that moment is waited for too.
		p.startImport();
		p.idle();
		await flush();
		expect(quiet.done).toBe(false);
		p.endImport();
		await flush();
		p.idle();
		await flush();
		expect(quiet.done).toBe(true);
	});
});
