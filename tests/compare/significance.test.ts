// The significance rules at their edges: each threshold of THRESHOLDS met exactly passes, one step
// short does not; ±25 % in counts, timings or bytes is never a change.
import { describe, expect, it } from 'vitest';
import {
	countRose,
	expectedCount,
	mannWhitneyGreater,
	upperTail,
} from '../../web/src/compare/significance.ts';
import {
	bytesRule,
	changesOf,
	dnsFailureRule,
	dropsRule,
	failedRule,
	goneRule,
	latencyRule,
	leakRule,
	newRule,
	refusedRule,
	resetsRule,
	timeoutRule,
} from '../../web/src/compare/rules.ts';
import { emptyFigures, type PairFigures } from '../../web/src/compare/summary.ts';
import { THRESHOLDS as T } from '../../web/src/compare/thresholds.ts';

const fig = (o: Partial<PairFigures>): PairFigures => ({ ...emptyFigures(), ...o });

/** n connects of `ms`, spread evenly over ±spread. */
function sample(n: number, ms: number, spread = 0.2): number[] {
	return Array.from(
		{ length: n },
		(_, k) => ms * (1 - spread + (2 * spread * k) / Math.max(1, n - 1)),
	);
}
function withLatency(sorted: number[], o: Partial<PairFigures> = {}): PairFigures {
	const s = [...sorted].sort((a, b) => a - b);
	const rank = (p: number) => s[Math.max(1, Math.ceil((p / 100) * s.length)) - 1]!;
	return fig({
		connections: s.length,
		connected: s.length,
		closed: s.length,
		latency: { count: s.length, min: s[0]!, max: s.at(-1)!, p50: rank(50), p90: rank(90) },
		latencySample: s,
		...o,
	});
}

describe('countRose', () => {
	const r = T.refused;
	it.each([
		['at every threshold', 0, r.minCount, true],
		['one short of the count', 0, r.minCount - 1, false],
		['one short of the difference', r.minCount, r.minCount + r.minDelta - 1, false],
		['exactly the factor', r.minDelta, r.minFactor * r.minDelta, true],
		['just under the factor', r.minDelta + 1, r.minFactor * (r.minDelta + 1) - 1, false],
		['+25 %', 40, 50, false],
		['−25 %', 40, 30, false],
	])('%s', (_, expected, problem, rose) => {
		expect(countRose(expected, problem, r)).toBe(rose);
	});

	it('scales the baseline by how much more the problem did', () => {
		expect(expectedCount(2, 10, 40)).toBe(8);
		expect(expectedCount(2, 0, 40)).toBe(2);
		// The same rate with four times the connections is not a change.
		expect(countRose(expectedCount(2, 10, 40), 8, T.leak)).toBe(false);
	});
});

describe('Mann-Whitney U', () => {
	it('separated samples are significant, interleaved ones are not', () => {
		const low = sample(10, 10);
		const high = sample(10, 100);
		expect(mannWhitneyGreater(low, high).p).toBeLessThan(T.latency.maxP);
		expect(mannWhitneyGreater(high, low).p).toBeGreaterThan(0.99);
		const a = [1, 3, 5, 7, 9, 11, 13, 15];
		const b = [2, 4, 6, 8, 10, 12, 14, 16];
		expect(mannWhitneyGreater(a, b).p).toBeGreaterThan(0.2);
	});

	it('U counts the pairs the problem wins (ties half), and all ties give no evidence', () => {
		const a = [1, 2, 3];
		const b = [2, 4, 5, 6];
		// Pairs (a_i, b_j) with b_j > a_i, ties ½: 4 + 3.5 + 3.
		expect(mannWhitneyGreater(a, b).u).toBe(10.5);
		expect(mannWhitneyGreater([5, 5, 5], [5, 5, 5]).p).toBe(1);
		expect(mannWhitneyGreater([], [1]).p).toBe(1);
	});

	it('the normal tail matches known values', () => {
		expect(upperTail(0)).toBeCloseTo(0.5, 6);
		expect(upperTail(1.959964)).toBeCloseTo(0.025, 5);
		expect(upperTail(-1.644854)).toBeCloseTo(0.95, 5);
	});
});

describe('latency rule', () => {
	const { minSamples: n, minRatio } = T.latency;
	it.each([
		['enough connects on both sides, the ratio reached', n, n, minRatio, true],
		['one connect short in the baseline', n - 1, n, minRatio * 3, false],
		['one connect short in the problem', n, n - 1, minRatio * 3, false],
		['just under the ratio', 2 * n, 2 * n, minRatio * 0.97, false],
		['25 % slower', 40, 40, 1.25, false],
	])('%s', (_, nb, np, ratio, flagged) => {
		const b = withLatency(sample(nb, 20, 0.05));
		const p = withLatency(sample(np, 20 * ratio, 0.05));
		expect(latencyRule(b, p, T) !== null).toBe(flagged);
	});

	it('a large ratio of medians the rank test does not support is not a change', () => {
		// Half the problem's connects as fast as the baseline's, the median pulled up by a few.
		const b = withLatency([...sample(8, 10, 0.1), ...sample(8, 100, 0.1)]);
		const p = withLatency([...sample(7, 10, 0.1), ...sample(9, 400, 0.1)]);
		expect(p.latency!.p50 / b.latency!.p50).toBeGreaterThanOrEqual(minRatio);
		expect(mannWhitneyGreater(b.latencySample, p.latencySample).p).toBeGreaterThan(T.latency.maxP);
		expect(latencyRule(b, p, T)).toBeNull();
	});

	it('faster connects are not a change', () => {
		expect(latencyRule(withLatency(sample(20, 200)), withLatency(sample(20, 10)), T)).toBeNull();
	});
});

