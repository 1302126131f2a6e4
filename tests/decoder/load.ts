// Test helpers: the release WASM and traces opened from files or bytes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	indexBuffers,
	openTrace,
	type OpenTrace,
	type BufferIndex,
} from '../../web/src/decoder/etl-file.ts';
import { memorySource, type ByteSource } from '../../web/src/decoder/source.ts';
import { traceStats, type TraceStats } from '../../web/src/decoder/stats.ts';
import { realFixturesDir } from '../fixtures/real/sources-table.ts';

let module: WebAssembly.Module | null = null;

export function decoderModule(): WebAssembly.Module {
	module ??= new WebAssembly.Module(
		readFileSync(join(import.meta.dirname, '../../build/release/decoder.wasm')),
	);
	return module;
}

let scan: WebAssembly.Module | null = null;

/** The filter scans' WASM (build/release/scan.wasm). */
export function scanModule(): WebAssembly.Module {
	scan ??= new WebAssembly.Module(
		readFileSync(join(import.meta.dirname, '../../build/release/scan.wasm')),
	);
	return scan;
}

export function realFixture(name: string): Uint8Array {
	return new Uint8Array(readFileSync(join(realFixturesDir, `${name}.etl`)));
}

export async function open(bytes: Uint8Array, name = 'trace.etl'): Promise<OpenTrace> {
	const r = await openTrace(memorySource(bytes), decoderModule(), name);
	if (!r.ok) throw new Error(r.error);
	return r.value;
}

export async function statsOf(bytes: Uint8Array): Promise<TraceStats & { index: BufferIndex }> {
	const trace = await open(bytes);
	const index = await indexBuffers(trace);
	return { ...(await traceStats(trace, index)), index };
}

/** Bytes that can only be read asynchronously, as a browser File; counts the reads. */
export function asyncSource(bytes: Uint8Array): ByteSource & { reads: number } {
	const m = memorySource(bytes);
	const s = {
		size: m.size,
		reads: 0,
		read: (offset: number, length: number) => {
			s.reads++;
			return m.read(offset, length);
		},
	};
	return s;
}
