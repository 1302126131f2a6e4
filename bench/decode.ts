// npm run bench:decode [-- --size-mb N] [--runs N] [--cold-runs N]
//
// Decode throughput of the WASM decoder in Node, streaming from disk, on a large realistic
// Winsock-AFD trace (bench/winsock-trace.ts; generated once, in a child process, and cached under
// .cache/bench/). In one process it measures:
// - read: reading the file sequentially in the decoder's chunk size (one 64 KiB buffer per read,
//   into one reused piece of memory, as the decoder reads into its WASM memory), nothing else;
// - decode: the path of the CLI (blockCache(nodeFileSource) → openTrace, indexBuffers,
//   mergeRecords) with a cheap onRecord (count; touch the time and the event id);
// - memory: peak RSS (sampled while decoding, and the process's maxRSS) and the WASM memory.
// The headline runs read from the page cache (the file is read once first, untimed); they
// alternate read and decode, and the figures are medians. Then, unless --cold-runs 0, the same
// pair runs from disk, the file dropped from the page cache before each (dd iflag=nocache).
// A readable summary comes first, then ONE JSON line, last. MB = 2^20 bytes.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeFileSource } from '../web/src/cli/node-source.ts';
import { indexBuffers, openTrace } from '../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../web/src/decoder/merge.ts';
import { describeDamage } from '../web/src/decoder/messages.ts';
import { blockCache } from '../web/src/decoder/source.ts';
import { RecordOut } from '../web/src/generated/layouts.ts';
import { ensureTrace } from './cached-trace.ts';
import { readAll, READ_CHUNK } from './plain-read.ts';
import { arg, median } from './bench-args.ts';
import { metaPath, type TraceMeta } from './winsock-trace.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const MB = 1024 * 1024;
/** The decoder reads one buffer per call: the trace's BufferSize. */
const TARGETS = { decodeMBps: 1000, ratio: 2, peakRssMB: 256 };

const sizeMB = arg('--size-mb', 1024);
const runs = arg('--runs', 3);
const coldRuns = process.argv.includes('--cold-runs') ? arg('--cold-runs', 1, 0) : 1;
const path = ensureTrace(sizeMB);
const meta = JSON.parse(readFileSync(metaPath(path), 'utf8')) as TraceMeta;
console.log(
	`trace ${path}: ${(meta.fileBytes / MB).toFixed(0)} MB, ${meta.records} records, ` +
		`${meta.buffers} buffers, ${meta.traceSeconds.toFixed(1)} s of trace ` +
		`(generated in ${meta.generateSeconds.toFixed(1)} s)`,
);

// ---- memory sampling ------------------------------------------------------------------------

let peakRss = process.memoryUsage.rss();
function sampleRss(): void {
	const rss = process.memoryUsage.rss();
	if (rss > peakRss) peakRss = rss;
}
// The decode loop rarely yields to timers (its awaits resolve as microtasks), so it also samples
// from its buffer callback.
const sampler = setInterval(sampleRss, 10);

// ---- read -----------------------------------------------------------------------------------

// ---- decode ---------------------------------------------------------------------------------

const module = new WebAssembly.Module(readFileSync(join(ROOT, 'build/release/decoder.wasm')));

interface DecodeRun {
	seconds: number;
	openSeconds: number;
	indexSeconds: number;
	mergeSeconds: number;
	records: number;
	buffers: number;
	check: number;
	wasmMemory: number;
}

async function decode(): Promise<DecodeRun> {
	const t0 = performance.now();
	const file = nodeFileSource(path);
	try {
		const opened = await openTrace(blockCache(file), module, basename(path));
		if (!opened.ok) throw new Error(opened.error);
		const trace = opened.value;
		const t1 = performance.now();
		const index = await indexBuffers(trace);
		if (index.damage.length > 0)
			throw new Error(`the index found damage: ${describeDamage(index.damage[0]!)}`);
		const t2 = performance.now();
		let records = 0;
		let buffers = 0;
		let check = 0;
		await mergeRecords(
			trace,
			index.buffers,
			(b, i) => {
				records++;
				check = (check + b.timeLo(i) + b.u16(i, RecordOut.id)) | 0;
			},
			(b) => {
				if (b.damage) throw new Error(`buffer ${b.entry.index} is damaged`);
				if ((++buffers & 31) === 0) sampleRss();
			},
		);
		const t3 = performance.now();
		sampleRss();
		return {
			seconds: (t3 - t0) / 1000,
			openSeconds: (t1 - t0) / 1000,
			indexSeconds: (t2 - t1) / 1000,
			mergeSeconds: (t3 - t2) / 1000,
			records,
			buffers,
			check,
			wasmMemory: trace.decoder.memory.byteLength,
		};
	} finally {
		file.close();
	}
}

// ---- runs -----------------------------------------------------------------------------------

const round = (x: number, d = 1): number => Number(x.toFixed(d));

/** Drops the file from the page cache (GNU dd); false where that is not possible. */
function evict(): boolean {
	const r = spawnSync('dd', [`if=${path}`, 'iflag=nocache', 'count=0', 'status=none'], {
		stdio: 'ignore',
	});
	return r.status === 0;
}

function timedRead(): number {
	const t = performance.now();
	readAll(path);
	return (performance.now() - t) / 1000;
}

function checkRun(d: DecodeRun): void {
	if (d.records !== meta.records || d.buffers !== meta.buffers)
		throw new Error(
			`decoded ${d.records} records in ${d.buffers} buffers; the generator wrote ${meta.records} in ${meta.buffers}`,
		);
}

