// Everything that makes Sockscope an installable, offline app, started once by main.ts: the
// service worker, storage status, and the ways files arrive from outside the page.
import { FileIntake, type TraceOpener } from './file-intake.svelte.ts';
import { consumeLaunchQueue } from './launch-queue.ts';
import { listenForPastedFiles } from './paste.ts';
import { PwaState } from './pwa-state.svelte.ts';
import { whenQuiet, type Imports } from './quiet.ts';
import { registerServiceWorker } from './register.ts';
import { StorageStatus } from './storage-status.svelte.ts';

export interface PwaServices {
	readonly state: PwaState;
	readonly storage: StorageStatus;
	readonly intake: FileIntake;
	/**
	 * Whether the browser hands over files the OS opens with an installed app (launchQueue:
	 * Chromium only). Elsewhere the page says that double-clicking a trace cannot reach it.
	 */
	readonly osFiles: boolean;
}

/**
 * `imports`: the page's imports, which the offline precache waits for (quiet.ts): a trace
 * dropped at once on a first visit is not slowed by it.
 */
export function startPwa(opener: TraceOpener, imports: Imports): PwaServices {
	const state = new PwaState(navigator.serviceWorker);
	const storage = new StorageStatus(navigator.storage);
	const intake = new FileIntake(opener, storage);
	void whenQuiet(imports).then(() => registerServiceWorker(state, () => void storage.refresh()));
	const osFiles = consumeLaunchQueue(window, (files) => void intake.accept(files));
	listenForPastedFiles(window, (files) => void intake.accept(files));
	return { state, storage, intake, osFiles };
}
