// A trace's identity for links and resume: SHA-256 over its size, its first MiB (the header
// buffer, whose logfile header names the session, its start, end and buffer count, then the
// first data buffers) and its last 64 KiB. Known before the import reads the rest of the file;
// reading the whole of a multi-gigabyte file just to name it would cost as much as importing it.
import type { ByteSource } from '../decoder/source.ts';

const HEAD = 1 << 20;
const TAIL = 64 << 10;

/** `tail`: where to read the end from (a cache of the start would read a whole block there). */
export async function fingerprint(source: ByteSource, tail: ByteSource = source): Promise<string> {
	const size = new DataView(new ArrayBuffer(8));
	size.setFloat64(0, source.size, true);
	const parts = [
		new Uint8Array(size.buffer),
		...(await Promise.all([
			source.read(0, Math.min(HEAD, source.size)),
			tail.read(Math.max(0, source.size - TAIL), Math.min(TAIL, source.size)),
		])),
	];
	const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const p of parts) {
		all.set(p, at);
		at += p.length;
	}
	const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', all));
	return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
