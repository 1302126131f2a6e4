// Ways files reach the app from outside its own buttons, done as the browser would do them:
// several files dropped at once, pasted from the clipboard, or handed over by the operating system
// through window.launchQueue when an installed Sockscope opens a double-clicked trace.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { JSHandle, Page } from 'playwright-core';

interface NamedBytes {
	readonly name: string;
	readonly base64: string;
}

const named = (paths: readonly string[]): NamedBytes[] =>
	paths.map((path) => ({ name: basename(path), base64: readFileSync(path).toString('base64') }));

/** A DataTransfer in the page holding the files at `paths`. */
function transferOf(page: Page, paths: readonly string[]): Promise<JSHandle<DataTransfer>> {
	return page.evaluateHandle((files) => {
		const transfer = new DataTransfer();
		for (const { name, base64 } of files) {
			const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
			transfer.items.add(new File([bytes], name, { type: 'application/octet-stream' }));
		}
		return transfer;
	}, named(paths));
}

/** Drops all files at once on the drop zone (dragenter, dragover, drop). */
export async function dropFiles(page: Page, paths: readonly string[]): Promise<void> {
	const dataTransfer = await transferOf(page, paths);
	const zone = page.getByTestId('drop-zone');
	for (const type of ['dragenter', 'dragover', 'drop']) {
		await zone.dispatchEvent(type, { dataTransfer });
	}
	await dataTransfer.dispose();
}

/** Ctrl+V with files on the clipboard: a paste event whose clipboardData carries them. */
export async function pasteFiles(page: Page, paths: readonly string[]): Promise<void> {
	const dataTransfer = await transferOf(page, paths);
	await page.evaluate((clipboardData) => {
		document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true }));
	}, dataTransfer);
	await dataTransfer.dispose();
}

/**
 * Init script (pass to openSite's beforeLoad) that keeps the consumer the app gives
 * window.launchQueue, so launchFiles can call it the way Chromium does for a file launch.
 */
export async function captureLaunchConsumer(page: Page): Promise<void> {
	await page.addInitScript(() => {
		const queue = (window as { LaunchQueue?: { prototype: { setConsumer: unknown } } }).LaunchQueue;
		if (!queue) return;
		const original = queue.prototype.setConsumer as (this: unknown, c: unknown) => void;
		queue.prototype.setConsumer = function (this: unknown, consumer: unknown) {
			(window as { __launchConsumer?: unknown }).__launchConsumer = consumer;
			original.call(this, consumer);
		};
	});
}

/**
 * Launches the app with files, as a double-click in Explorer on an installed app does: the files
 * become real FileSystemFileHandles (written to the origin private file system, since a test
 * cannot reach the OS file picker) and go to the launch consumer as LaunchParams.files.
 */
export async function launchFiles(page: Page, paths: readonly string[]): Promise<void> {
	await page.evaluate(async (files) => {
		const consumer = (window as { __launchConsumer?: (params: unknown) => unknown })
			.__launchConsumer;
		if (!consumer) throw new Error('the app set no launchQueue consumer');
		// A directory of their own, apart from the library's copies of imported traces.
		const root = await (
			await navigator.storage.getDirectory()
		).getDirectoryHandle('launched', { create: true });
		const handles: FileSystemFileHandle[] = [];
		for (const { name, base64 } of files) {
			const handle = await root.getFileHandle(name, { create: true });
			const writable = await handle.createWritable();
			await writable.write(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
			await writable.close();
			handles.push(handle);
		}
		await consumer({ targetURL: location.href, files: handles });
	}, named(paths));
}

/** Deletes what launchFiles wrote, so storage numbers are not skewed for later checks. */
export async function clearPrivateFiles(page: Page): Promise<void> {
	await page.evaluate(async () => {
		const root = await navigator.storage.getDirectory();
		await root.removeEntry('launched', { recursive: true });
	});
}
