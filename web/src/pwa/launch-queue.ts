// An installed Sockscope is the handler for .etl files (manifest file_handlers in vite.config.ts):
// a double-clicked trace arrives here as a FileSystemFileHandle through window.launchQueue. With
// launch_handler "focus-existing", later double-clicks arrive in the already open window too.

/** Starts consuming launches; false when the browser has no launchQueue (not Chromium). */
export function consumeLaunchQueue(target: Window, onfiles: (files: File[]) => void): boolean {
	const queue = target.launchQueue;
	if (!queue) return false;
	queue.setConsumer(async (params) => {
		const files = await filesOf(params.files ?? []);
		if (files.length > 0) onfiles(files);
	});
	return true;
}

async function filesOf(handles: readonly FileSystemHandle[]): Promise<File[]> {
	const files: File[] = [];
	for (const handle of handles) {
		if (handle.kind !== 'file') continue;
		try {
			files.push(await (handle as FileSystemFileHandle).getFile());
		} catch (err) {
			// Moved or deleted between the double-click and now; the others still open.
			console.warn(`Sockscope: cannot read ${handle.name}:`, err);
		}
	}
	return files;
}
