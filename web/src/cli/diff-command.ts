// `sockscope diff BASELINE PROBLEM [--format text|ndjson|csv] [--fail-on-change]`: the pairs of two
// traces side by side and what changed from the one that works to the one that fails. Each trace
// is read in one pass, its sockets summed up as they stream by (the memory of one trace's tracker
// at a time, and the pairs).
import { diffSummaries, type PairDiff } from '../compare/diff.ts';
import { CSV_COLUMNS, figuresLine, pairCells, pairJson } from '../compare/report.ts';
import { summarizeStream } from '../compare/summarize.ts';
import type { TraceSummary } from '../compare/summary.ts';
import { openTrace } from '../decoder/etl-file.ts';
import { csvCell } from '../export/record-lines.ts';
import { blockCache } from '../decoder/source.ts';
import { EXIT, UsageError, type Options } from './args.ts';
import { openInput } from './input.ts';
import { LineWriter } from './output.ts';
import { Progress } from './progress.ts';
import { track } from './sockets-commands.ts';

/** Exit code of `--fail-on-change` when something changed (and neither trace was damaged). */
export const EXIT_CHANGED = 4;

interface Io {
	readonly stdin: NodeJS.ReadableStream;
	readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** One trace summed up, or why it could not be read; damage found on the way is reported. */
async function summaryOf(
	file: string,
	opts: Options,
	module: WebAssembly.Module,
	io: Io,
): Promise<{ summary: TraceSummary; damage: string[] } | { error: string }> {
	const input = await openInput(file, io.stdin);
	const progress = new Progress(input.name, opts.quiet, io.stderr);
	try {
		const opened = await openTrace(blockCache(input.source), module, input.name);
		if (!opened.ok) return { error: opened.error };
		const { tracked, problems } = await track(opened.value, progress);
		return { summary: summarizeStream(input.name, tracked), damage: problems };
	} finally {
		progress.done();
		input.close();
	}
}

async function text(
	diffs: readonly PairDiff[],
	b: TraceSummary,
	p: TraceSummary,
	out: LineWriter,
): Promise<void> {
	const changed = diffs.filter((d) => d.changes.length);
	await out.line(`baseline: ${b.name} (${b.sockets} sockets, ${b.pairs.length} pairs)`);
	await out.line(`problem:  ${p.name} (${p.sockets} sockets, ${p.pairs.length} pairs)`);
	await out.line('');
	if (changed.length === 0) await out.line(`no changes (${diffs.length} pairs compared)`);
	for (const d of changed) {
		const kinds = d.changes.map((c) => c.kind).join(', ');
		await out.line(`[${d.changes[0]!.severity}] ${d.process} ${d.protocol} ${d.remote}: ${kinds}`);
		for (const c of d.changes) await out.line(`  ${c.kind}: ${c.message}`);
		await out.line(`  baseline: ${figuresLine(d.baseline, d.inBaseline)}`);
		await out.line(`  problem:  ${figuresLine(d.problem, d.inProblem)}`);
		if (d.remotes.length) await out.line(`  remotes: ${d.remotes.join(' ')}`);
		await out.line('');
	}
	const same = diffs.length - changed.length;
	if (changed.length && same) await out.line(`${same} pairs unchanged`);
	for (const d of diffs)
		if (!d.changes.length)
			await out.line(
				`  ${d.process} ${d.protocol} ${d.remote}: ${d.baseline.connections} → ${d.problem.connections} connections`,
			);
}

/** Compares the two traces; returns the exit code. */
export async function diffCommand(
	opts: Options,
	module: WebAssembly.Module,
	io: Io,
	out: LineWriter,
): Promise<number> {
	if (opts.files.length !== 2)
		throw new UsageError(`diff compares two traces: BASELINE PROBLEM (${opts.files.length} given)`);
	const sides: TraceSummary[] = [];
	let damaged = false;
	for (const file of opts.files) {
		const r = await summaryOf(file, opts, module, io);
		if ('error' in r) {
			io.stderr.write(`sockscope: ${file}: ${r.error}\n`);
			return EXIT.damaged;
		}
		for (const d of r.damage) io.stderr.write(`sockscope: ${file}: ${d}\n`);
		damaged ||= r.damage.length > 0;
		sides.push(r.summary);
	}
	const [b, p] = sides as [TraceSummary, TraceSummary];
	const diffs = diffSummaries(b, p);
	if (opts.format === 'ndjson') for (const d of diffs) await out.line(JSON.stringify(pairJson(d)));
	else if (opts.format === 'csv') {
		await out.line(CSV_COLUMNS.join(','));
		for (const d of diffs) await out.line(pairCells(d).map(csvCell).join(','));
	} else await text(diffs, b, p, out);
	await out.flush();
	if (damaged) return EXIT.damaged;
	return opts.failOnChange && diffs.some((d) => d.changes.length) ? EXIT_CHANGED : EXIT.ok;
}
