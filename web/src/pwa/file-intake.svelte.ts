// Where traces come in from outside the page's own controls: the operating system (launchQueue),
// paste, and drops or picks of several files. Each file is imported into the library in turn, so
// the last one stays on screen and "All traces" lists every one of them.
import type { StorageStatus } from './storage-status.svelte.ts';

export interface TraceOpener {
	open(file: File): Promise<void>;
	openSample(): Promise<void>;
}

export class FileIntake {
	readonly #opener: TraceOpener;
	readonly #storage: StorageStatus;
	#generation = 0;

	constructor(opener: TraceOpener, storage: StorageStatus) {
		this.#opener = opener;
		this.#storage = storage;
	}

	/**
	 * Imports the files one after another (the worker imports one trace at a time). A newer
	 * hand-over stops an older one between files; the file being imported finishes.
	 */
	async accept(files: readonly File[]): Promise<void> {
		if (files.length === 0) return;
		const generation = ++this.#generation;
		this.#imported();
		for (const file of files) {
			if (generation !== this.#generation) return;
			await this.#opener.open(file);
		}
		void this.#storage.refresh();
	}

	async openSample(): Promise<void> {
		++this.#generation;
		this.#imported();
		await this.#opener.openSample();
		void this.#storage.refresh();
	}

	// Synchronous up to persist(): Firefox only grants it during a user action.
	#imported(): void {
		void this.#storage.requestPersistence();
	}
}
