// sockscope: the command line over the same WASM decoder as the web app.
//   sockscope info FILE [--json]
//   sockscope decode FILE [--format ndjson|csv] [--provider afd|all]
//   sockscope stats FILE [--json]
//   sockscope sockets FILE [--format ndjson|csv], sockscope findings FILE [--json]
import { readFileSync, existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROVIDERS } from '../generated/schemas.ts';
import { RecordOut } from '../generated/layouts.ts';
import { indexBuffers, openTrace, type OpenTrace } from '../decoder/etl-file.ts';
import { mergeRecords } from '../decoder/merge.ts';
import { damageFileOffset, describeDamage } from '../decoder/messages.ts';
import { ProviderTable, recordJson, type RecordJson } from '../decoder/record-json.ts';
import { blockCache } from '../decoder/source.ts';
import { traceStats } from '../decoder/stats.ts';
import { csvCell, LineWriter } from './output.ts';
import { nodeFileSource } from './node-source.ts';
import { findingsCommand, socketsCommand, SOCKETS_USAGE } from './sockets-commands.ts';

const USAGE = `usage:
  sockscope info FILE [--json]
  sockscope decode FILE [--format ndjson|csv] [--provider afd|all]
  sockscope stats FILE [--json]
${SOCKETS_USAGE}`;

const CSV_COLUMNS: (keyof RecordJson)[] = [
	'kind',
	'time',
	'filetime',
	'providerGuid',
	'provider',
	'id',
	'version',
	'level',
	'opcode',
	'task',
	'keyword',
	'pid',
	'tid',
	'cpu',
	'name',
	'fields',
];

class UsageError extends Error {}

interface Options {
	command: string;
	file: string;
	json: boolean;
	format: 'ndjson' | 'csv';
	provider: 'afd' | 'all';
}

function parseArgs(argv: string[]): Options {
	const [command, ...rest] = argv;
	if (!command || command === '--help' || command === '-h') throw new UsageError('');
	if (!['info', 'decode', 'stats', 'sockets', 'findings'].includes(command))
		throw new UsageError(`unknown command: ${command}`);
	const opts: Options = { command, file: '', json: false, format: 'ndjson', provider: 'all' };
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
		} else if (a.startsWith('-')) throw new UsageError(`unknown option: ${a}`);
		else if (!opts.file) opts.file = a;
		else throw new UsageError(`unexpected argument: ${a}`);
	}
	if (!opts.file) throw new UsageError(`${command} needs a FILE`);
	return opts;
}

function loadModule(): WebAssembly.Module {
	const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
	const path = join(root, 'build/release/decoder.wasm');
	if (!existsSync(path))
		throw new Error(`the decoder is not built (${path} is missing): run npm run build:wasm`);
	return new WebAssembly.Module(readFileSync(path));
}

async function info(trace: OpenTrace, json: boolean, out: LineWriter): Promise<void> {
	const f = trace.facts;
	if (json) return out.line(JSON.stringify(f));
	for (const [k, v] of Object.entries(f)) await out.line(`${k.padEnd(16)} ${v}`);
}

async function decode(trace: OpenTrace, opts: Options, out: LineWriter): Promise<string[]> {
	const index = await indexBuffers(trace);
	const providers = new ProviderTable(trace);
	const afdOnly = opts.provider === 'afd';
	const afdGuid = PROVIDERS.find((p) => p.key === 'afd')!.guid;
	const problems: string[] = [];
	const lines: string[] = [];
	if (opts.format === 'csv') await out.line(CSV_COLUMNS.join(','));
	const flushEvery = async () => {
		for (const l of lines) await out.line(l);
		lines.length = 0;
	};
	await mergeRecords(
		trace,
		index.buffers,
		(b, i) => {
			if (afdOnly && providers.guid(b.u16(i, RecordOut.providerIndex)) !== afdGuid) return;
			const r = recordJson(b, i, trace, providers);
			lines.push(
				opts.format === 'csv' ? CSV_COLUMNS.map((c) => csvCell(r[c])).join(',') : JSON.stringify(r),
			);
		},
		(b) => {
			if (b.damage) problems.push(describeDamage(b.damage));
		},
	);
	await flushEvery();
	if (index.damage && !problems.some((p) => p.startsWith(`buffer ${index.damage!.bufferIndex} `)))
		problems.push(describeDamage(index.damage));
	return problems;
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
		if (opts.command === 'info') await info(trace, opts.json, out);
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

// Unused here but kept exported for callers that want the offset of a damage report.
export { damageFileOffset };
