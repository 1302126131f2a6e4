// The decoder worker: owns the WASM module; the page talks to it only through Comlink.
import { expose } from 'comlink';
import wasmUrl from '../../../build/release/decoder.wasm?url';
import { openTrace } from '../decoder/etl-file.ts';
import { blobSource } from '../decoder/source.ts';
import { compileDecoderFromUrl } from '../decoder/wasm.ts';
import { fail, ok } from '../lib/result.ts';
import type { DecoderApi } from './api.ts';

let module: Promise<WebAssembly.Module> | null = null;

function decoderModule(): Promise<WebAssembly.Module> {
	module ??= compileDecoderFromUrl(wasmUrl);
	return module;
}

const api: DecoderApi = {
	async readFacts(file) {
		try {
			const opened = await openTrace(blobSource(file), await decoderModule(), file.name);
			return opened.ok ? ok(opened.value.facts) : fail(opened.error);
		} catch (e) {
			// Reading the file itself failed (removed, unreadable): say so rather than crash.
			return fail(`cannot read ${file.name}: ${e instanceof Error ? e.message : String(e)}`);
		}
	},
};

expose(api);
