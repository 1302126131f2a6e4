// sockscope: the command line over the same WASM decoder as the web app.
//   sockscope info FILE [--json]
//   sockscope decode FILE [--format ndjson|csv] [--provider afd|all] [--filter EXPR]
//   sockscope stats FILE [--json]
//   sockscope sockets FILE [--format ndjson|csv], sockscope findings FILE [--json]
import { readFileSync, existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROVIDERS } from '../generated/schemas.ts';
import { RecordOut } from '../generated/layouts.ts';
import { BufferRecords, bufferTable } from '../decoder/buffer-records.ts';
import { indexBuffers, openTrace, reopenTrace, type OpenTrace } from '../decoder/etl-file.ts';
import { mergeRecords } from '../decoder/merge.ts';
import { DamageLog } from '../decoder/messages.ts';
import { ProviderTable, recordJson, type RecordJson } from '../decoder/record-json.ts';
import { blockCache } from '../decoder/source.ts';
import { traceStats } from '../decoder/stats.ts';
import { NO_PID, type Chunk } from '../ingest/columns.ts';
import { ingestTrace } from '../ingest/ingest.ts';
import { TraceTables } from '../ingest/trace-tables.ts';
import { importTracker } from '../sockets/import-tracker.ts';
import { compileFilter } from '../query/filter-compile.ts';
import { FilterError, parseFilter } from '../query/filter-parser.ts';
import { decodeRecord, recordDecoder } from '../decoder/single-record.ts';
import { headerLine, recordLine } from '../decoder/record-lines.ts';
import { LineWriter } from './output.ts';
import { nodeFileSource } from './node-source.ts';
import { findingsCommand, socketsCommand, SOCKETS_USAGE } from './sockets-commands.ts';

const USAGE = `usage:
  sockscope info FILE [--json]
  sockscope decode FILE [--format ndjson|csv] [--provider afd|all] [--filter EXPR]
  sockscope stats FILE [--json]
${SOCKETS_USAGE}`;

class UsageError extends Error {}

interface Options {
	command: string;
	file: string;
	json: boolean;
	format: 'ndjson' | 'csv';
	provider: 'afd' | 'all';
	/** A filter-language expression (the same as the web app's filter box). */
	filter: string | null;
}

function parseArgs(argv: string[]): Options {
	const [command, ...rest] = argv;
	if (!command || command === '--help' || command === '-h') throw new UsageError('');
	if (!['info', 'decode', 'stats', 'sockets', 'findings'].includes(command))
		throw new UsageError(`unknown command: ${command}`);
	const opts: Options = {
		command,
		file: '',
		json: false,
		format: 'ndjson',
		provider: 'all',
		filter: null,
	};
	for (let i = 0; i < rest.length; i++) {
		const a = rest[i]!;
		const value = () => {
			const v = rest[++i];
			if (v === undefined) throw new UsageError(`${a} needs a value`);
			return v;
		};
		if (a === '--json') opts.json = true;
		else if (a === '--format') {
			const f = value();
			if (f !== 'ndjson' && f !== 'csv')
				throw new UsageError(`--format must be ndjson or csv, not ${f}`);
			opts.format = f;
		} else if (a === '--provider') {
			const p = value();
			if (p !== 'afd' && p !== 'all')
				throw new UsageError(`--provider must be afd or all, not ${p}`);
			opts.provider = p;
		} else if (a === '--filter') {
			const f = value();
			try {
				parseFilter(f);
			} catch (e) {
				if (e instanceof FilterError) throw new UsageError(`--filter: ${e.message}`);
				throw e;
			}
			opts.filter = f;
		} else if (a.startsWith('-')) throw new UsageError(`unknown option: ${a}`);
		else if (!opts.file) opts.file = a;
		else throw new UsageError(`unexpected argument: ${a}`);
	}
	if (!opts.file) throw new UsageError(`${command} needs a FILE`);
	return opts;
}

/** The project root: the nearest folder above this module (source or bundle) with a package.json. */
function projectRoot(): string {
	const here = dirname(fileURLToPath(import.meta.url));
	for (let dir = here; ; dir = dirname(dir)) {
		if (existsSync(join(dir, 'package.json'))) return dir;
		if (dirname(dir) === dir) return here;
	}
}

function loadModule(): WebAssembly.Module {
	const path = join(projectRoot(), 'build/release/decoder.wasm');
	if (!existsSync(path))
		throw new Error(`the decoder is not built (${path} is missing): run npm run build:wasm`);
	return new WebAssembly.Module(readFileSync(path));
}

/** Prints the facts; returns what the index pass (buffer headers only) finds wrong. */
async function info(trace: OpenTrace, json: boolean, out: LineWriter): Promise<string[]> {
	const f = trace.facts;
	if (json) await out.line(JSON.stringify(f));
	else for (const [k, v] of Object.entries(f)) await out.line(`${k.padEnd(16)} ${v}`);
	const damage = new DamageLog();
	damage.add((await indexBuffers(trace)).damage);
	return damage.messages;
}

