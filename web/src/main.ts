// Entry point: starts the page, the service worker that makes it work offline, and, on first use,
// the decoder worker it talks to over Comlink.
import { proxy, wrap } from 'comlink';
import { mount } from 'svelte';
import App from './App.svelte';
import { startPwa } from './pwa/services.ts';
import type { DecoderApi } from './worker/api.ts';
import { startSideWorker } from './worker/side-workers.ts';
import { TraceSession, type DecoderHandle } from './views/trace-session.svelte.ts';
import { htmlLang, locale } from './i18n/locale.svelte.ts';
import './app.css';

// The `new Worker(new URL(…), { type: 'module' })` shape is what Vite looks for to bundle the worker.
function startDecoder(): DecoderHandle {
	const worker = new Worker(new URL('./worker/decoder.worker.ts', import.meta.url), {
		type: 'module',
		name: 'sockscope-decoder',
	});
	const api = wrap<DecoderApi>(worker);
	// Before any import (Comlink keeps the calls in order): the page starts the workers an import
	// hands its copy and its sockets to.
	void api.useSideWorkers(proxy(startSideWorker));
	return { worker, api };
}

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');

// The page's language before the first paint: the reader's choice, or the browser's.
document.documentElement.lang = htmlLang(locale.lang);

const session = new TraceSession(startDecoder);
addEventListener('pagehide', () => session.dispose());
// Launches from the operating system wait in window.launchQueue until a consumer is set.
const pwa = startPwa(session);
mount(App, { target, props: { session, pwa } });
