// A bounded fuzz run in every `npm test`; `npm run fuzz` runs the same cases for as long as asked.
import { describe, expect, it } from 'vitest';
import { decoderModule, realFixture } from '../decoder/load.ts';
import { decodeAll } from './check.ts';
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