const fileBytes = readAll(path); // warm-up: the page cache now holds the file
if (fileBytes !== meta.fileBytes)
	throw new Error(`${path}: ${fileBytes} bytes, expected ${meta.fileBytes}`);
console.log('warm-up read done: the timed reads and decodes below run from the page cache');
sampleRss();
const baselineRss = process.memoryUsage.rss();

const reads: number[] = [];
const decodes: DecodeRun[] = [];
for (let r = 0; r < runs; r++) {
	reads.push(timedRead());
	decodes.push(await decode());
	const d = decodes.at(-1)!;
	checkRun(d);
	if (d.check !== decodes[0]!.check) throw new Error('runs disagree');
	console.log(
		`run ${r + 1}/${runs}: read ${reads.at(-1)!.toFixed(3)} s, decode ${d.seconds.toFixed(3)} s ` +
			`(open ${(d.openSeconds * 1000).toFixed(1)} ms, index ${(d.indexSeconds * 1000).toFixed(1)} ms, ` +
			`merge ${d.mergeSeconds.toFixed(3)} s)`,
	);
}

// From disk: the same read and decode with the file dropped from the page cache before each.
// One untimed pass first, so that both timed passes find the disk in the same state (a VM's
// host may cache what the guest dropped).
const coldReads: number[] = [];
const coldDecodes: number[] = [];
const canEvict = coldRuns > 0 && evict();
if (coldRuns > 0 && !canEvict)
	console.log('cold runs skipped: cannot drop the file from the page cache (dd iflag=nocache)');
if (canEvict) readAll(path);
for (let r = 0; canEvict && r < coldRuns; r++) {
	evict();
	coldReads.push(timedRead());
	evict();
	const d = await decode();
	checkRun(d);
	coldDecodes.push(d.seconds);
	console.log(
		`cold run ${r + 1}/${coldRuns} (from disk): read ${coldReads.at(-1)!.toFixed(3)} s, ` +
			`decode ${d.seconds.toFixed(3)} s`,
	);
}
clearInterval(sampler);
sampleRss();

const last = decodes.at(-1)!;
const readSeconds = median(reads);
const decodeSeconds = median(decodes.map((d) => d.seconds));
const fileMB = fileBytes / MB;
const cold =
	coldReads.length > 0
		? {
				readMBps: round(fileMB / median(coldReads), 0),
				decodeMBps: round(fileMB / median(coldDecodes), 0),
				ratio: round(median(coldDecodes) / median(coldReads), 2),
				runs: coldReads.length,
			}
		: null;
const result = {
	bench: 'decode',
	fileMB: round(fileMB, 0),
	records: last.records,
	buffers: last.buffers,
	runs,
	readSeconds: round(readSeconds, 3),
	decodeSeconds: round(decodeSeconds, 3),
	indexSeconds: round(median(decodes.map((d) => d.indexSeconds)), 3),
	mergeSeconds: round(median(decodes.map((d) => d.mergeSeconds)), 3),
	decodeMBps: round(fileMB / decodeSeconds, 0),
	eventsPerSec: Math.round(last.records / decodeSeconds),
	readMBps: round(fileMB / readSeconds, 0),
	ratio: round(decodeSeconds / readSeconds, 2),
	peakRssMB: round(peakRss / MB),
	maxRssMB: round((process.resourceUsage().maxRSS * 1024) / MB),
	baselineRssMB: round(baselineRss / MB),
	wasmMemoryMB: round(last.wasmMemory / MB),
	readChunkKB: READ_CHUNK / 1024,
	pageCache: true,
	cold,
	targets: TARGETS,
	met: {} as Record<keyof typeof TARGETS, boolean>,
};
result.met = {
	decodeMBps: result.decodeMBps >= TARGETS.decodeMBps,
	ratio: result.ratio <= TARGETS.ratio,
	peakRssMB: Math.max(result.peakRssMB, result.maxRssMB) < TARGETS.peakRssMB,
};

const yes = (ok: boolean) => (ok ? 'met' : 'MISSED');
console.log('');
console.log(
	`file        ${result.fileMB} MB, ${result.records} records, ${result.buffers} buffers`,
);
console.log(
	`read        ${result.readMBps} MB/s (${result.readSeconds} s, ${READ_CHUNK / 1024} KiB reads, page cache)`,
);
console.log(
	`decode      ${result.decodeMBps} MB/s, ${(result.eventsPerSec / 1e6).toFixed(2)} M events/s ` +
		`(${result.decodeSeconds} s: index ${result.indexSeconds} s, merge ${result.mergeSeconds} s)` +
		`  target ≥ ${TARGETS.decodeMBps} MB/s: ${yes(result.met.decodeMBps)}`,
);
console.log(
	`ratio       decode/read = ${result.ratio} (page cache)  target ≤ ${TARGETS.ratio}: ${yes(result.met.ratio)}`,
);
if (cold)
	console.log(
		`from disk   read ${cold.readMBps} MB/s, decode ${cold.decodeMBps} MB/s, ratio ${cold.ratio} ` +
			`(page cache dropped first; not a target)`,
	);
console.log(
	`memory      peak RSS ${result.peakRssMB} MB (sampled; ${result.baselineRssMB} MB before decoding), ` +
		`maxRSS ${result.maxRssMB} MB, WASM memory ${result.wasmMemoryMB} MB  ` +
		`target < ${TARGETS.peakRssMB} MB: ${yes(result.met.peakRssMB)}`,
);
console.log(JSON.stringify(result));
