// Starting the decoder worker: at once as the page loads (boot.ts), and again after a crash.
import { proxy, wrap } from 'comlink';
import type { DecoderApi } from './worker/api.ts';
import { startSideWorker } from './worker/side-workers.ts';
import type { DecoderHandle } from './views/trace-session.svelte.ts';

// The `new Worker(new URL(…), { type: 'module' })` shape is what Vite looks for to bundle the worker.
export function startDecoder(): DecoderHandle {
	const worker = new Worker(new URL('./worker/decoder.worker.ts', import.meta.url), {
		type: 'module',
		name: 'sockscope-decoder',
	});
	// A worker that fails to load or throws at top level never answers Comlink calls: the session
	// hears of it, whenever it first uses the worker.
	const stopped = new Promise<Event>((resolve) => {
		worker.addEventListener('error', resolve, { once: true });
		worker.addEventListener('messageerror', resolve, { once: true });
	});
	const api = wrap<DecoderApi>(worker);
	// Before any import (Comlink keeps the calls in order): the page starts the workers an import
	// hands its copy and its sockets to.
	void api.useSideWorkers(proxy(startSideWorker));
	return { worker, api, stopped };
}
