// Copies a dropped trace file into the origin private file system with synchronous writes: it runs
// beside the decoder worker, on a core of its own. The file is read as a stream into one reused
// buffer: reading it in large slices allocated a fresh block each time, and a worker that makes
// no other garbage does not collect them soon enough (hundreds of MB held for a 1 GB file).
import { serveJob } from '../lib/job.ts';
import { syncHandle } from './sync-handle.ts';

export interface CopyRequest {
	readonly file: File;
	/** The copy's name in `directory` of the origin private file system. */
	readonly name: string;
	readonly directory: string;
}

const BLOCK = 4 << 20;

/** Calls `write` with consecutive pieces of the file; pieces are only valid during the call. */
async function readPieces(file: File, write: (piece: Uint8Array, at: number) => void) {
	let at = 0;
	let byob: ReadableStreamBYOBReader | null = null;
	const stream = file.stream();
	try {
		byob = stream.getReader({ mode: 'byob' });
	} catch {
		// Not a byte stream in this browser: plain chunks, each its own allocation.
	}
	if (byob) {
		let buffer = new ArrayBuffer(BLOCK);
		for (;;) {
			const { done, value } = await byob.read(new Uint8Array(buffer, 0, BLOCK));
			if (done || !value) break;
			write(value, at);
			at += value.length;
			buffer = value.buffer as ArrayBuffer;
		}
		return;
	}
	const reader = stream.getReader();
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		write(value, at);
		at += value.length;
	}
}

serveJob<CopyRequest, null>(async ({ file, name, directory }, progress) => {
	const root = await navigator.storage.getDirectory();
	const dir = await root.getDirectoryHandle(directory, { create: true });
	const target = await dir.getFileHandle(name, { create: true });
	// Shared: the import reads what is written so far while the rest is copied.
	const handle = await syncHandle(target, 'readwrite-unsafe');
	try {
		handle.truncate(0);
		let reported = 0;
		await readPieces(file, (piece, at) => {
			let done = 0;
			while (done < piece.length) {
				const n = handle.write(piece.subarray(done), { at: at + done });
				if (n <= 0)
					throw new Error(`nothing could be written at offset 0x${(at + done).toString(16)}`);
				done += n;
			}
			if (at + piece.length - reported >= BLOCK) progress((reported = at + piece.length));
		});
		handle.flush();
	} finally {
		handle.close();
	}
	progress(file.size);
	return null;
});