describe('count rules', () => {
	const failures = (status: string, n: number, of: number) =>
		fig({ connections: of, failures: n ? { [status]: n } : {} });
	it.each([
		['refused', refusedRule, 'STATUS_CONNECTION_REFUSED', T.refused],
		['timeout', timeoutRule, 'STATUS_IO_TIMEOUT', T.timeout],
		['failed', failedRule, 'STATUS_NETWORK_UNREACHABLE', T.failed],
	] as const)('%s: at the minimum count, and not one below', (_, rule, status, t) => {
		expect(rule(failures(status, 0, 10), failures(status, t.minCount, 10), T)).not.toBeNull();
		expect(rule(failures(status, 0, 10), failures(status, t.minCount - 1, 10), T)).toBeNull();
		// +25 % of a rate already there.
		expect(rule(failures(status, 8, 20), failures(status, 10, 20), T)).toBeNull();
	});

	it('a refusal is not counted as another failure, nor the reverse', () => {
		const b = failures('STATUS_CONNECTION_REFUSED', 0, 10);
		const p = failures('STATUS_CONNECTION_REFUSED', 6, 6);
		expect(failedRule(b, p, T)).toBeNull();
		expect(timeoutRule(b, p, T)).toBeNull();
	});

	it('leak: sockets open at the end that the baseline closed', () => {
		const b = fig({ connections: 10, closed: 10 });
		expect(leakRule(b, fig({ connections: 10, open: T.leak.minCount }), T)).not.toBeNull();
		expect(leakRule(b, fig({ connections: 10, open: T.leak.minCount - 1 }), T)).toBeNull();
		expect(
			leakRule(fig({ connections: 10, open: 4 }), fig({ connections: 10, open: 5 }), T),
		).toBeNull();
	});

	it('drops: scaled by the datagrams that arrived (received and dropped)', () => {
		const b = fig({ datagramsReceived: 100, datagramsDropped: 1 });
		const p = (dropped: number) =>
			fig({ datagramsReceived: 101 - dropped, datagramsDropped: dropped });
		expect(dropsRule(b, p(1 + T.drops.minDelta), T)).not.toBeNull();
		expect(dropsRule(b, p(T.drops.minDelta), T)).toBeNull();
		// Ten times the traffic, ten times the drops: the same rate.
		expect(dropsRule(b, fig({ datagramsReceived: 1000, datagramsDropped: 10 }), T)).toBeNull();
	});

	it('resets: from the resets, or from retransmissions past their own thresholds', () => {
		const b = fig({ connections: 10 });
		expect(resetsRule(b, fig({ connections: 10, resets: T.resets.minCount }), T)).not.toBeNull();
		expect(resetsRule(b, fig({ connections: 10, resets: T.resets.minCount - 1 }), T)).toBeNull();
		const r = T.retransmits.minCount;
		expect(resetsRule(b, fig({ connections: 10, synRetransmits: r }), T)).not.toBeNull();
		expect(resetsRule(b, fig({ connections: 10, dataRetransmits: r - 1 }), T)).toBeNull();
	});
});

describe('dns-failure', () => {
	const b = fig({ connections: 10, connected: 10, dns: { ok: 2 } });
	const failing = (failed: number, ok: number, connected: number) =>
		fig({ connections: connected, connected, dns: { ok, WSAHOST_NOT_FOUND: failed } });
	it.each([
		['every lookup fails, nothing connects', failing(T.dnsFailure.minCount, 0, 0), true],
		['one failure too few', failing(T.dnsFailure.minCount - 1, 0, 0), false],
		['failures under the share of lookups', failing(4, 5, 0), false],
		['failures, but connections as before', failing(4, 0, 9), false],
		['half as many connections', failing(4, 0, 5), true],
	])('%s', (_, p, flagged) => {
		expect(dnsFailureRule(b, p, T) !== null).toBe(flagged);
	});

	it('explains a pair that went: no `gone` beside it', () => {
		const p = emptyFigures({ WSAHOST_NOT_FOUND: 3 });
		expect(changesOf(b, p, T).map((c) => c.kind)).toEqual(['dns-failure']);
		expect(changesOf(b, emptyFigures(), T).map((c) => c.kind)).toEqual(['gone']);
	});
});

describe('new, gone and bytes', () => {
	const m = T.presence.minConnections;
	it.each([
		['new at the minimum', newRule, fig({}), fig({ connections: m }), true],
		['new, one short', newRule, fig({}), fig({ connections: m - 1 }), false],
		['gone at the minimum', goneRule, fig({ connections: m }), fig({}), true],
		['gone, one short', goneRule, fig({ connections: m - 1 }), fig({}), false],
		[
			'a listening pair is present',
			goneRule,
			fig({ connections: m }),
			fig({ listening: 1 }),
			false,
		],
	])('%s', (_, rule, b, p, flagged) => {
		expect(rule(b, p, T) !== null).toBe(flagged);
	});

	const bytes = (n: number) => fig({ connections: 5, connected: 5, bytesReceived: n });
	it.each([
		['the factor, both ways', T.bytes.minBytes / T.bytes.minFactor, T.bytes.minBytes, true],
		['the factor, less', T.bytes.minBytes, T.bytes.minBytes / T.bytes.minFactor, true],
		['just under the factor', T.bytes.minBytes / T.bytes.minFactor + 1, T.bytes.minBytes, false],
		['the factor on too few bytes', 100, 100 * T.bytes.minFactor, false],
		['+25 %', 1e6, 1.25e6, false],
	])('bytes: %s', (_, nb, np, flagged) => {
		expect(bytesRule(bytes(nb), bytes(np), T) !== null).toBe(flagged);
	});
});
