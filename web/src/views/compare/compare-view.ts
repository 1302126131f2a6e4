// The Compare view's logic: two stored traces' sockets summed up into pairs (the same summaries
// `sockscope diff` makes) and diffed; the figures a side shows, and the filters that show a pair's
// events or sockets in one trace.
import type { Remote } from 'comlink';
import { diffSummaries, type PairDiff } from '../../compare/diff.ts';
import type { Change } from '../../compare/rules.ts';
import { summarizeTracked } from '../../compare/summarize.ts';
import { DNS_OK, total, type PairFigures, type TraceSummary } from '../../compare/summary.ts';
import { failureText, msg, type Lang, type Text } from '../../i18n/render.ts';
import { formatDuration } from '../../sockets/format.ts';
import type { DecoderApi, TraceSummary as StoredTrace } from '../../worker/api.ts';

export type Comparison =
	| { readonly kind: 'loading' }
	| { readonly kind: 'error'; readonly message: Text }
	| {
			readonly kind: 'ready';
			readonly baseline: TraceSummary;
			readonly problem: TraceSummary;
			readonly changed: readonly PairDiff[];
			readonly unchanged: readonly PairDiff[];
	  };

/** Both traces' stored sockets, summed up and diffed. */
export async function compareStored(
	api: Remote<DecoderApi> | DecoderApi,
	baseline: StoredTrace,
	problem: StoredTrace,
): Promise<Comparison> {
	const [a, b] = await Promise.all([api.sockets(baseline.id), api.sockets(problem.id)]);
	if (!a.ok)
		return {
			kind: 'error',
			message: msg('compare.error', { name: baseline.name, error: failureText(a) }),
		};
	if (!b.ok)
		return {
			kind: 'error',
			message: msg('compare.error', { name: problem.name, error: failureText(b) }),
		};
	const sa = summarizeTracked(baseline.name, a.value);
	const sb = summarizeTracked(problem.name, b.value);
	const diffs = diffSummaries(sa, sb);
	return {
		kind: 'ready',
		baseline: sa,
		problem: sb,
		changed: diffs.filter((d) => d.changes.length > 0),
		unchanged: diffs.filter((d) => d.changes.length === 0),
	};
}

/** The figure a change compares, as its sentence shows it (durations for latency). */
export function changeFigure(c: Change, side: 'baseline' | 'problem', lang: Lang = 'en'): string {
	const v = c[side];
	return c.kind === 'latency' ? formatDuration(v, lang) : v.toLocaleString('en-US');
}

const ms = (x: number | undefined, lang: Lang) => (x === undefined ? '–' : formatDuration(x, lang));
const statuses = (t: Readonly<Record<string, number>>) =>
	Object.entries(t)
		.map(([s, n]) => `${s} ${n}`)
		.join(', ') || '0';

/** The rows of the figures table: an i18n key (compare.fig.*) and each side's value. */
export const FIGURE_ROWS: readonly { key: string; of: (f: PairFigures, lang: Lang) => string }[] = [
	{ key: 'connections', of: (f) => String(f.connections) },
	{ key: 'connected', of: (f) => String(f.connected) },
	{ key: 'failures', of: (f) => statuses(f.failures) },
	{ key: 'p50', of: (f, lang) => ms(f.latency?.p50, lang) },
	{ key: 'p90', of: (f, lang) => ms(f.latency?.p90, lang) },
	{ key: 'min', of: (f, lang) => ms(f.latency?.min, lang) },
	{ key: 'max', of: (f, lang) => ms(f.latency?.max, lang) },
	{ key: 'sent', of: (f) => f.bytesSent.toLocaleString('en-US') },
	{ key: 'received', of: (f) => f.bytesReceived.toLocaleString('en-US') },
	{ key: 'ended', of: (f) => `${f.closed} / ${f.aborted} / ${f.open}` },
	{
		key: 'datagrams',
		of: (f) => `${f.datagramsSent} / ${f.datagramsReceived} / ${f.datagramsDropped}`,
	},
	{ key: 'drop-reasons', of: (f) => statuses(f.dropReasons) },
	{
		key: 'lookups',
		of: (f) =>
			total(f.dns) ? `${f.dns[DNS_OK] ?? 0} / ${total(f.dns) - (f.dns[DNS_OK] ?? 0)}` : '–',
	},
	{ key: 'resets', of: (f) => String(f.resets) },
	{ key: 'retransmits', of: (f) => String(f.synRetransmits + f.dataRetransmits) },
];

/** The events filter that shows a pair in one trace: its process, and its remote or port. */
export function pairFilter(d: PairDiff): string {
	const parts = [`process:${quote(d.process)}`];
	const port = /:(\d+)$/.exec(d.remote)?.[1];
	if (d.kind === 'listening' && port) parts.push(`port:${port}`);
	else if (d.kind === 'remote') {
		if (d.remoteName) parts.push(`host:${quote(d.remoteName)}`);
		else if (d.remotes.length === 1)
			parts.push(`raddr:${d.remotes[0]!.replace(/:\d+$/, '').replace(/^\[|\]$/g, '')}`);
		if (port) parts.push(`rport:${port}`);
	}
	return parts.join(' ');
}

function quote(s: string): string {
	return /^[\w.*?-]+$/.test(s) ? s : `"${s.replace(/"/g, '\\"')}"`;
}
