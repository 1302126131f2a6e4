// The changes a comparison names, from a closed set: each a rule over one pair's figures on both
// sides (the baseline that works, the problem that fails), with its thresholds in THRESHOLDS.
import { EVENT_MAPS } from '../generated/schemas.ts';
import { english, list, msg, type Msg, type Text } from '../i18n/render.ts';
import { countRose, expectedCount, mannWhitneyGreater } from './significance.ts';
import { DNS_OK, total, type PairFigures } from './summary.ts';
import type { CountRule, Thresholds } from './thresholds.ts';

export type ChangeKind =
	| 'refused'
	| 'failed'
	| 'timeout'
	| 'latency'
	| 'leak'
	| 'dns-failure'
	| 'drops'
	| 'resets'
	| 'new'
	| 'gone'
	| 'bytes';

export type ChangeSeverity = 'error' | 'warning' | 'info';

export interface Change {
	readonly kind: ChangeKind;
	readonly severity: ChangeSeverity;
	/** One sentence: what changed, with both sides' figures (English: the CLI's). */
	readonly message: string;
	/** The same sentence as a message, for the page to say in the reader's language. */
	readonly text: Msg;
	/** The figure the rule compared, on each side. */
	readonly baseline: number;
	readonly problem: number;
}

/** Every kind, most serious first: the order changes are ranked in, and their severities. */
export const CHANGE_KINDS: readonly { kind: ChangeKind; severity: ChangeSeverity }[] = [
	{ kind: 'dns-failure', severity: 'error' },
	{ kind: 'refused', severity: 'error' },
	{ kind: 'timeout', severity: 'error' },
	{ kind: 'failed', severity: 'error' },
	{ kind: 'resets', severity: 'warning' },
	{ kind: 'drops', severity: 'warning' },
	{ kind: 'leak', severity: 'warning' },
	{ kind: 'latency', severity: 'warning' },
	{ kind: 'gone', severity: 'info' },
	{ kind: 'new', severity: 'info' },
	{ kind: 'bytes', severity: 'info' },
];

export function kindRank(kind: ChangeKind): number {
	return CHANGE_KINDS.findIndex((k) => k.kind === kind);
}

function change(kind: ChangeKind, text: Msg, baseline: number, problem: number): Change {
	const severity = CHANGE_KINDS[kindRank(kind)]!.severity;
	return { kind, severity, message: english(text), text, baseline, problem };
}

/** Drop reasons by their manifest name, to say them in the reader's language. */
const DROP_REASONS = new Map(
	Object.entries(EVENT_MAPS['afdDatagramDrop'] ?? {}).map(([v, name]) => [name, Number(v)]),
);

/** Drop reasons with their counts ("Insufficient local buffer space 19"), listed. */
const dropsCounted = (t: Readonly<Record<string, number>>): Text =>
	list(
		Object.entries(t).map(([name, n]) => {
			const value = DROP_REASONS.get(name);
			const reason: Text = value === undefined ? name : { valueMap: 'afdDatagramDrop', value };
			return msg('compare.counted', { name: reason, n });
		}),
		'enum',
	);

const REFUSED = new Set(['STATUS_CONNECTION_REFUSED']);
const TIMEOUTS = new Set(['STATUS_IO_TIMEOUT', 'STATUS_TIMEOUT']);

function failuresWhere(f: PairFigures, keep: (status: string) => boolean): number {
	let n = 0;
	for (const [status, count] of Object.entries(f.failures)) if (keep(status)) n += count;
	return n;
}

/** A failure count that rose beyond what the baseline's rate per connection predicts. */
function failureRule(
	kind: ChangeKind,
	b: PairFigures,
	p: PairFigures,
	rule: CountRule,
	keep: (status: string) => boolean,
): Change | null {
	const nb = failuresWhere(b, keep);
	const np = failuresWhere(p, keep);
	if (!countRose(expectedCount(nb, b.connections, p.connections), np, rule)) return null;
	const statuses = list(Object.keys(p.failures).filter(keep), 'enum');
	const values = { np, p: p.connections, nb, b: b.connections, statuses };
	return change(kind, msg(`compare.change.${kind}`, values), nb, np);
}

