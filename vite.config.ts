// Builds the Svelte page in web/ into dist/. The decoder worker imports build/release/decoder.wasm
// with `?url`, so the project root (not only web/) must be reachable by the dev server.
import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

const projectRoot = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
	root: fileURLToPath(new URL('./web', import.meta.url)),
	// Relative asset URLs: the same dist/ works at / and under any sub-path.
	base: './',
	publicDir: fileURLToPath(new URL('./public', import.meta.url)),
	// No svelte.config.js: TypeScript in components needs no preprocessor in Svelte 5.
	plugins: [svelte({ configFile: false })],
	worker: { format: 'es' },
	build: {
		outDir: fileURLToPath(new URL('./dist', import.meta.url)),
		emptyOutDir: true,
		// Vite inlines small `?url` assets as data: URLs (and copies them into each worker); the
		// decoder must stay a real file so instantiateStreaming gets application/wasm.
		assetsInlineLimit: (file) => (file.endsWith('.wasm') ? false : undefined),
	},
	server: { fs: { allow: [projectRoot] } },
});
