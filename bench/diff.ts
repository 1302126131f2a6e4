// npm run bench:diff [-- --size-mb N] [--runs N]
//
// `sockscope diff BASELINE PROBLEM` against `sockscope sockets` on each of the two traces, and a
// plain read of both files measured in the same run (64 KiB reads, page cache): the generated
// Winsock-AFD traces of bench/winsock-trace.ts (cached under .cache/bench/), one of --size-mb and
// one a tenth larger (another run of the same machine). Each command runs in a child process with
// the bundled CLI (build/cli/main.mjs), stdout to /dev/null. Figures: wall and CPU seconds, each
// child's peak RSS; ratios diff / (sockets + sockets) (target ≤ 2) and diff / read. Medians of
// --runs runs (default 1). A readable summary first, then ONE JSON line, last. MB = 2^20 bytes.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTrace } from './cached-trace.ts';
import { readAll } from './plain-read.ts';
import { runCli, type CliRun } from './cli-run.ts';
import { arg, median } from './bench-args.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const MB = 1024 * 1024;
const TARGET_TO_SOCKETS = 2;

const sizeMB = arg('--size-mb', 300);
const runs = arg('--runs', 1);
const CLI = join(ROOT, 'build/cli/main.mjs');
if (!existsSync(CLI)) throw new Error(`${CLI} is missing: npm run build:cli`);

const round = (x: number, d = 2): number => Number(x.toFixed(d));

const baseline = ensureTrace(sizeMB);
const problem = ensureTrace(Math.ceil(sizeMB * 1.1));
const bytes = statSync(baseline).size + statSync(problem).size;
console.log(`baseline ${baseline} (${(statSync(baseline).size / MB).toFixed(0)} MB)`);
console.log(`problem  ${problem} (${(statSync(problem).size / MB).toFixed(0)} MB)`);
// Warm-up: the page cache now holds both files.
readAll(baseline);
readAll(problem);

const reads: number[] = [];
const sockets: CliRun[] = [];
const diffs: CliRun[] = [];
for (let r = 0; r < runs; r++) {
	const t = performance.now();
	readAll(baseline);
	readAll(problem);
	reads.push((performance.now() - t) / 1000);
	const a = await runCli(CLI, 'sockets', '-q', baseline);
	const b = await runCli(CLI, 'sockets', '-q', problem);
	sockets.push({
		seconds: a.seconds + b.seconds,
		cpuSeconds: a.cpuSeconds + b.cpuSeconds,
		maxRssMB: Math.max(a.maxRssMB, b.maxRssMB),
	});
	diffs.push(await runCli(CLI, 'diff', '-q', '--format', 'ndjson', baseline, problem));
	console.log(
		`run ${r + 1}/${runs}: read both ${reads.at(-1)!.toFixed(3)} s, sockets on both ` +
			`${sockets.at(-1)!.seconds.toFixed(2)} s, diff ${diffs.at(-1)!.seconds.toFixed(2)} s`,
	);
}
const figures = (xs: CliRun[]) => ({
	seconds: round(median(xs.map((x) => x.seconds))),
	cpuSeconds: round(median(xs.map((x) => x.cpuSeconds))),
	maxRssMB: Math.max(...xs.map((x) => x.maxRssMB)),
});
const read = median(reads);
const result = {
	bench: 'diff',
	sizeMB,
	inputMB: round(bytes / MB, 0),
	runs,
	readSeconds: round(read, 3),
	sockets: figures(sockets),
	diff: figures(diffs),
	diffToSockets: round(median(diffs.map((d) => d.seconds)) / median(sockets.map((s) => s.seconds))),
	diffCpuToSockets: round(
		median(diffs.map((d) => d.cpuSeconds)) / median(sockets.map((s) => s.cpuSeconds)),
	),
	diffToRead: round(median(diffs.map((d) => d.seconds)) / read, 0),
	targetToSockets: TARGET_TO_SOCKETS,
};
console.log(
	`diff: ${result.diff.seconds} s (${result.diff.maxRssMB} MB peak) vs sockets on both ` +
		`${result.sockets.seconds} s (${result.sockets.maxRssMB} MB peak): ×${result.diffToSockets} ` +
		`(target ≤ ${TARGET_TO_SOCKETS}), ×${result.diffToRead} a plain read of both`,
);
console.log(JSON.stringify(result));