export function refusedRule(b: PairFigures, p: PairFigures, t: Thresholds): Change | null {
	return failureRule('refused', b, p, t.refused, (s) => REFUSED.has(s));
}

export function timeoutRule(b: PairFigures, p: PairFigures, t: Thresholds): Change | null {
	return failureRule('timeout', b, p, t.timeout, (s) => TIMEOUTS.has(s));
}

export function failedRule(b: PairFigures, p: PairFigures, t: Thresholds): Change | null {
	const other = (s: string) => !REFUSED.has(s) && !TIMEOUTS.has(s);
	return failureRule('failed', b, p, t.failed, other);
}

/** Slower connects: enough on both sides, a large ratio of medians, and the rank test agrees. */
export function latencyRule(b: PairFigures, p: PairFigures, t: Thresholds): Change | null {
	const r = t.latency;
	if (!b.latency || !p.latency) return null;
	if (b.latency.count < r.minSamples || p.latency.count < r.minSamples) return null;
	const ratio = p.latency.p50 / Math.max(b.latency.p50, 1e-3);
	if (ratio < r.minRatio) return null;
	const test = mannWhitneyGreater(b.latencySample, p.latencySample);
	if (test.p > r.maxP) return null;
	return change(
		'latency',
		msg('compare.change.latency', {
			p50: { durationMs: p.latency.p50 },
			p90: { durationMs: p.latency.p90 },
			n: p.latency.count,
			ratio: ratio.toFixed(1),
			b50: { durationMs: b.latency.p50 },
			b90: { durationMs: b.latency.p90 },
			bcount: b.latency.count,
			pvalue: test.p.toExponential(1),
		}),
		b.latency.p50,
		p.latency.p50,
	);
}

export function leakRule(b: PairFigures, p: PairFigures, t: Thresholds): Change | null {
	if (!countRose(expectedCount(b.open, b.connections, p.connections), p.open, t.leak)) return null;
	return change(
		'leak',
		msg('compare.change.leak', {
			np: p.open,
			p: p.connections,
			nb: b.open,
			b: b.connections,
			closed: b.closed,
		}),
		b.open,
		p.open,
	);
}

const dnsFailures = (f: PairFigures) => total(f.dns) - (f.dns[DNS_OK] ?? 0);

/** The name's lookups fail (most of them, more than before), and its connections fail or stop. */
export function dnsFailureRule(b: PairFigures, p: PairFigures, t: Thresholds): Change | null {
	const r = t.dnsFailure;
	const fb = dnsFailures(b);
	const fp = dnsFailures(p);
	const all = total(p.dns);
	if (!countRose(fb, fp, r) || fp < r.minShare * all) return null;
	// Lookups that fail while the application still connects as before are not this change.
	if (p.connected > b.connected / 2 && p.connected > 0) return null;
	const statuses = list(
		Object.keys(p.dns).filter((s) => s !== DNS_OK),
		'enum',
	);
	return change(
		'dns-failure',
		msg('compare.change.dns-failure', {
			fp,
			all,
			statuses,
			connected: p.connected,
			fb,
			ball: total(b.dns),
			bconnected: b.connected,
		}),
		fb,
		fp,
	);
}

export function dropsRule(b: PairFigures, p: PairFigures, t: Thresholds): Change | null {
	const exposure = (f: PairFigures) => f.datagramsReceived + f.datagramsDropped;
	const e = expectedCount(b.datagramsDropped, exposure(b), exposure(p));
	if (!countRose(e, p.datagramsDropped, t.drops)) return null;
	return change(
		'drops',
		msg('compare.change.drops', {
			np: p.datagramsDropped,
			reasons: dropsCounted(p.dropReasons),
			received: p.datagramsReceived,
			nb: b.datagramsDropped,
			breceived: b.datagramsReceived,
		}),
		b.datagramsDropped,
		p.datagramsDropped,
	);
}

