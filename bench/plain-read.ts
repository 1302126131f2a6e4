// The platform's own limit for the command line: a plain read of the file, in 64 KiB pieces
// into one buffer (what the benchmarks set their figures beside).
import { closeSync, openSync, readSync } from 'node:fs';

export const READ_CHUNK = 64 * 1024;

/** Reads the whole file once; returns its size in bytes. */
export function readAll(path: string): number {
	const chunk = new Uint8Array(READ_CHUNK);
	const fd = openSync(path, 'r');
	let total = 0;
	try {
		for (;;) {
			const n = readSync(fd, chunk, 0, READ_CHUNK, total);
			if (n === 0) break;
			total += n;
		}
	} finally {
		closeSync(fd);
	}
	return total;
}
