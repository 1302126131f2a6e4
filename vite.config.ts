// Builds the Svelte page in web/ into dist/. The decoder worker imports build/release/decoder.wasm
// with `?url`, so the project root (not only web/) must be reachable by the dev server.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { latestEntry, translatedEntry } from './scripts/changelog.ts';
import type { ChangesFile } from './web/src/lib/changelog-entry.ts';

const projectRoot = fileURLToPath(new URL('.', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
	version: string;
	description: string;
};
// Shown in the storage panel. SOCKSCOPE_VERSION overrides it so the update e2e test can build a
// second, different version of the same source.
const version = process.env.SOCKSCOPE_VERSION ?? pkg.version;
/**
 * First in the page's and the workers' scripts: Chromium then compiles every function of
 * them while it streams them in, off the main thread (V8's explicit compile hints), rather than
 * each at its first call. A trace dropped or opened from the system as the page appears showed
 * its first rows sooner in each of four alternated sets of 8 first visits (30 MB trace, medians
 * 0.57-0.74 s rather than 0.68-0.95 s); a page left idle for a second first gains little. Other
 * browsers read a comment.
 */
const compileEagerly = {
	output: {
		postBanner: (chunk: { isEntry: boolean; isDynamicEntry: boolean }) =>
			chunk.isEntry || chunk.isDynamicEntry ? '//# allFunctionsCalledOnLoad' : '',
	},
};

export default defineConfig({
	root: fileURLToPath(new URL('./web', import.meta.url)),
	// Relative asset URLs: the same dist/ works at / and under any sub-path.
	base: './',
	publicDir: fileURLToPath(new URL('./public', import.meta.url)),
	define: { __SOCKSCOPE_VERSION__: JSON.stringify(version) },
	plugins: [
		// No svelte.config.js: TypeScript in components needs no preprocessor in Svelte 5.
		svelte({ configFile: false }),
		{
			// The latest CHANGELOG entry beside the page, for the update prompt (not precached:
			// a waiting version's prompt reads the new one from the server).
			name: 'sockscope-changes',
			generateBundle() {
				const read = (name: string) => readFileSync(new URL(name, import.meta.url), 'utf8');
				const entry = latestEntry(read('./CHANGELOG.md'));
				const entryZh = translatedEntry(entry, latestEntry(read('./CHANGELOG.zh.md')));
				const changes: ChangesFile = { version, entry, entryZh };
				this.emitFile({ type: 'asset', fileName: 'changes.json', source: JSON.stringify(changes) });
			},
		},
		VitePWA({
			// A new version waits until the user says so (UpdatePrompt); web/src/pwa/register.ts
			// registers the worker through virtual:pwa-register, so no inline script is injected
			// (the CSP forbids inline scripts).
			registerType: 'prompt',
			injectRegister: false,
			// Dev mode serves modules straight from the source tree; offline is a production feature.
			devOptions: { enabled: false },
			includeAssets: ['favicon.svg', 'apple-touch-icon.png'],
			manifest: {
				// Relative to the manifest, like every other URL here, so any sub-path works. No `id`:
				// browsers resolve it against the origin, not the manifest, so './' would make every
				// copy on one server (/stable/, /beta/) the same app; without it the id is start_url.
				start_url: './',
				scope: './',
				name: 'Sockscope',
				short_name: 'Sockscope',
				description: pkg.description,
				display: 'standalone',
				theme_color: '#0b6e99',
				background_color: '#f4f6f8',
				lang: 'en',
				categories: ['developer', 'utilities'],
				icons: [
					{ src: 'icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
					{ src: 'icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
					{
						src: 'icon-maskable-512.png',
						sizes: '512x512',
						type: 'image/png',
						purpose: 'maskable',
					},
					{ src: 'favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
				],
				// An installed Sockscope opens double-clicked traces; the page reads them from
				// window.launchQueue (web/src/pwa/launch-queue.ts). The MIME key is required but ETL
				// has no registered type; operating systems match on the extension.
				file_handlers: [{ action: './', accept: { 'application/x-etl': ['.etl'] } }],
				// A second double-click goes to the open window instead of starting another one.
				launch_handler: { client_mode: ['focus-existing', 'auto'] },
			},
			workbox: {
				// Everything the app needs offline: the page, its scripts and styles, the decoder
				// worker, the WASM module and the sample trace. Icons, includeAssets and the manifest
				// are added by the plugin itself (globbing svg/png/webmanifest would list them twice).
				globPatterns: ['**/*.{html,js,css,wasm,etl}'],
				// The first visit is controlled as soon as the worker is active, so the sample and
				// the WASM are served from the cache from then on. No skipWaiting: an update waits
				// for the user (UpdatePrompt), never changes the app under them.
				clientsClaim: true,
				skipWaiting: false,
				cleanupOutdatedCaches: true,
				navigateFallback: 'index.html',
			},
		}),
	],
	worker: { format: 'es', rolldownOptions: compileEagerly },
	build: {
		outDir: fileURLToPath(new URL('./dist', import.meta.url)),
		emptyOutDir: true,
		// Vite inlines small `?url` assets as data: URLs (and copies them into each worker); the
		// decoder must stay a real file so instantiateStreaming gets application/wasm.
		assetsInlineLimit: (file) => (file.endsWith('.wasm') ? false : undefined),
		rolldownOptions: compileEagerly,
	},
	server: { fs: { allow: [projectRoot] } },
});
