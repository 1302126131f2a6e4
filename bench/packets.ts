// npm run bench:packets [-- --size-mb N] [--runs N]
//
// The command line's packets on a capture-heavy trace: the Winsock-AFD trace of
// bench/winsock-trace.ts with the NDIS-PacketCapture frames of its TCP connections beside it
// (bench/capture-wire.ts; most of the file is packets), of --size-mb (default 1024), generated
// once in a child process, streaming to a file (cached under .cache/bench/). Each command runs
// in a child process with the bundled CLI (build/cli/main.mjs), stdout to /dev/null:
//   sockscope packets --format ndjson FILE   (decode + dissect + join, one line per frame)
//   sockscope pcapng FILE                    (the same, written as pcapng)
//   sockscope stats FILE                     (the pass every command makes)
// beside a plain read of the file (64 KiB reads, page cache). Best of --runs runs (default 3):
// wall and CPU seconds, each child's peak RSS; ratios to `stats` and to the plain read. A
// readable summary first, then ONE JSON line, last. MB = 2^20 bytes.
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readAll } from './plain-read.ts';
import { runCli, type CliRun } from './cli-run.ts';
import { arg } from './bench-args.ts';
import { CACHE_DIR, GENERATOR_VERSION, metaPath, type TraceMeta } from './winsock-trace.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const MB = 1024 * 1024;

const sizeMB = arg('--size-mb', 1024);
const runs = arg('--runs', 3);
const CLI = join(ROOT, 'build/cli/main.mjs');
if (!existsSync(CLI)) throw new Error(`${CLI} is missing: npm run build:cli`);

const round = (x: number, d = 2): number => Number(x.toFixed(d));

/** The cached capture-heavy trace of that size, generated (streaming, in a child) when missing. */
function ensureCapture(size: number): { path: string; meta: TraceMeta } {
	const path = join(CACHE_DIR, `capture-${size}mb-v${GENERATOR_VERSION}.etl`);
	if (!existsSync(path) || !existsSync(metaPath(path))) {
		console.log(`generating ${path} (${size} MB, once)…`);
		const r = spawnSync(
			process.execPath,
			[
				'--import',
				'tsx',
				join(ROOT, 'bench/winsock-trace.ts'),
				'--size-mb',
				String(size),
				'--out',
				path,
				'--capture',
			],
			{ cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
		);
		if (r.status !== 0) throw new Error(`trace generation failed (exit ${r.status})`);
	}
	return { path, meta: JSON.parse(readFileSync(metaPath(path), 'utf8')) as TraceMeta };
}

const { path, meta } = ensureCapture(sizeMB);
const fileMB = meta.fileBytes / MB;
const capture = meta.capture!;
console.log(
	`trace ${path}: ${fileMB.toFixed(0)} MB, ${meta.records} records, ` +
		`${capture.frames} frames in ${capture.events} capture events (${(capture.bytes / MB).toFixed(0)} MB of frames)`,
);
readAll(path); // warm-up: the page cache now holds the file

const reads: number[] = [];
const stats: CliRun[] = [];
const packets: CliRun[] = [];
const pcapng: CliRun[] = [];
for (let r = 0; r < runs; r++) {
	const t = performance.now();
	readAll(path);
	reads.push((performance.now() - t) / 1000);
	stats.push(await runCli(CLI, 'stats', '-q', path));
	packets.push(await runCli(CLI, 'packets', '-q', '--format', 'ndjson', path));
	pcapng.push(await runCli(CLI, 'pcapng', '-q', path));
	console.log(
		`run ${r + 1}/${runs}: read ${reads.at(-1)!.toFixed(3)} s, stats ${stats.at(-1)!.seconds.toFixed(2)} s, ` +
			`packets ${packets.at(-1)!.seconds.toFixed(2)} s, pcapng ${pcapng.at(-1)!.seconds.toFixed(2)} s`,
	);
}

/** Best of the runs (the least disturbed by the machine's other work), and the peak memory. */
const best = (xs: CliRun[]) => ({
	seconds: round(Math.min(...xs.map((x) => x.seconds))),
	cpuSeconds: round(Math.min(...xs.map((x) => x.cpuSeconds))),
	maxRssMB: Math.max(...xs.map((x) => x.maxRssMB)),
});
const read = Math.min(...reads);
const s = best(stats);
const p = best(packets);
const g = best(pcapng);
const result = {
	bench: 'packets',
	sizeMB,
	inputMB: round(fileMB, 0),
	records: meta.records,
	frames: capture.frames,
	captureEvents: capture.events,
	runs,
	readSeconds: round(read, 3),
	stats: s,
	packets: p,
	pcapng: g,
	packetsToStats: round(p.seconds / s.seconds),
	pcapngToStats: round(g.seconds / s.seconds),
	packetsToRead: round(p.seconds / read, 0),
	pcapngToRead: round(g.seconds / read, 0),
	statsToRead: round(s.seconds / read, 0),
	packetsMBPerSecond: round(fileMB / p.seconds, 1),
};
console.log(
	`packets: ${p.seconds} s (${p.cpuSeconds} s CPU, ${p.maxRssMB} MB peak), ` +
		`pcapng: ${g.seconds} s (${g.cpuSeconds} s CPU, ${g.maxRssMB} MB peak), ` +
		`stats: ${s.seconds} s (${s.maxRssMB} MB peak), plain read ${result.readSeconds} s`,
);
console.log(
	`packets ×${result.packetsToStats} stats, ×${result.packetsToRead} a plain read; ` +
		`pcapng ×${result.pcapngToStats} stats, ×${result.pcapngToRead} a plain read ` +
		`(${result.packetsMBPerSecond} MB/s)`,
);
console.log(JSON.stringify(result));
