// The decoder worker: owns the WASM module and the trace library; the page talks to it only
// through Comlink, passing File handles (never their bytes).
import { expose } from 'comlink';
import wasmUrl from '../../../build/release/decoder.wasm?url';
import { openTrace } from '../decoder/etl-file.ts';
import { blobSource } from '../decoder/source.ts';
import { compileDecoderFromUrl } from '../decoder/wasm.ts';
import { fail, ok } from '../lib/result.ts';
import type { DecoderApi } from './api.ts';
import { Library } from './library.ts';

let module: Promise<WebAssembly.Module> | null = null;

function decoderModule(): Promise<WebAssembly.Module> {
	module ??= compileDecoderFromUrl(wasmUrl);
	return module;
}
// Compiled as the worker starts (with the page): a dropped file does not wait for it. A failure
// is met by the first call that needs the module.
decoderModule().catch(() => {});

/** Requests of the page being answered: an import lets them in at every buffer meanwhile. */
let answering = 0;
const library = new Library(decoderModule, () => answering > 0);

/** A request the page waits on (its answer a few turns of the event loop away). */
function answer<A extends unknown[], R>(f: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
	return async (...args) => {
		answering++;
		try {
			return await f(...args);
		} finally {
			answering--;
		}
	};
}

const reason = (e: unknown) => (e instanceof Error ? e.message : String(e));

const api: DecoderApi = {
	async readFacts(file) {
		try {
			const opened = await openTrace(blobSource(file), await decoderModule(), file.name);
			return opened.ok ? ok(opened.value.facts) : fail(opened.error);
		} catch (e) {
			// Reading the file itself failed (removed, unreadable): say so rather than crash.
			return fail(`cannot read ${file.name}: ${reason(e)}`);
		}
	},
	listTraces: () => library.list(),
	async importFile(file, onProgress) {
		try {
			return await library.import(file, onProgress);
		} catch (e) {
			return fail(`cannot import ${file.name}: ${reason(e)}`);
		}
	},
	async resumeImport(id, file, onProgress) {
		try {
			return await library.resume(id, file, onProgress);
		} catch (e) {
			return fail(`cannot resume ${file.name}: ${reason(e)}`);
		}
	},
	async cancelImport(id) {
		library.cancel(id);
	},
	renameTrace: (id, name) => library.rename(id, name),
	deleteTrace: (id) => library.remove(id),
	openTrace: answer((id) => library.opened(id)),
	query: answer((id, filter, range, head) => library.query(id, filter, range, head)),
	rows: answer((id, offset, limit) => library.rows(id, offset, limit)),
	histogram: answer((id, from, to, bins) => library.histogram(id, from, to, bins)),
	groupBy: answer((id, key, limit) => library.groupBy(id, key, limit)),
	details: answer((id, index) => library.details(id, index)),
	sockets: answer((id) => library.sockets(id)),
	findings: answer((id) => library.findings(id)),
	positionOf: answer((id, index) => library.positionOf(id, index)),
	async vocabulary(id) {
		try {
			return await library.vocabulary(id);
		} catch (e) {
			return fail(`cannot list the trace's names: ${reason(e)}`);
		}
	},
	async trust(id) {
		try {
			return await library.trust(id);
		} catch (e) {
			return fail(`cannot count what the trace lost: ${reason(e)}`);
		}
	},
	async statistics(id) {
		try {
			return await library.statistics(id);
		} catch (e) {
			return fail(`cannot compute statistics: ${reason(e)}`);
		}
	},
	async exportRows(id, format, write) {
		try {
			return await library.exportRows(id, format, write);
		} catch (e) {
			return fail(`export failed: ${reason(e)}`);
		}
	},
};

// Reachable only from DevTools or a benchmark driving the browser (never from the page): lets
// `npm run bench:ingest` time queries inside the worker, without the page and its rendering.
(globalThis as { sockscopeLibrary?: Library }).sockscopeLibrary = library;

expose(api);
