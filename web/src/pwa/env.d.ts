// Types the DOM library does not have yet, and the build-time constants vite.config.ts defines.
/// <reference types="vite-plugin-pwa/vanillajs" />

/** The app version (package.json, or SOCKSCOPE_VERSION at build time). */
declare const __SOCKSCOPE_VERSION__: string;

/** Web App Launch Handler API (Chromium): files an installed app was opened with. */
interface LaunchParams {
	readonly targetURL?: string | null;
	readonly files: readonly FileSystemHandle[];
}

interface LaunchQueue {
	setConsumer(consumer: (params: LaunchParams) => unknown): void;
}

interface Window {
	readonly launchQueue?: LaunchQueue;
}
