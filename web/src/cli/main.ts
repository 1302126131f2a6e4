// sockscope: the command line over the same WASM decoder as the web app. `sockscope --help` and
// `sockscope COMMAND --help` list the commands and options (args.ts); exit codes are EXIT.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { indexBuffers, openTrace, type OpenTrace } from '../decoder/etl-file.ts';
import { DamageLog } from '../decoder/messages.ts';
import type { ExportFormat } from '../export/record-lines.ts';
import type { EventColumn } from '../export/event-columns.ts';
import { blockCache } from '../decoder/source.ts';
import { traceStats } from '../decoder/stats.ts';
import { useWasmScan } from '../query/wasm-scan.ts';
import type { Io } from './io.ts';
import { EXIT, parseCommandLine, UsageError, type Options } from './args.ts';
import { checkFiles, openInput, openRefused } from './input.ts';
import { LineWriter, OutputClosed } from './output.ts';
import { Progress } from './progress.ts';
import type { FindingsFormat, SocketsFormat } from './sockets-commands.ts';

/** The project root: the nearest folder above this module (source or bundle) with a package.json. */
function projectRoot(): string {
	const here = dirname(fileURLToPath(import.meta.url));
	for (let dir = here; ; dir = dirname(dir)) {
		if (existsSync(join(dir, 'package.json'))) return dir;
		if (dirname(dir) === dir) return here;
	}
}

const ROOT = projectRoot();

export function loadModule(): WebAssembly.Module {
	const path = join(ROOT, 'build/release/decoder.wasm');
	if (!existsSync(path))
		throw new Error(`the decoder is not built (${path} is missing): run npm run build:wasm`);
	// Filters scan in WASM (query/wasm-scan.ts), else in JavaScript.
	const scan = join(ROOT, 'build/release/scan.wasm');
	if (existsSync(scan)) useWasmScan(new WebAssembly.Module(readFileSync(scan)));
	return new WebAssembly.Module(readFileSync(path));
}

function version(): string {
	return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
		.version;
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

async function stats(trace: OpenTrace, json: boolean, out: LineWriter): Promise<string[]> {
	const index = await indexBuffers(trace);
	const s = await traceStats(trace, index);
	if (json) await out.line(JSON.stringify(s));
	else
		for (const [k, v] of Object.entries(s)) await out.line(`${k.padEnd(18)} ${JSON.stringify(v)}`);
	return s.damage.map((d) => d.message);
}

/** Where a run reads and writes: the process's own streams, or a test's. */
export type { Io } from './io.ts';

/** One trace through a one-file command; returns the exit code. */
async function runOne(opts: Options, out: LineWriter, io: Io): Promise<number> {
	const file = opts.files[0]!;
	// Each command's code is loaded when it runs: a pass that needs little (stats, info) starts
	// without reading the rest.
	const columns =
		opts.columns === null
			? null
			: opts.command === 'sockets'
				? (await import('./sockets-commands.ts')).pickSocketColumns(opts.columns)
				: (await import('../export/event-columns.ts')).pickEventColumns(opts.columns);
	if (columns && 'error' in columns) throw new UsageError(columns.error);
	const module = loadModule();
	const input = await openInput(file, io.stdin);
	const progress = new Progress(input.name, opts.quiet, io.stderr);
	try {
		const opened = await openTrace(blockCache(input.source), module, input.name);
		if (!opened.ok) return openRefused(file, opened, io.stderr);
		const trace = opened.value;
		let problems: string[] = [];
		const format = opts.format as ExportFormat;
		switch (opts.command) {
			case 'info':
				problems = await info(trace, opts.json, out);
				break;
			case 'decode': {
				const { decodeCommand } = await import('./decode-command.ts');
				problems = await decodeCommand(
					trace,
					module,
					{
						format,
						provider: opts.provider,
						filter: opts.filter,
						columns: columns as EventColumn[] | null,
					},
					out,
					progress,
				);
				break;
			}
			case 'sockets': {
				const { socketsCommand } = await import('./sockets-commands.ts');
				problems = await socketsCommand(
					trace,
					opts.format as SocketsFormat,
					columns as readonly string[] | null,
					out,
					progress,
				);
				break;
			}
			case 'findings': {
				const { findingsCommand } = await import('./sockets-commands.ts');
				problems = await findingsCommand(
					trace,
					opts.json,
					opts.format as FindingsFormat,
					out,
					progress,
				);
				break;
			}
			case 'stats':
				problems = await stats(trace, opts.json, out);
				break;
		}
		progress.done();
		await out.flush();
		for (const p of problems) io.stderr.write(`sockscope: ${file}: ${p}\n`);
		return problems.length ? EXIT.damaged : EXIT.ok;
	} finally {
		progress.done();
		input.close();
	}
}

export async function main(
	argv: string[],
	io: Io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
	const out = new LineWriter(io.stdout);
	try {
		const parsed = parseCommandLine(argv, { stdoutIsTTY: io.stdout.isTTY === true });
		if (parsed.kind === 'help') {
			io.stdout.write(parsed.text + '\n');
			return EXIT.ok;
		}
		if (parsed.kind === 'version') {
			io.stdout.write(`sockscope ${version()}\n`);
			return EXIT.ok;
		}
		const opts = parsed.options;
		// The packet commands read their own filter language (packets/packet-filter.ts).
		const packetCommand = opts.command === 'packets' || opts.command === 'pcapng';
		if (opts.filter !== null && !packetCommand)
			(await import('./filter-check.ts')).checkFilter(opts.filter);
		checkFiles(opts.files);
		if (opts.command === 'packets')
			return await (await import('./packet-commands.ts')).packetsCommand(opts, loadModule(), io);
		if (opts.command === 'pcapng')
			return await (await import('./packet-commands.ts')).pcapngCommand(opts, loadModule(), io);
		if (opts.command === 'export')
			return await (await import('./export-command.ts')).exportCommand(opts, loadModule(), io);
		if (opts.command === 'diff')
			return await (await import('./diff-command.ts')).diffCommand(opts, loadModule(), io, out);
		return await runOne(opts, out, io);
	} catch (e) {
		if (e instanceof OutputClosed) return EXIT.ok;
		if (e instanceof UsageError) {
			io.stderr.write(`sockscope: ${e.message}\n`);
			return EXIT.usage;
		}
		// Only a command that read a filter can have thrown this: its module is loaded by then.
		const { FilterError } = await import('../query/filter-parser.ts');
		if (e instanceof FilterError) {
			io.stderr.write(`sockscope: --filter: ${e.message}\n`);
			return EXIT.usage;
		}
		const message = e instanceof Error ? e.message : String(e);
		io.stderr.write(`sockscope: internal error: ${message.split('\n')[0]}\n`);
		if (process.env.SOCKSCOPE_DEBUG && e instanceof Error) io.stderr.write(`${e.stack}\n`);
		return EXIT.internal;
	}
}
