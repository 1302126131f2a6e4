// Every threshold the change rules use, in one table: what two runs of one workload may differ by
// (a connection or two, timings, sizes, a page load more or less) without it being a change.

/** A count that rose: by at least `minDelta` to at least `minCount`, and `minFactor` times. */
export interface CountRule {
	readonly minCount: number;
	readonly minDelta: number;
	readonly minFactor: number;
}

export interface Thresholds {
	readonly refused: CountRule;
	readonly timeout: CountRule;
	readonly failed: CountRule;
	/** Sockets open at the end of the trace. */
	readonly leak: CountRule;
	readonly drops: CountRule;
	readonly resets: CountRule;
	/** SYN and data retransmissions together (a busy link retransmits now and then). */
	readonly retransmits: CountRule;
	/** Failed lookups of the name, and the share of its lookups that failed. */
	readonly dnsFailure: CountRule & { readonly minShare: number };
	readonly latency: {
		/** Connects measured on each side. */
		readonly minSamples: number;
		/** Problem p50 over baseline p50. */
		readonly minRatio: number;
		/** One-sided Mann-Whitney U p-value the problem's connects are slower. */
		readonly maxP: number;
	};
	readonly bytes: {
		/** Bytes (both ways) of the larger side. */
		readonly minBytes: number;
		/** Larger side over smaller side. */
		readonly minFactor: number;
	};
	/** `new` and `gone`: a pair with fewer sockets than this appearing or going is chance. */
	readonly presence: { readonly minConnections: number };
}

export const THRESHOLDS: Thresholds = {
	refused: { minCount: 3, minDelta: 3, minFactor: 2 },
	timeout: { minCount: 3, minDelta: 3, minFactor: 2 },
	failed: { minCount: 3, minDelta: 3, minFactor: 2 },
	leak: { minCount: 3, minDelta: 3, minFactor: 2 },
	drops: { minCount: 5, minDelta: 5, minFactor: 2 },
	resets: { minCount: 3, minDelta: 3, minFactor: 2 },
	retransmits: { minCount: 10, minDelta: 10, minFactor: 3 },
	dnsFailure: { minCount: 2, minDelta: 2, minFactor: 2, minShare: 0.5 },
	latency: { minSamples: 8, minRatio: 3, maxP: 0.001 },
	bytes: { minBytes: 64 * 1024, minFactor: 8 },
	presence: { minConnections: 3 },
};
