// The decoder worker: owns the WASM module and the trace library; the page talks to it only
// through Comlink (api.ts), passing File handles (never their bytes).
import { expose } from 'comlink';
import wasmUrl from '../../../build/release/decoder.wasm?url';
import scanUrl from '../../../build/release/scan.wasm?url';
import { compileDecoderFromUrl } from '../decoder/wasm.ts';
import { useWasmScan } from '../query/wasm-scan.ts';
import { decoderApi } from './decoder-api.ts';

let module: Promise<WebAssembly.Module> | null = null;

function decoderModule(): Promise<WebAssembly.Module> {
	module ??= compileDecoderFromUrl(wasmUrl);
	return module;
}
// Compiled as the worker starts (with the page): a dropped file does not wait for it. A failure
// is met by the first call that needs the module.
decoderModule().catch(() => {});
// Filters scan in WASM where the browser runs its SIMD (query/wasm-scan.ts); in JavaScript until
// then, or where it cannot.
compileDecoderFromUrl(scanUrl).then(useWasmScan, () => {});

const { api } = decoderApi({ module: decoderModule });

// Reachable only from DevTools or a benchmark driving the browser (never from the page): lets
// `npm run bench:ingest` time queries inside the worker, without the page and its rendering.
(globalThis as { sockscopeApi?: typeof api }).sockscopeApi = api;

expose(api);
