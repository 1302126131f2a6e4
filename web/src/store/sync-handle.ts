// Synchronous handles on the library's copies of trace files, in the modes they are shared in.

/**
 * How a copy is opened: `read-only` once whole (the decoder and the sockets may both read it), or
 * `readwrite-unsafe` while it is written (beside the copying worker's own handle, opened so too).
 */
export type CopyMode = 'read-only' | 'readwrite-unsafe';

/** A synchronous handle on a copy in `mode` (a browser that knows no modes takes it whole). */
export function syncHandle(
	entry: FileSystemFileHandle,
	mode: CopyMode,
): Promise<FileSystemSyncAccessHandle> {
	return (
		entry as unknown as {
			createSyncAccessHandle(o: { mode: string }): Promise<FileSystemSyncAccessHandle>;
		}
	).createSyncAccessHandle({ mode });
}
