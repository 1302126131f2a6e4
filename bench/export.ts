// npm run bench:export [-- --size-mb N] [--runs N] [--page-size-mb N]
//
// Export speed, each figure beside the platform's own limit measured in the same run, on the
// generated Winsock-AFD trace of bench/decode.ts (bench/winsock-trace.ts, cached under
// .cache/bench/):
// - CLI: `sockscope decode --format ndjson|csv FILE > /dev/null`, `decode --filter`,
//   `decode --columns` with columns of the events table and `sockscope export` (Parquet: every
//   table, the events with their owners; no target), and `sockscope stats FILE`, each in a child process running the bundled CLI
//   (build/cli/main.mjs) as bin/sockscope.mjs does, beside a plain read of the file (64 KiB reads, page cache). Ratios: stats/read and
//   decode/read, and decode/stats, the target (≤ 3); stats in MB/s (target ≥ 1500), and
//   without the start of a Node process that runs nothing (timed the same way): stats' own pass.
// - page: the web export (worker/export-selection.ts, and worker/export-parquet.ts for Parquet) in
//   Node, over the columns an import of the same trace makes (ingestTrace into memory, as the
//   worker does into IndexedDB), every row selected; beside the decode pass over the same trace (indexBuffers + mergeRecords, touching
//   each record). Ratio: export/decode (target ≤ 3). --page-size-mb picks a smaller trace for
//   this part (its columns are held in memory).
// Medians of --runs runs (default 1). Peak RSS: each child's maxRSS, this process's for the page
// part. Each child's CPU time (user + system) too: steadier than wall time on a shared machine
// (the ratios and targets use wall time). A readable summary comes first, then ONE JSON line,
// last. MB = 2^20 bytes.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeFileSource } from '../web/src/cli/node-source.ts';
import { indexBuffers, openTrace, type OpenTrace } from '../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../web/src/decoder/merge.ts';
import type { ExportFormat } from '../web/src/export/record-lines.ts';
import { recordDecoder } from '../web/src/decoder/single-record.ts';
import { blockCache } from '../web/src/decoder/source.ts';
import { RecordOut } from '../web/src/generated/layouts.ts';
import { QueryEngine } from '../web/src/query/engine.ts';
import { exportSelection } from '../web/src/worker/export-selection.ts';
import { exportParquet } from '../web/src/worker/export-parquet.ts';
import { RecordReader } from '../web/src/worker/record-reader.ts';
import { ingestToMemory } from '../tests/builders/memory-chunks.ts';
import { ensureTrace } from './cached-trace.ts';
import { readAll } from './plain-read.ts';
import { runCli, runEmpty, type CliRun } from './cli-run.ts';
import { arg, median } from './bench-args.ts';
import { metaPath, type TraceMeta } from './winsock-trace.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const MB = 1024 * 1024;
const TARGETS = { cliToStats: 3, pageToDecode: 3, statsMBps: 1500 };
const FORMATS: ExportFormat[] = ['ndjson', 'csv'];
/** What `decode --filter` is timed with: about half the bench trace's records. */
const FILTER = 'event:AfdReceive or status:error';
/** What `decode --columns` is timed with: record columns and the events table's, every record. */
const COLUMNS = 'time,name,process,remote,bytes,status_name';

const sizeMB = arg('--size-mb', 300);
const pageSizeMB = arg('--page-size-mb', sizeMB);
const runs = arg('--runs', 1);
const CLI = join(ROOT, 'build/cli/main.mjs');
if (!existsSync(CLI)) throw new Error(`${CLI} is missing: npm run build:cli`);

const round = (x: number, d = 1): number => Number(x.toFixed(d));

/** The cached trace of that size (generated once, in a child process), and what it holds. */
function trace(size: number): { path: string; meta: TraceMeta } {
	const path = ensureTrace(size);
	return { path, meta: JSON.parse(readFileSync(metaPath(path), 'utf8')) as TraceMeta };
}

function timedRead(path: string): number {
	const t = performance.now();
	readAll(path);
	return (performance.now() - t) / 1000;
}

// ---- CLI ----------------------------------------------------------------------------------