/** Resets by the peer, or retransmissions, well above the baseline's. */
export function resetsRule(b: PairFigures, p: PairFigures, t: Thresholds): Change | null {
	const rexmit = (f: PairFigures) => f.synRetransmits + f.dataRetransmits;
	const resets = countRose(
		expectedCount(b.resets, b.connections, p.connections),
		p.resets,
		t.resets,
	);
	const retransmits = countRose(
		expectedCount(rexmit(b), b.connections, p.connections),
		rexmit(p),
		t.retransmits,
	);
	if (!resets && !retransmits) return null;
	return change(
		'resets',
		msg('compare.change.resets', {
			np: p.resets,
			p: p.connections,
			rp: rexmit(p),
			nb: b.resets,
			b: b.connections,
			rb: rexmit(b),
		}),
		resets ? b.resets : rexmit(b),
		resets ? p.resets : rexmit(p),
	);
}

const present = (f: PairFigures) => f.connections + f.listening;

export function newRule(b: PairFigures, p: PairFigures, t: Thresholds): Change | null {
	if (present(b) > 0 || p.connections < t.presence.minConnections) return null;
	return change(
		'new',
		msg('compare.change.new', { p: p.connections, connected: p.connected }),
		0,
		p.connections,
	);
}

export function goneRule(b: PairFigures, p: PairFigures, t: Thresholds): Change | null {
	if (present(p) > 0 || b.connections < t.presence.minConnections) return null;
	return change(
		'gone',
		msg('compare.change.gone', { b: b.connections, connected: b.connected }),
		b.connections,
		0,
	);
}

export function bytesRule(b: PairFigures, p: PairFigures, t: Thresholds): Change | null {
	if (b.connected === 0 || p.connected === 0) return null;
	const vb = b.bytesSent + b.bytesReceived;
	const vp = p.bytesSent + p.bytesReceived;
	const hi = Math.max(vb, vp);
	const lo = Math.min(vb, vp);
	if (hi < t.bytes.minBytes || hi < t.bytes.minFactor * Math.max(lo, 1)) return null;
	const ratio = { factor: (hi / lo).toFixed(1) };
	const factor =
		lo === 0
			? ''
			: vp > vb
				? msg('compare.change.bytes-more', ratio)
				: msg('compare.change.bytes-less', ratio);
	return change(
		'bytes',
		msg('compare.change.bytes', {
			vp,
			sent: p.bytesSent,
			received: p.bytesReceived,
			connected: p.connected,
			factor,
			vb,
			bsent: b.bytesSent,
			breceived: b.bytesReceived,
			bconnected: b.connected,
		}),
		vb,
		vp,
	);
}

type Rule = (b: PairFigures, p: PairFigures, t: Thresholds) => Change | null;

/** The rules by kind (CHANGE_KINDS has their order). */
export const RULES: Readonly<Record<ChangeKind, Rule>> = {
	'dns-failure': dnsFailureRule,
	refused: refusedRule,
	timeout: timeoutRule,
	failed: failedRule,
	resets: resetsRule,
	drops: dropsRule,
	leak: leakRule,
	latency: latencyRule,
	gone: goneRule,
	new: newRule,
	bytes: bytesRule,
};

/** Kinds a more serious change on the same pair explains (the pair went because its name failed). */
const EXPLAINED_BY: Partial<Record<ChangeKind, readonly ChangeKind[]>> = {
	gone: ['dns-failure'],
	bytes: ['dns-failure', 'refused', 'timeout', 'failed'],
};

/** Every change of one pair, most serious first. */
export function changesOf(b: PairFigures, p: PairFigures, t: Thresholds): Change[] {
	const found: Change[] = [];
	for (const { kind } of CHANGE_KINDS) {
		if (EXPLAINED_BY[kind]?.some((k) => found.some((c) => c.kind === k))) continue;
		const c = RULES[kind](b, p, t);
		if (c) found.push(c);
	}
	return found;
}
