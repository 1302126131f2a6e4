// Each change a comparison names, said in Chinese: a sentence with both sides' figures and no
// English word but data (status and DNS codes, percentiles), drop reasons in their Chinese names.
// The English sentence is the one `sockscope diff` prints.
import { describe, expect, it } from 'vitest';
import { CHANGE_KINDS, RULES, type ChangeKind } from '../../web/src/compare/rules.ts';
import { emptyFigures, type PairFigures } from '../../web/src/compare/summary.ts';
import { THRESHOLDS } from '../../web/src/compare/thresholds.ts';
import { EVENT_MAPS, EVENT_MAPS_ZH } from '../../web/src/generated/schemas.ts';
import { english, textIn } from '../../web/src/i18n/render.ts';
import { latinWords } from '../i18n/latin-words.ts';

const DROP = 'afdDatagramDrop';
const dropValue = Number(Object.keys(EVENT_MAPS_ZH[DROP] ?? {})[0]);
const dropName = EVENT_MAPS[DROP]![dropValue]!;

const works = (more: Partial<PairFigures> = {}): PairFigures => ({
	...emptyFigures({ ok: 4 }),
	connections: 20,
	connected: 20,
	closed: 20,
	bytesSent: 4000,
	bytesReceived: 6000,
	datagramsReceived: 100,
	latency: { count: 20, min: 8, max: 14, p50: 10, p90: 13 },
	latencySample: Array.from({ length: 20 }, (_, i) => 8 + i * 0.3),
	...more,
});

/** The problem side of each kind: the baseline (works()) with one thing gone wrong. */
const PROBLEM: Record<ChangeKind, () => [PairFigures, PairFigures]> = {
	refused: () => [works(), works({ connected: 0, failures: { STATUS_CONNECTION_REFUSED: 20 } })],
	timeout: () => [works(), works({ connected: 0, failures: { STATUS_IO_TIMEOUT: 20 } })],
	failed: () => [works(), works({ connected: 0, failures: { STATUS_NETWORK_UNREACHABLE: 20 } })],
	latency: () => [
		works(),
		works({
			latency: { count: 20, min: 200, max: 300, p50: 240, p90: 290 },
			latencySample: Array.from({ length: 20 }, (_, i) => 200 + i * 5),
		}),
	],
	leak: () => [works(), works({ closed: 0, open: 20 })],
	'dns-failure': () => [
		works(),
		works({ connected: 0, connections: 0, dns: { DNS_ERROR_RCODE_NAME_ERROR: 6 } }),
	],
	drops: () => [works(), works({ datagramsDropped: 40, dropReasons: { [dropName]: 40 } })],
	resets: () => [works(), works({ resets: 12 })],
	new: () => [emptyFigures(), works()],
	gone: () => [works(), emptyFigures()],
	bytes: () => [works(), works({ bytesReceived: 5_000_000 })],
};

describe('a change said in Chinese', () => {
	it.each(CHANGE_KINDS.map((k) => k.kind))('%s', (kind) => {
		const [b, p] = PROBLEM[kind]();
		const c = RULES[kind](b, p, THRESHOLDS);
		expect(c?.kind).toBe(kind);
		const zh = textIn('zh', c!.text);
		expect(zh).toMatch(/[\u4e00-\u9fff]/);
		expect(latinWords([zh], ['p90', 'DNS_ERROR_RCODE_NAME_ERROR'])).toEqual([]);
		expect(english(c!.text)).toBe(c!.message);
		// The figures both sides compared are in the sentence.
		for (const n of [c!.problem, c!.baseline])
			if (kind !== 'latency') expect(zh).toContain(String(n));
	});

	it('names a drop reason as the Chinese schema does', () => {
		const [b, p] = PROBLEM.drops();
		const c = RULES.drops(b, p, THRESHOLDS)!;
		expect(textIn('zh', c.text)).toContain(EVENT_MAPS_ZH[DROP]![dropValue]!);
		expect(c.message).toContain(`(${dropName} 40)`);
	});
});