const cliTrace = trace(sizeMB);
const cliMB = cliTrace.meta.fileBytes / MB;
console.log(`CLI trace ${cliTrace.path}: ${cliMB.toFixed(0)} MB, ${cliTrace.meta.records} records`);
readAll(cliTrace.path); // warm-up: the page cache now holds the file
const reads: number[] = [];
const stats: CliRun[] = [];
const starts: number[] = [];
const decodes: Record<ExportFormat, CliRun[]> = { ndjson: [], csv: [] };
const filtered: CliRun[] = [];
const picked: CliRun[] = [];
const tables: CliRun[] = [];
const tablesDir = mkdtempSync(join(tmpdir(), 'bench-export-'));
for (let r = 0; r < runs; r++) {
	reads.push(timedRead(cliTrace.path));
	starts.push(await runEmpty());
	stats.push(await runCli(CLI, 'stats', '-q', cliTrace.path));
	for (const f of FORMATS)
		decodes[f].push(await runCli(CLI, 'decode', '-q', '--format', f, cliTrace.path));
	filtered.push(await runCli(CLI, 'decode', '-q', '--filter', FILTER, cliTrace.path));
	picked.push(
		await runCli(CLI, 'decode', '-q', '--format', 'csv', '--columns', COLUMNS, cliTrace.path),
	);
	tables.push(await runCli(CLI, 'export', '-q', '--out', tablesDir, cliTrace.path));
	rmSync(tablesDir, { recursive: true, force: true });
	console.log(
		`run ${r + 1}/${runs}: read ${reads.at(-1)!.toFixed(3)} s, stats ${stats.at(-1)!.seconds.toFixed(2)} s, ` +
			FORMATS.map((f) => `decode ${f} ${decodes[f].at(-1)!.seconds.toFixed(2)} s`).join(', ') +
			`, decode --filter ${filtered.at(-1)!.seconds.toFixed(2)} s` +
			`, decode --columns ${picked.at(-1)!.seconds.toFixed(2)} s` +
			`, export ${tables.at(-1)!.seconds.toFixed(2)} s`,
	);
}
const readSeconds = median(reads);
const statsSeconds = median(stats.map((s) => s.seconds));
const statsCpu = median(stats.map((s) => s.cpuSeconds));
/** What starting a Node process costs, whatever it runs: stats' pass is the rest. */
const startSeconds = median(starts);
function cliFigures(f: ExportFormat) {
	const seconds = median(decodes[f].map((d) => d.seconds));
	return {
		seconds: round(seconds, 2),
		MBps: round(cliMB / seconds, 0),
		recordsPerSec: Math.round(cliTrace.meta.records / seconds),
		maxRssMB: Math.max(...decodes[f].map((d) => d.maxRssMB)),
		toRead: round(seconds / readSeconds, 1),
		toStats: round(seconds / statsSeconds, 2),
		cpuSeconds: round(median(decodes[f].map((d) => d.cpuSeconds)), 2),
		cpuToStats: round(median(decodes[f].map((d) => d.cpuSeconds)) / statsCpu, 2),
	};
}
const cliResult = { ndjson: cliFigures('ndjson'), csv: cliFigures('csv') };
const filteredSeconds = median(filtered.map((d) => d.seconds));
/** `decode --filter FILTER` (NDJSON, every record decoded, the selected ones printed). */
const cliFiltered = {
	filter: FILTER,
	seconds: round(filteredSeconds, 2),
	toRead: round(filteredSeconds / readSeconds, 1),
	toStats: round(filteredSeconds / statsSeconds, 2),
	cpuSeconds: round(median(filtered.map((d) => d.cpuSeconds)), 2),
	maxRssMB: Math.max(...filtered.map((d) => d.maxRssMB)),
};
const pickedSeconds = median(picked.map((d) => d.seconds));
/** `decode --format csv --columns COLUMNS` (every record, its chunk's columns read as well). */
const cliPicked = {
	columns: COLUMNS,
	seconds: round(pickedSeconds, 2),
	recordsPerSec: Math.round(cliTrace.meta.records / pickedSeconds),
	toRead: round(pickedSeconds / readSeconds, 1),
	toStats: round(pickedSeconds / statsSeconds, 2),
	cpuSeconds: round(median(picked.map((d) => d.cpuSeconds)), 2),
	maxRssMB: Math.max(...picked.map((d) => d.maxRssMB)),
};
const tablesSeconds = median(tables.map((d) => d.seconds));
/** `sockscope export FILE` (Parquet, every table: the sockets first, then every event's row). */
const cliTables = {
	seconds: round(tablesSeconds, 2),
	recordsPerSec: Math.round(cliTrace.meta.records / tablesSeconds),
	toRead: round(tablesSeconds / readSeconds, 1),
	toStats: round(tablesSeconds / statsSeconds, 2),
	cpuSeconds: round(median(tables.map((d) => d.cpuSeconds)), 2),
	maxRssMB: Math.max(...tables.map((d) => d.maxRssMB)),
};

// ---- page export ----------------------------------------------------------------------------

