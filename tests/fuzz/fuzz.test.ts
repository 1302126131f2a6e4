// A bounded fuzz run in every `npm test`; `npm run fuzz` runs the same cases for as long as asked.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KILL_AFTER_MS, RSS_LIMIT, watched } from '../hostile/watchdog.ts';
import { FOUND_DIR } from './found.ts';
import { decoderModule, realFixture } from '../decoder/load.ts';
import { decodeAll } from './check.ts';
import { EXIT } from '../../web/src/cli/args.ts';
import { mutate } from './mutate.ts';
import { WHOLE_FIXTURES_MS } from '../timeouts.ts';

const SEEDS = [
	'perfview-small-32bit-compressed',
	'demikernel-pktmon-compressed',
	'etlparser-lxcore-tracelogging',
	'perfview-primitive-types-tracelogging',
	's4-cldflt-wpp-systemtime',
	's4-windowsupdate-tracelogging',
	'krabsetw-powershell-manifest',
];
const CASES_PER_FILE = 60;

describe('fuzz: mutated real traces never throw', { timeout: WHOLE_FIXTURES_MS }, () => {
	for (const name of SEEDS) {
		it(name, async () => {
			const original = realFixture(name);
			expect(await decodeAll(decoderModule(), original)).toBeGreaterThan(0);
			for (let seed = 1; seed <= CASES_PER_FILE; seed++) {
				const bytes = mutate(original, seed * 7919 + name.length);
				await expect(
					decodeAll(decoderModule(), bytes),
					`${name} seed ${seed}`,
				).resolves.toBeGreaterThanOrEqual(0);
			}
		});
	}
});

// Inputs the fuzz runner saved as findings (tests/fixtures/hostile/found, with their provenance):
// each must now end by itself under the watchdog, with exit code 0, 1 or (a mutation that left no
// buffer header at offset 0: not an ETL trace) 2, and no stack trace.
const found = existsSync(FOUND_DIR) ? readdirSync(FOUND_DIR).filter((f) => f.endsWith('.etl')) : [];
describe.runIf(found.length > 0)('fuzz findings end under the watchdog', () => {
	for (const f of found)
		it(
			f,
			async () => {
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
