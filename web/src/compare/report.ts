// A comparison as lines: one NDJSON object or CSV row per pair (the command line; the same names
// a script reads), and the figures in one line of text.
import { formatDuration } from '../sockets/format.ts';
import type { PairDiff } from './diff.ts';
import { DNS_OK, total, type PairFigures } from './summary.ts';

/** A side's figures under the names NDJSON carries (the latency sample left out). */
export function figuresJson(f: PairFigures, present: boolean): Record<string, unknown> {
	return {
		present,
		connections: f.connections,
		connected: f.connected,
		failures: f.failures,
		latency_ms: f.latency,
		bytes_sent: f.bytesSent,
		bytes_received: f.bytesReceived,
		closed: f.closed,
		aborted: f.aborted,
		open: f.open,
		datagrams_sent: f.datagramsSent,
		datagrams_received: f.datagramsReceived,
		datagrams_dropped: f.datagramsDropped,
		drop_reasons: f.dropReasons,
		dns: f.dns,
		resets: f.resets,
		syn_retransmits: f.synRetransmits,
		data_retransmits: f.dataRetransmits,
		tcpip: f.tcpSeen,
		listening: f.listening,
		sockets: f.sockets,
	};
}

/** One NDJSON line's object: the pair, both sides' figures, and what changed. */
export function pairJson(d: PairDiff): Record<string, unknown> {
	const where =
		d.remotes.length === 1 ? { remote: d.remotes[0] } : { remote: null, remotes: d.remotes };
	return {
		process: d.process,
		protocol: d.protocol,
		pair: d.remote,
		remote_name: d.remoteName,
		remote_names: d.remoteNames,
		...where,
		baseline: figuresJson(d.baseline, d.inBaseline),
		problem: figuresJson(d.problem, d.inProblem),
		changes: d.changes.map((c) => ({ kind: c.kind, severity: c.severity, message: c.message })),
	};
}

export const CSV_COLUMNS = [
	'process',
	'protocol',
	'pair',
	'remote_name',
	'remotes',
	'changes',
	'severity',
	'messages',
	...['baseline', 'problem'].flatMap((side) =>
		[
			'connections',
			'connected',
			'failed',
			'p50_ms',
			'p90_ms',
			'bytes_sent',
			'bytes_received',
			'open',
			'datagrams_dropped',
			'resets',
			'dns_failed',
		].map((c) => `${side}_${c}`),
	),
] as const;

const dnsFailed = (f: PairFigures) => total(f.dns) - (f.dns[DNS_OK] ?? 0);

function sideCells(f: PairFigures): (string | number | null)[] {
	return [
		f.connections,
		f.connected,
		total(f.failures),
		f.latency?.p50 ?? null,
		f.latency?.p90 ?? null,
		f.bytesSent,
		f.bytesReceived,
		f.open,
		f.datagramsDropped,
		f.resets,
		dnsFailed(f),
	];
}

/** One CSV row's cells, in CSV_COLUMNS order. */
export function pairCells(d: PairDiff): (string | number | null)[] {
	return [
		d.process,
		d.protocol,
		d.remote,
		d.remoteName,
		d.remotes.join(' '),
		d.changes.map((c) => c.kind).join(' '),
		d.changes[0]?.severity ?? null,
		d.changes.map((c) => c.message).join(' '),
		...sideCells(d.baseline),
		...sideCells(d.problem),
	];
}

/** A side's figures in one line: `12 connections (12 connected), p50 18 ms, …`. */
export function figuresLine(f: PairFigures, present: boolean): string {
	if (!present && total(f.dns) === 0) return 'absent';
	const parts = [`${f.connections} connections (${f.connected} connected)`];
	const failed = total(f.failures);
	if (failed)
		parts.push(
			`failed ${Object.entries(f.failures)
				.map(([s, n]) => `${s} ${n}`)
				.join(', ')}`,
		);
	if (f.latency)
		parts.push(
			`connect p50 ${formatDuration(f.latency.p50)} p90 ${formatDuration(f.latency.p90)} ` +
				`(min ${formatDuration(f.latency.min)}, max ${formatDuration(f.latency.max)})`,
		);
	parts.push(`${f.bytesSent} B sent, ${f.bytesReceived} B received`);
	parts.push(`closed ${f.closed}, aborted ${f.aborted}, open ${f.open}`);
	if (f.datagramsSent + f.datagramsReceived + f.datagramsDropped)
		parts.push(
			`datagrams ${f.datagramsSent} sent, ${f.datagramsReceived} received, ${f.datagramsDropped} dropped`,
		);
	if (total(f.dns))
		parts.push(
			`lookups ${Object.entries(f.dns)
				.map(([s, n]) => `${s} ${n}`)
				.join(', ')}`,
		);
	if (f.tcpSeen || f.resets)
		parts.push(`resets ${f.resets}, retransmits ${f.synRetransmits + f.dataRetransmits}`);
	if (f.listening) parts.push(`listening ${f.listening}`);
	return (present ? '' : 'absent; ') + parts.join('; ');
}
