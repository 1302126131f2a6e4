// The traces a command reads: files, or `-` for standard input. A redirected stdin (a regular
// file) is read in place; a pipe cannot seek, so it is first copied to a temporary file, which
// is removed when the command is done with it.
import { createWriteStream, existsSync, fstatSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ByteSource } from '../decoder/source.ts';
import { nodeFileSource } from './node-source.ts';
import { EXIT, UsageError } from './args.ts';
import { NOT_ETL } from '../decoder/etl-file.ts';

export interface Input {
	/** The name shown in messages and used for the trace: the file's base name, or "stdin". */
	readonly name: string;
	readonly source: ByteSource;
	/** Closes the file and removes a spooled copy of stdin. */
	close(): void;
}

/** Checks that every named file exists before any work starts (a usage error otherwise). */
export function checkFiles(files: readonly string[]): void {
	for (const f of files) {
		if (f === '-') continue;
		if (!existsSync(f)) throw new UsageError(`${f}: no such file`);
		if (!statSync(f).isFile()) throw new UsageError(`${f}: not a file`);
	}
}

export async function openInput(
	file: string,
	stdin: NodeJS.ReadableStream = process.stdin,
): Promise<Input> {
	if (file !== '-') {
		const source = nodeFileSource(file);
		return { name: basename(file), source, close: () => source.close() };
	}
	if (stdin === process.stdin && fstatSync(0).isFile()) {
		const source = nodeFileSource(0);
		return { name: 'stdin', source, close: () => source.close() };
	}
	const dir = mkdtempSync(join(tmpdir(), 'sockscope-stdin-'));
	const remove = () => rmSync(dir, { recursive: true, force: true });
	// Interrupted while spooling or decoding: the copy goes too.
	const onSignal = (signal: NodeJS.Signals) => {
		remove();
		process.kill(process.pid, signal);
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	const path = join(dir, 'stdin.etl');
	try {
		await pipeline(stdin, createWriteStream(path));
		const source = nodeFileSource(path);
		return {
			name: 'stdin',
			source,
			close: () => {
				source.close();
				remove();
				process.removeListener('SIGINT', onSignal);
				process.removeListener('SIGTERM', onSignal);
			},
		};
	} catch (e) {
		remove();
		process.removeListener('SIGINT', onSignal);
		process.removeListener('SIGTERM', onSignal);
		throw e;
	}
}

/**
 * What a one-file command prints and returns when its file does not open: not a trace at all is
 * the wrong file given (exit 2); a trace whose header is damaged, 1.
 */
export function openRefused(
	file: string,
	failure: { readonly code: string; readonly error: string },
	stderr: NodeJS.WritableStream,
): number {
	if (failure.code === 'format') {
		const found = failure.error.startsWith(NOT_ETL)
			? failure.error.slice(NOT_ETL.length)
			: failure.error;
		stderr.write(`sockscope: not an ETL trace: ${file}: ${found}\n`);
		return EXIT.notEtl;
	}
	stderr.write(`sockscope: ${file}: ${failure.error}\n`);
	return EXIT.damaged;
}
