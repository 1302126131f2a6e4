// Pairs of traces written with the Windows-like builder: one change injected into one host of the
// problem run, hidden among pairs that differ only by chance. The changed pair must be named with
// its kind, every other pair must stay quiet; two runs with nothing injected must show nothing.
import { describe, expect, it } from 'vitest';
import { diffSummaries, type PairDiff } from '../../web/src/compare/diff.ts';
import { dnsStatus } from '../../web/src/dns/dns-status.ts';
import { DNS_NAME_ERROR, run, targetOf, type Injected } from './workload.ts';
import { summaryOf } from './summary-of.ts';
import { WORKLOAD_PAIR_MS } from '../timeouts.ts';

async function compare(seed: number, inject: Injected | null): Promise<PairDiff[]> {
	const baseline = await summaryOf(run(seed), 'baseline.etl');
	const problem = await summaryOf(run(seed + 1000, inject), 'problem.etl');
	return diffSummaries(baseline, problem);
}

const describeChanges = (diffs: readonly PairDiff[]) =>
	diffs
		.filter((d) => d.changes.length)
		.map(
			(d) =>
				`${d.process} ${d.protocol} ${d.remote}: ${d.changes.map((c) => `${c.kind} (${c.message})`).join('; ')}`,
		);

const KINDS: readonly Injected[] = [
	'refused',
	'timeout',
	'failed',
	'latency',
	'leak',
	'dns-failure',
	'drops',
	'resets',
	'new',
	'gone',
	'bytes',
];

describe('diff of two runs of one workload', { timeout: WORKLOAD_PAIR_MS }, () => {
	it.each([11, 12, 13, 14])(
		'runs that differ only by chance show no change (seed %i)',
		async (seed) => {
			const diffs = await compare(seed, null);
			expect(describeChanges(diffs)).toEqual([]);
			// Every pair of the workload was matched across the traces, the service's by its port.
			expect(diffs.find((d) => d.remote === 'listening :8443')).toMatchObject({
				inBaseline: true,
				inProblem: true,
			});
			expect(diffs.find((d) => d.remote === '192.168.5.5:8080')).toMatchObject({
				inBaseline: true,
				inProblem: true,
			});
		},
	);

	it.each(KINDS)(
		'%s: the changed pair is named with its kind, the others stay quiet',
		async (kind) => {
			for (const seed of [21, 22]) {
				const diffs = await compare(seed, kind);
				const target = targetOf(kind);
				const changed = diffs.filter((d) => d.changes.length);
				expect(describeChanges(diffs)).toHaveLength(1);
				expect(changed[0]).toMatchObject(target);
				expect(changed[0]!.changes.map((c) => c.kind)).toEqual([kind]);
				// Ranked first, with both sides' figures in its sentence.
				expect(diffs[0]!.key).toBe(changed[0]!.key);
				expect(changed[0]!.changes[0]!.message).toMatch(/baseline/);
				// A name's failures by the status the DNS panel names (the workload's name error).
				if (kind === 'dns-failure') {
					expect(changed[0]!.changes[0]!.message).toContain(dnsStatus(DNS_NAME_ERROR).name);
					expect(changed[0]!.problem.dns).toHaveProperty(dnsStatus(DNS_NAME_ERROR).name);
				}
			}
		},
	);
});