const module = new WebAssembly.Module(readFileSync(join(ROOT, 'build/release/decoder.wasm')));

async function openFile(path: string): Promise<OpenTrace> {
	const opened = await openTrace(blockCache(nodeFileSource(path)), module, basename(path));
	if (!opened.ok) throw new Error(opened.error);
	return opened.value;
}

/** The decode pass the page's import makes, touching each record; seconds. */
async function decodePass(path: string): Promise<number> {
	const t = performance.now();
	const trace = await openFile(path);
	const index = await indexBuffers(trace);
	let check = 0;
	await mergeRecords(trace, index.buffers, (b, i) => {
		check = (check + b.timeLo(i) + b.u16(i, RecordOut.id)) | 0;
	});
	if (check === 0.5) console.log('unreachable');
	return (performance.now() - t) / 1000;
}

let peakRss = process.memoryUsage.rss();
const sampleRss = () => (peakRss = Math.max(peakRss, process.memoryUsage.rss()));
const sampler = setInterval(sampleRss, 10);

const pageTrace = pageSizeMB === sizeMB ? cliTrace : trace(pageSizeMB);
console.log(`page trace ${pageTrace.path}: importing its columns into memory…`);
const imported = await openFile(pageTrace.path);
const { chunks, records, context } = await ingestToMemory(imported);
const engine = new QueryEngine(chunks, context);
const sel = await engine.select('');
console.log(`${sel.matched} rows selected`);

const decodeSeconds: number[] = [];
const exports: Record<ExportFormat | 'parquet', { seconds: number; bytes: number }[]> = {
	ndjson: [],
	csv: [],
	parquet: [],
};
/**
 * One export of every selected row through a fresh reader (`run` hands its pieces to the sink it
 * is given): its seconds and bytes out.
 */
async function timedExport(
	run: (reader: RecordReader, sink: (piece: Uint8Array) => boolean) => Promise<{ rows: number }>,
): Promise<{ seconds: number; bytes: number }> {
	const reader = new RecordReader(
		{ engine, records },
		recordDecoder(module, imported.facts),
		imported.facts,
	);
	let bytes = 0;
	const t = performance.now();
	const done = await run(reader, (piece) => {
		bytes += piece.length;
		sampleRss();
		return true;
	});
	const seconds = (performance.now() - t) / 1000;
	if (done.rows !== sel.matched) throw new Error(`exported ${done.rows} of ${sel.matched} rows`);
	return { seconds, bytes };
}

for (let r = 0; r < runs; r++) {
	decodeSeconds.push(await decodePass(pageTrace.path));
	for (const f of FORMATS)
		exports[f].push(await timedExport((reader, sink) => exportSelection(sel, reader, f, sink)));
	// The events table as Parquet, with the owners the page's table shows (none joined here).
	exports.parquet.push(
		await timedExport((reader, sink) => exportParquet(sel, reader, engine, context(), sink)),
	);
	console.log(
		`page run ${r + 1}/${runs}: decode ${decodeSeconds.at(-1)!.toFixed(2)} s, ` +
			[...FORMATS, 'parquet' as const]
				.map((f) => `export ${f} ${exports[f].at(-1)!.seconds.toFixed(2)} s`)
				.join(', '),
	);
}
clearInterval(sampler);
sampleRss();
const pageDecode = median(decodeSeconds);
function pageFigures(f: ExportFormat | 'parquet') {
	const seconds = median(exports[f].map((e) => e.seconds));
	const out = exports[f][0]!.bytes;
	return {
		seconds: round(seconds, 2),
		rowsPerSec: Math.round(sel.matched / seconds),
		outMB: round(out / MB, 0),
		outMBps: round(out / MB / seconds, 0),
		toDecode: round(seconds / pageDecode, 2),
	};
}
const pageResult = {
	ndjson: pageFigures('ndjson'),
	csv: pageFigures('csv'),
	parquet: pageFigures('parquet'),
};

// ---- summary --------------------------------------------------------------------------------

