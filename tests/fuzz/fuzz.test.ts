// A bounded fuzz run in every `npm test`, through the same judge as `npm run fuzz`: mutated seeds
// (real fixtures cut to a few buffers, made traces, hostile cases), the corpus earlier campaigns
// kept, and the findings they saved, each of which must now be judged fine.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KILL_AFTER_MS, RSS_LIMIT, watched } from '../hostile/watchdog.ts';
import { FOUND_DIR } from './found.ts';
import { decoderModule, realFixture } from '../decoder/load.ts';
import { agreementProblems, decodeProblems, decodeReport, pageReport } from './check.ts';
import { firstBuffers, loadKept, seeds } from './corpus.ts';
import { freshInstances, keepInstances } from './instance-cache.ts';
import { isFault, judge, type Verdict } from './judge.ts';
import { mutate, mutateStructure } from './mutate.ts';
import { Pool } from './pool.ts';
import { structureMap } from './structure.ts';
import { CLI_PROCESS_MS, WHOLE_FIXTURES_MS } from '../timeouts.ts';
import { EXIT } from '../../web/src/cli/args.ts';

const CASES_PER_SEED = 12;
/** Seeds that decode quickly enough to be mutated in every test run (no floods or bombs). */
const SEEDS = seeds().filter((e) => !/flood|bomb/.test(e.origin));
const all = () => true;
const fault = (v: Verdict) => (isFault(v.outcome) ? `${v.outcome}: ${v.detail}` : null);

describe('fuzz: mutated seeds are judged fine', { timeout: WHOLE_FIXTURES_MS }, () => {
	it('has seeds of every family', () => {
		for (const family of ['real/', 'made/', 'hostile/'])
			expect(SEEDS.some((e) => e.origin.startsWith(family))).toBe(true);
	});
	for (const seed of SEEDS)
		it(seed.origin, async () => {
			const module = decoderModule();
			expect(fault(await judge(module, seed.bytes, all))).toBe(null);
			const map = await structureMap(module, seed.bytes);
			expect(map.spots.length).toBeGreaterThan(0);
			for (let k = 1; k <= CASES_PER_SEED; k++) {
				const bytes =
					k % 2 ? mutate(seed.bytes, k * 7919) : mutateStructure(seed.bytes, map, k * 7919);
				expect(fault(await judge(module, bytes, all)), `${seed.origin} case ${k}`).toBe(null);
			}
		});
});

describe('fuzz: the checks', { timeout: WHOLE_FIXTURES_MS }, () => {
	it('name damage outside the input, and a page path that differs from the CLI', async () => {
		const module = decoderModule();
		const bytes = firstBuffers(realFixture('tx-win7-kernel-network'), 3).slice(0, 20_000);
		const cli = await decodeReport(module, bytes);
		expect(cli.entries.length).toBeGreaterThan(0);
		expect(decodeProblems(cli, bytes.length)).toEqual([]);
		expect(decodeProblems(cli, 10)[0]).toMatch(/outside the 10-byte input/);
		const gap = [bytes.length - 100, bytes.length] as const;
		expect(decodeProblems({ ...cli, entries: [], uncovered: [gap] }, bytes.length)).toContain(
			`bytes ${gap[0]} to ${gap[1]} belong to no buffer, and no damage is reported there`,
		);
		const page = await pageReport(module, bytes);
		expect(agreementProblems(cli, page)).toEqual([]);
		expect(agreementProblems(cli, { ...page!, records: page!.records + 1 })[0]).toMatch(
			/^records: the page path has/,
		);
		expect(agreementProblems(cli, { ...page!, damage: [] })[0]).toMatch(/^damage:/);
		expect(agreementProblems(cli, null)).toEqual(['the page path rejected a file the CLI opened']);
	});

	it('judge a kept decoder instance exactly as fresh ones', async () => {
		const module = decoderModule();
		const inputs = SEEDS.flatMap((e, k) => [
			mutate(e.bytes, k + 1),
			mutate(e.bytes, k + 1000),
			e.bytes,
		]);
		const key = (v: Verdict) => JSON.stringify([v.outcome, v.records, v.kinds, v.paths, v.detail]);
		const fresh = [];
		for (const b of inputs) fresh.push(key(await judge(module, b, all)));
		keepInstances();
		try {
			// In reverse, so each input follows a different one than before.
			for (let i = inputs.length - 1; i >= 0; i--)
				expect(key(await judge(module, inputs[i]!, all)), `input ${i}`).toBe(fresh[i]);
		} finally {
			freshInstances();
		}
	});
});

describe('fuzz: the in-process pool', { timeout: CLI_PROCESS_MS }, () => {
	const pool = new Pool(1, { pageEvery: 1 }, 1);
	afterAll(() => pool.stop());
	it('kills a thread past its time, reports it, and goes on with a fresh one', async () => {
		// A flood of 52,425 records: far beyond a 1 ms watchdog on any machine.
		const flood = seeds().find((e) => e.origin === 'hostile/record-flood')!;
		const killed = await pool.slots[0]!.run(1, flood.bytes);
		expect(killed).toMatchObject({ ok: false, outcome: 'timeout' });
		const slow = new Pool(1, { pageEvery: 1 });
		try {
			const next = await slow.slots[0]!.run(2, SEEDS[0]!.bytes);
			expect(next.ok).toBe(true);
			const empty = await slow.slots[0]!.run(3, new Uint8Array(0));
			expect(empty.ok && empty.reply.verdict.outcome).toBe('rejected');
		} finally {
			await slow.stop();
		}
	});
});

// The corpus earlier campaigns kept (tests/fuzz/corpus): every entry judged fine, as it was then.
const kept = loadKept();
describe.runIf(kept.length > 0)('fuzz: the kept corpus is judged fine', () => {
	it(`${kept.length} entries`, { timeout: WHOLE_FIXTURES_MS }, async () => {
		const module = decoderModule();
		for (const e of kept) expect(fault(await judge(module, e.bytes, all)), e.origin).toBe(null);
	});
});

// Inputs the fuzz runner saved as findings (tests/fixtures/hostile/found, with their provenance):
// each must now be judged fine in process and end by itself under the CLI's watchdog, with exit
// code 0, 1 or (a mutation that left no buffer header at offset 0: not an ETL trace) 2, and no stack trace.
const found = existsSync(FOUND_DIR) ? readdirSync(FOUND_DIR).filter((f) => f.endsWith('.etl')) : [];
describe.runIf(found.length > 0)('fuzz findings are fixed', () => {
	for (const f of found)
		it(
			f,
			async () => {
				const bytes = new Uint8Array(readFileSync(join(FOUND_DIR, f)));
				expect(fault(await judge(decoderModule(), bytes, all))).toBe(null);
				const run = await watched(join(FOUND_DIR, f), ['decode', 'stats']);
				expect(run.killed).toBe(false);
				expect(run.outcomes).not.toBe(null);
				for (const o of run.outcomes!) {
					expect([EXIT.ok, EXIT.damaged, EXIT.notEtl]).toContain(o.code);
					expect(o.stderr).not.toMatch(/\n\s+at /);
					expect(o.peakRss).toBeLessThan(RSS_LIMIT);
				}
			},
			KILL_AFTER_MS * 2,
		);
});
