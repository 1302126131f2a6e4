// The library's copies of trace files, in the origin private file system beside the database.
// Details and exports read records back from them after a reload, when the dropped file is gone;
// the copy is written by its own worker (copy.worker.ts) while the import decodes the original.
import type { CopyRequest } from './copy.worker.ts';
import type { ByteSource } from '../decoder/source.ts';
import { syncHandle, type CopyMode } from './sync-handle.ts';

const DIR = 'traces';

const fileName = (id: number) => `${id}.etl`;

async function directory(): Promise<FileSystemDirectoryHandle> {
	if (!navigator.storage?.getDirectory)
		throw new Error('this browser has no origin private file system, where traces are kept');
	const root = await navigator.storage.getDirectory();
	return root.getDirectoryHandle(DIR, { create: true });
}

/** The library's copy of trace `id`, or null when there is none. */
export async function traceFile(id: number): Promise<File | null> {
	try {
		return await (await (await directory()).getFileHandle(fileName(id))).getFile();
	} catch {
		return null;
	}
}

export async function removeTraceFile(id: number): Promise<void> {
	try {
		await (await directory()).removeEntry(fileName(id));
	} catch {
		// Not there, or still held by a copy being stopped: removeOrphans takes it later.
	}
}

/**
 * Removes copies whose trace is no longer in the library (`known`, as listed). Traces numbered
 * above every listed one were added since (ids only grow): their copies stay.
 */
export async function removeOrphans(known: ReadonlySet<number>): Promise<void> {
	const dir = await directory();
	const newest = Math.max(0, ...known);
	const names: string[] = [];
	for await (const name of dir.keys()) names.push(name);
	for (const name of names) {
		const id = Number(/^(\d+)\.etl$/.exec(name)?.[1] ?? NaN);
		if (!known.has(id) && !(id > newest)) await dir.removeEntry(name).catch(() => {});
	}
}

/** A copy opened for synchronous reads. */
export type CopySource = ByteSource & Required<Pick<ByteSource, 'readInto'>> & { close(): void };

/**
 * The library's copy of trace `id` opened for fast synchronous reads (in a worker; the file is
 * locked until closed). Null when it cannot be opened.
 */
export async function openTraceFileSync(
	id: number,
	mode: CopyMode = 'read-only',
	whole?: number,
): Promise<CopySource | null> {
	try {
		const entry = await (await directory()).getFileHandle(fileName(id));
		// Shared by readers where the browser knows the mode (the decoder and the sockets both
		// read it); elsewhere the first reader holds it and the other reads the dropped file.
		const handle = await syncHandle(entry, mode);
		// A copy being written: the size it will have (what it holds so far is the caller's to know).
		const size = whole ?? handle.getSize();
		const readInto = (offset: number, target: Uint8Array) =>
			handle.read(target.subarray(0, Math.max(0, Math.min(target.length, size - offset))), {
				at: offset,
			});
		return {
			size,
			readInto,
			async read(offset, length) {
				const out = new Uint8Array(Math.max(0, Math.min(length, size - offset)));
				readInto(offset, out);
				return out;
			},
			close: () => handle.close(),
		};
	} catch {
		return null;
	}
}

/** The request that copies `file` into the library as the copy of trace `id` (copy.worker.ts). */
export function copyRequest(file: File, id: number): CopyRequest {
	return { file, name: fileName(id), directory: DIR };
}