const result = {
	bench: 'export',
	cli: {
		fileMB: round(cliMB, 0),
		records: cliTrace.meta.records,
		runs,
		readSeconds: round(readSeconds, 3),
		readMBps: round(cliMB / readSeconds, 0),
		statsSeconds: round(statsSeconds, 2),
		statsMBps: round(cliMB / statsSeconds, 0),
		/** The stats pass over the plain read of the same file, same run. */
		statsToRead: round(statsSeconds / readSeconds, 1),
		statsCpuSeconds: round(statsCpu, 2),
		processStartSeconds: round(startSeconds, 3),
		/** Stats without the process start: its pass over the file. */
		statsPassMBps: round(cliMB / Math.max(statsSeconds - startSeconds, 1e-3), 0),
		statsMaxRssMB: Math.max(...stats.map((s) => s.maxRssMB)),
		...cliResult,
		filtered: cliFiltered,
		picked: cliPicked,
		tables: cliTables,
	},
	page: {
		fileMB: round(pageTrace.meta.fileBytes / MB, 0),
		rows: sel.matched,
		decodeSeconds: round(pageDecode, 2),
		peakRssMB: round(peakRss / MB),
		...pageResult,
	},
	targets: TARGETS,
	met: {
		cliToStats: FORMATS.every((f) => cliResult[f].toStats <= TARGETS.cliToStats),
		statsMBps: cliMB / statsSeconds >= TARGETS.statsMBps,
		pageToDecode: FORMATS.every((f) => pageResult[f].toDecode <= TARGETS.pageToDecode),
	},
};

const yes = (ok: boolean) => (ok ? 'met' : 'MISSED');
console.log('');
console.log(
	`CLI         ${result.cli.fileMB} MB, ${result.cli.records} records; read ${result.cli.readMBps} MB/s ` +
		`(${result.cli.readSeconds} s, page cache); stats ${result.cli.statsSeconds} s = ${result.cli.statsMBps} MB/s, ` +
		`${result.cli.statsToRead}× the read (CPU ${result.cli.statsCpuSeconds} s)  target ≥ ${TARGETS.statsMBps} MB/s: ${yes(result.met.statsMBps)}; ` +
		`maxRSS ${result.cli.statsMaxRssMB} MB; a Node process alone ${result.cli.processStartSeconds} s, ` +
		`stats' pass without it ${result.cli.statsPassMBps} MB/s`,
);
for (const f of FORMATS) {
	const c = cliResult[f];
	console.log(
		`  decode ${f.padEnd(6)} ${c.seconds} s, ${c.MBps} MB/s, ${(c.recordsPerSec / 1e6).toFixed(2)} M records/s, ` +
			`maxRSS ${c.maxRssMB} MB; ${c.toRead}× the read, ${c.toStats}× stats (CPU ${c.cpuSeconds} s, ${c.cpuToStats}× the stats CPU)  target ≤ ${TARGETS.cliToStats}× stats: ${yes(c.toStats <= TARGETS.cliToStats)}`,
	);
}
console.log(
	`  decode --filter '${FILTER}' ${cliFiltered.seconds} s, maxRSS ${cliFiltered.maxRssMB} MB; ` +
		`${cliFiltered.toRead}× the read, ${cliFiltered.toStats}× stats (CPU ${cliFiltered.cpuSeconds} s)`,
);
console.log(
	`  decode --columns ${COLUMNS} (CSV) ${cliPicked.seconds} s, ${(cliPicked.recordsPerSec / 1e6).toFixed(2)} M records/s, ` +
		`maxRSS ${cliPicked.maxRssMB} MB; ${cliPicked.toRead}× the read, ${cliPicked.toStats}× stats (CPU ${cliPicked.cpuSeconds} s)`,
);
console.log(
	`  export (Parquet, every table) ${cliTables.seconds} s, ${(cliTables.recordsPerSec / 1e6).toFixed(2)} M records/s, ` +
		`maxRSS ${cliTables.maxRssMB} MB; ${cliTables.toRead}× the read, ${cliTables.toStats}× stats (CPU ${cliTables.cpuSeconds} s)`,
);
console.log(
	`page        ${result.page.fileMB} MB, ${result.page.rows} rows; decode pass ${result.page.decodeSeconds} s; ` +
		`peak RSS ${result.page.peakRssMB} MB (columns in memory)`,
);
for (const f of FORMATS) {
	const p = pageResult[f];
	console.log(
		`  export ${f.padEnd(6)} ${p.seconds} s, ${(p.rowsPerSec / 1e6).toFixed(2)} M rows/s, ${p.outMB} MB out ` +
			`(${p.outMBps} MB/s); ${p.toDecode}× the decode  target ≤ ${TARGETS.pageToDecode}×: ${yes(p.toDecode <= TARGETS.pageToDecode)}`,
	);
}
{
	const p = pageResult.parquet;
	console.log(
		`  export parquet (events table) ${p.seconds} s, ${(p.rowsPerSec / 1e6).toFixed(2)} M rows/s, ${p.outMB} MB out ` +
			`(${p.outMBps} MB/s); ${p.toDecode}× the decode (no target)`,
	);
}
console.log(JSON.stringify(result));
