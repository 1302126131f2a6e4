// The page: its view, the service worker that makes it work offline, and the decoder worker it
// talks to over Comlink (started by boot.ts, before this loads).
import { mount } from 'svelte';
import App from './App.svelte';
import { startPwa } from './pwa/services.ts';
import { startDecoder } from './decoder-start.ts';
import { TraceSession, type DecoderHandle } from './views/trace-session.svelte.ts';
import { htmlLang, locale } from './i18n/locale.svelte.ts';

/** Builds the page around `first`, the decoder worker already started (a fresh one after a crash). */
export function startPage(first: DecoderHandle): void {
	const target = document.getElementById('app');
	if (!target) throw new Error('index.html has no #app element');

	// The page's language before the first paint: the reader's choice, or the browser's.
	document.documentElement.lang = htmlLang(locale.lang);

	let early: DecoderHandle | null = first;
	const session = new TraceSession(() => {
		const decoder = early ?? startDecoder();
		early = null;
		return decoder;
	});
	addEventListener('pagehide', () => session.dispose());
	// Launches from the operating system wait in window.launchQueue until a consumer is set.
	const pwa = startPwa(session, session);
	mount(App, { target, props: { session, pwa } });
}