async function decode(trace: OpenTrace, opts: Options, out: LineWriter): Promise<string[]> {
	const providers = new ProviderTable(trace);
	const afdGuid = PROVIDERS.find((p) => p.key === 'afd')!.guid;
	const lines: string[] = [];
	const print = (r: RecordJson) => lines.push(recordLine(r, opts.format));
	// Lines go out between buffers, so memory stays bounded whatever the trace size.
	const flush = async () => {
		for (const l of lines) await out.line(l);
		lines.length = 0;
	};
	const header = headerLine(opts.format);
	if (header !== null) await out.line(header);
	if (opts.filter !== null) {
		const damage = await decodeFiltered(
			trace,
			opts,
			(r) => {
				if (opts.provider === 'afd' && r.providerGuid !== afdGuid) return;
				print(r);
			},
			flush,
		);
		await flush();
		return damage;
	}
	const index = await indexBuffers(trace);
	const damage = new DamageLog();
	await mergeRecords(
		trace,
		index.buffers,
		(b, i) => {
			if (opts.provider === 'afd' && providers.guid(b.u16(i, RecordOut.providerIndex)) !== afdGuid)
				return;
			print(recordJson(b, i, trace, providers, damage.record));
		},
		(b) => damage.add(b.damage),
		flush,
	);
	await flush();
	damage.add(index.damage);
	return damage.messages;
}

/**
 * --filter: the records go through the same column chunks and compiled filter as in the web app;
 * each matching record is decoded again from its stored bytes for printing.
 */
async function decodeFiltered(
	trace: OpenTrace,
	opts: Options,
	print: (r: RecordJson) => void,
	flush: () => Promise<void>,
): Promise<string[]> {
	const tables = new TraceTables();
	const start = BigInt(trace.facts.startFiletime);
	const single = recordDecoder(loadModule(), trace.facts);
	const providers = new ProviderTable(single);
	const node = parseFilter(opts.filter!);
	// Process names (for `process:name`) come from the trace's process events, as in the web app.
	const sockets = importTracker(trace);
	const index = await indexBuffers(trace);
	// Matching records are read back from the file by a decoder of their own.
	const records = new BufferRecords(await reopenTrace(trace), bufferTable(index.buffers));
	// The import hands chunks on without waiting for the last to be written: printed in order.
	let printed = Promise.resolve();
	const printChunk = async (chunk: Chunk) => {
		const compiled = compileFilter(node, {
			strings: tables.strings,
			eventTypes: tables.eventTypes,
			startFiletime: start,
			processNames: tables.processNames,
			hostNames: tables.hostNames,
		});
		const test = compiled?.bind(chunk.columns);
		const c = chunk.columns;
		for (let i = 0; i < chunk.rows; i++) {
			if (test && !test(i)) continue;
			const buf = await decodeRecord(
				single,
				await records.bytes(c.buffer[i]!, c.recOffset[i]!),
				c.cpu[i]!,
				start + BigInt(c.time[i]!),
			);
			if (!buf) continue;
			const r = recordJson(buf, 0, trace, providers);
			// Kernel header records and PID-less records keep what the columns say.
			r.pid = c.pid[i] === NO_PID ? null : c.pid[i]!;
			r.tid = c.tid[i] === NO_PID ? null : c.tid[i]!;
			if (c.kind[i] === 0) {
				r.kind = 'header';
				r.name = 'TraceLogfileHeader';
				r.fields = { ...trace.facts };
				delete r.payload;
			}
			print(r);
		}
		await flush();
	};
	const result = await ingestTrace(
		trace,
		(chunk) => (printed = printed.then(() => printChunk(chunk))),
		{ tables, index, observe: sockets.observe, beforeCommit: sockets.learnNames },
	);
	return result.damage.map((d) => d.message);
}

export async function main(argv: string[]): Promise<number> {
	let opts: Options;
	try {
		opts = parseArgs(argv);
	} catch (e) {
		if (e instanceof UsageError) {
			if (e.message) process.stderr.write(`sockscope: ${e.message}\n`);
			process.stderr.write(USAGE + '\n');
			return e.message ? 2 : 0;
		}
		throw e;
	}
	if (!existsSync(opts.file)) {
		process.stderr.write(`sockscope: ${opts.file}: no such file\n`);
		return 2;
	}
	const source = nodeFileSource(opts.file);
	const out = new LineWriter();
	try {
		const opened = await openTrace(blockCache(source), loadModule(), basename(opts.file));
		if (!opened.ok) {
			process.stderr.write(`sockscope: ${opts.file}: ${opened.error}\n`);
			return 1;
		}
		const trace = opened.value;
		let problems: string[] = [];
		if (opts.command === 'info') problems = await info(trace, opts.json, out);
		else if (opts.command === 'decode') problems = await decode(trace, opts, out);
		else if (opts.command === 'sockets') problems = await socketsCommand(trace, opts.format, out);
		else if (opts.command === 'findings') problems = await findingsCommand(trace, opts.json, out);
		else {
			const index = await indexBuffers(trace);
			const stats = await traceStats(trace, index);
			if (opts.json) await out.line(JSON.stringify(stats));
			else
				for (const [k, v] of Object.entries(stats))
					await out.line(`${k.padEnd(18)} ${JSON.stringify(v)}`);
			problems = stats.damage.map((d) => d.message);
		}
		await out.flush();
		for (const p of problems) process.stderr.write(`sockscope: ${opts.file}: ${p}\n`);
		return problems.length ? 1 : 0;
	} finally {
		source.close();
	}
}
