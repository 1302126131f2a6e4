// The library's copies of trace files, in the origin private file system beside the database.
// Details and exports read records back from them after a reload, when the dropped file is gone;
// the copy is written by its own worker (copy.worker.ts) while the import decodes the original.
import type { CopyMessage, CopyRequest } from '../worker/copy-protocol.ts';

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

/** Removes copies whose trace is no longer in the library. */
export async function removeOrphans(known: ReadonlySet<number>): Promise<void> {
	const dir = await directory();
	const names: string[] = [];
	for await (const name of dir.keys()) names.push(name);
	for (const name of names) {
		const id = Number(/^(\d+)\.etl$/.exec(name)?.[1] ?? NaN);
		if (!known.has(id)) await dir.removeEntry(name).catch(() => {});
	}
}

export interface FileCopy {
	/** Resolves when the copy is whole and flushed to disk. */
	readonly done: Promise<void>;
	/** Bytes written so far. */
	readonly written: () => number;
	/** Stops the copy (what was written stays, and is rewritten by a resumed import). */
	cancel(): void;
}

export class CopyFailed extends Error {
	readonly quota: boolean;
	constructor(message: string, quota: boolean) {
		super(message);
		this.quota = quota;
	}
}

/** Copies `file` into the library as the copy of trace `id`, in a worker of its own. */
export function copyTraceFile(file: File, id: number): FileCopy {
	const worker = new Worker(new URL('../worker/copy.worker.ts', import.meta.url), {
		type: 'module',
		name: 'trace-copy',
	});
	let written = 0;
	let settle: ((error: Error | null) => void) | null = null;
	const done = new Promise<void>((resolve, reject) => {
		settle = (error) => {
			settle = null;
			worker.terminate();
			if (error) reject(error);
			else resolve();
		};
	});
	worker.onmessage = (e: MessageEvent<CopyMessage>) => {
		const m = e.data;
		if (m.kind === 'progress') written = m.written;
		else if (m.kind === 'done') settle?.(null);
		else
			settle?.(new CopyFailed(`copying the file into the library failed: ${m.message}`, m.quota));
	};
	worker.onerror = (e) => settle?.(new CopyFailed(`the copy worker stopped: ${e.message}`, false));
	const request: CopyRequest = { file, name: fileName(id), directory: DIR };
	worker.postMessage(request);
	return {
		done,
		written: () => written,
		cancel: () => settle?.(new CopyFailed('copy cancelled', false)),
	};
}
