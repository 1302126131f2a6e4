// Two trace summaries aligned pair by pair (process image, protocol, remote name or address, or a
// server's listening port), each pair told what changed from the baseline to the problem trace.
// A pure function of the two summaries.
import { changesOf, kindRank, type Change } from './rules.ts';
import {
	emptyFigures,
	type PairFigures,
	type PairKind,
	type PairSummary,
	type TraceSummary,
} from './summary.ts';
import { THRESHOLDS, type Thresholds } from './thresholds.ts';

export interface PairDiff {
	readonly key: string;
	readonly process: string;
	readonly protocol: string;
	readonly kind: PairKind;
	readonly remoteName: string | null;
	/** `name:port`, `address:port`, `listening :port` or `no remote`. */
	readonly remote: string;
	/** Every name known for its addresses, on either side. */
	readonly remoteNames: readonly string[];
	/** The addresses it used, on either side. */
	readonly remotes: readonly string[];
	readonly inBaseline: boolean;
	readonly inProblem: boolean;
	/** Each side's figures (nothing but the name's lookups where the pair is missing). */
	readonly baseline: PairFigures;
	readonly problem: PairFigures;
	/** Most serious first; empty for an unchanged pair. */
	readonly changes: readonly Change[];
}

/** The figures of a pair a trace lacks: its name's lookups there, if any. */
function missing(t: TraceSummary, other: PairSummary): PairFigures {
	const name = other.remoteName?.toLowerCase();
	return emptyFigures(name === undefined ? {} : (t.dns[name] ?? {}));
}

const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

/** Changed pairs first, the most serious change first; then the unchanged, as they appeared. */
function rank(a: PairDiff, b: PairDiff): number {
	const ca = a.changes[0];
	const cb = b.changes[0];
	if (ca && cb) {
		const byKind = kindRank(ca.kind) - kindRank(cb.kind);
		if (byKind !== 0) return byKind;
		// More changes, then a larger one, first.
		if (a.changes.length !== b.changes.length) return b.changes.length - a.changes.length;
		const size = (c: Change) => Math.abs(c.problem - c.baseline);
		return size(cb) - size(ca);
	}
	if (ca) return -1;
	if (cb) return 1;
	return 0;
}

export function diffSummaries(
	baseline: TraceSummary,
	problem: TraceSummary,
	t: Thresholds = THRESHOLDS,
): PairDiff[] {
	const inProblem = new Map(problem.pairs.map((p) => [p.key, p]));
	const inBaseline = new Map(baseline.pairs.map((p) => [p.key, p]));
	const keys = [...inBaseline.keys(), ...[...inProblem.keys()].filter((k) => !inBaseline.has(k))];
	const out = keys.map((key): PairDiff => {
		const b = inBaseline.get(key);
		const p = inProblem.get(key);
		const any = (p ?? b)!;
		const fb = b ? b.figures : missing(baseline, any);
		const fp = p ? p.figures : missing(problem, any);
		return {
			key,
			process: any.process,
			protocol: any.protocol,
			kind: any.kind,
			remoteName: p?.remoteName ?? b?.remoteName ?? null,
			remote: any.remote,
			remoteNames: union(fb.remoteNames, fp.remoteNames),
			remotes: union(fb.remotes, fp.remotes),
			inBaseline: b !== undefined,
			inProblem: p !== undefined,
			baseline: fb,
			problem: fp,
			changes: changesOf(fb, fp, t),
		};
	});
	// Stable: unchanged pairs keep the baseline's order, then the problem's.
	return out.sort(rank);
}

/** Whether anything changed. */
export function anyChange(diffs: readonly PairDiff[]): boolean {
	return diffs.some((d) => d.changes.length > 0);
}
