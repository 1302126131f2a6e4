import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { ByteSource } from '../decoder/source.ts';

/**
 * A file on disk (a path, or an open descriptor such as a redirected stdin) read with positioned
 * reads; nothing is loaded whole.
 */
export function nodeFileSource(file: string | number): ByteSource & { close(): void } {
	const fd = typeof file === 'number' ? file : openSync(file, 'r');
	const size = fstatSync(fd).size;
	return {
		size,
		async read(offset, length) {
			const n = Math.max(0, Math.min(length, size - offset));
			const out = new Uint8Array(n);
			let done = 0;
			while (done < n) {
				const got = readSync(fd, out, done, n - done, offset + done);
				if (got === 0) break;
				done += got;
			}
			return done === n ? out : out.subarray(0, done);
		},
		readInto(offset, target) {
			const n = Math.max(0, Math.min(target.length, size - offset));
			let done = 0;
			while (done < n) {
				const got = readSync(fd, target, done, n - done, offset + done);
				if (got === 0) break;
				done += got;
			}
			return done;
		},
		close() {
			if (typeof file !== 'number') closeSync(fd);
		},
	};
}
