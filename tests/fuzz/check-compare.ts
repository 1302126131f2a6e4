// What one fuzz input must satisfy in the compare of two traces: the input and a corpus
// neighbour summed up as `sockscope diff` reads them (sockets streamed, names learnt), diffed
// both ways with every line and cell of the report written; it never throws, stays within the
// summary's caps, and a trace diffed against itself changes nothing.
import { indexBuffers, openTrace } from '../../web/src/decoder/etl-file.ts';
import { memorySource } from '../../web/src/decoder/source.ts';
import { diffSummaries } from '../../web/src/compare/diff.ts';
import { figuresLine, pairCells, pairJson } from '../../web/src/compare/report.ts';
import { summarizeStream } from '../../web/src/compare/summarize.ts';
import {
	LATENCY_SAMPLE_CAP,
	REMOTE_CAP,
	SOCKET_KEY_CAP,
	type TraceSummary,
} from '../../web/src/compare/summary.ts';
import { trackTraceStream } from '../../web/src/sockets/track-trace.ts';

export interface CompareReport {
	readonly pairs: readonly [number, number];
	/** Sockets of the input as `sockscope diff` counts them. */
	readonly sockets: number;
	readonly changes: number;
	readonly problems: readonly string[];
}

/** The summary `sockscope diff` makes of one file, or null when it does not open. */
export async function summaryOf(
	module: WebAssembly.Module,
	bytes: Uint8Array,
	name: string,
): Promise<TraceSummary | null> {
	const opened = await openTrace(memorySource(bytes), module, name);
	if (!opened.ok) return null;
	const index = await indexBuffers(opened.value);
	const tracked = await trackTraceStream(opened.value, index.buffers, { maxEventsPerSocket: 0 });
	return summarizeStream(name, tracked);
}

function capProblems(s: TraceSummary): string[] {
	const out: string[] = [];
	for (const p of s.pairs) {
		const f = p.figures;
		if (f.latencySample.length > LATENCY_SAMPLE_CAP)
			out.push(`${s.name} pair ${p.key}: ${f.latencySample.length} latency samples kept`);
		if (f.sockets.length > SOCKET_KEY_CAP)
			out.push(`${s.name} pair ${p.key}: ${f.sockets.length} socket keys kept`);
		if (f.remotes.length > REMOTE_CAP || f.remoteNames.length > REMOTE_CAP)
			out.push(`${s.name} pair ${p.key}: ${f.remotes.length} remotes kept`);
	}
	return out;
}

function written(a: TraceSummary, b: TraceSummary): { diffs: number; changes: number } {
	const diffs = diffSummaries(a, b);
	let changes = 0;
	for (const d of diffs) {
		JSON.stringify(pairJson(d));
		pairCells(d);
		figuresLine(d.baseline, d.inBaseline);
		figuresLine(d.problem, d.inProblem);
		changes += d.changes.length;
	}
	return { diffs: diffs.length, changes };
}

/** The input (as the problem trace) against its neighbour (the baseline), and each against itself. */
export async function compareReport(
	module: WebAssembly.Module,
	bytes: Uint8Array,
	neighbour: Uint8Array,
): Promise<CompareReport | null> {
	const p = await summaryOf(module, bytes, 'problem.etl');
	const b = await summaryOf(module, neighbour, 'baseline.etl');
	if (!p || !b) return null;
	const problems = [...capProblems(p), ...capProblems(b)];
	const forward = written(b, p);
	const back = written(p, b);
	const bound = b.pairs.length + p.pairs.length;
	if (forward.diffs > bound || back.diffs > bound)
		problems.push(`${forward.diffs} and ${back.diffs} pairs diffed from ${bound} pairs`);
	for (const s of [p, b]) {
		const self = written(s, s);
		if (self.changes > 0) problems.push(`${s.name} against itself: ${self.changes} changes`);
	}
	return {
		pairs: [b.pairs.length, p.pairs.length],
		sockets: p.sockets,
		changes: forward.changes,
		problems,
	};
}
