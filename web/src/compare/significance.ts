// When a difference between two traces is more than chance: a count that rose beyond what the
// other side's rate predicts, and a rank test (Mann-Whitney U) for connect times.
import type { CountRule } from './thresholds.ts';

/**
 * What the baseline's count predicts for the problem: scaled by how much more (or less) the
 * problem did of what the count is a part of (its connections, its datagrams), when both did some.
 */
export function expectedCount(
	baseline: number,
	baselineExposure: number,
	problemExposure: number,
): number {
	if (baselineExposure <= 0 || problemExposure <= 0) return baseline;
	return (baseline * problemExposure) / baselineExposure;
}

/** Whether `problem` rose past `expected` by the rule: enough, by enough, and enough times. */
export function countRose(expected: number, problem: number, rule: CountRule): boolean {
	return (
		problem >= rule.minCount &&
		problem - expected >= rule.minDelta &&
		problem >= rule.minFactor * expected
	);
}

export interface RankTest {
	/** U of the problem's sample: how often a problem value exceeds a baseline one (ties half). */
	readonly u: number;
	readonly z: number;
	/** One-sided p-value that the problem's values are no larger than the baseline's. */
	readonly p: number;
}

/**
 * Mann-Whitney U, one-sided (the problem larger), normal approximation with tie and continuity
 * corrections: right for the sample sizes the latency rule asks for (8 and more on each side).
 */
export function mannWhitneyGreater(
	baseline: readonly number[],
	problem: readonly number[],
): RankTest {
	const n1 = baseline.length;
	const n2 = problem.length;
	if (n1 === 0 || n2 === 0) return { u: 0, z: 0, p: 1 };
	const all = [
		...baseline.map((v) => ({ v, problem: false })),
		...problem.map((v) => ({ v, problem: true })),
	].sort((a, b) => a.v - b.v);
	const n = all.length;
	let rankSum = 0;
	let ties = 0;
	for (let i = 0; i < n;) {
		let j = i;
		while (j + 1 < n && all[j + 1]!.v === all[i]!.v) j++;
		const rank = (i + j + 2) / 2;
		const t = j - i + 1;
		ties += t * t * t - t;
		for (let k = i; k <= j; k++) if (all[k]!.problem) rankSum += rank;
		i = j + 1;
	}
	const u = rankSum - (n2 * (n2 + 1)) / 2;
	const mean = (n1 * n2) / 2;
	const variance = ((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1)));
	if (variance <= 0) return { u, z: 0, p: 1 };
	const z = (u - mean - 0.5) / Math.sqrt(variance);
	return { u, z, p: upperTail(z) };
}

/** P(Z > z) for a standard normal Z (Abramowitz and Stegun 7.1.26, error below 1.5e-7). */
export function upperTail(z: number): number {
	const x = Math.abs(z) / Math.SQRT2;
	const t = 1 / (1 + 0.3275911 * x);
	const poly =
		t *
		(0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
	const erfc = poly * Math.exp(-x * x);
	return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}
