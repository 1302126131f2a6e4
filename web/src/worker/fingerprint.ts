// A trace's identity for links and resume: SHA-256 over its size, its header buffer, every
// buffer header and its last 64 KiB. Reading the whole of a multi-gigabyte file just to name it
// would cost as much as importing it; these parts already differ between any two traces.
import type { BufferIndex } from '../decoder/etl-file.ts';
import type { ByteSource } from '../decoder/source.ts';

const TAIL = 64 << 10;
const HEADER = 0x48;

export async function fingerprint(source: ByteSource, index: BufferIndex): Promise<string> {
	const parts: Uint8Array[] = [];
	const size = new Uint8Array(8);
	new DataView(size.buffer).setFloat64(0, source.size, true);
	parts.push(size);
	const first = index.buffers[0];
	if (first) parts.push(await source.read(0, first.available));
	for (const b of index.buffers)
		parts.push(await source.read(b.offset, Math.min(HEADER, b.available)));
	parts.push(await source.read(Math.max(0, source.size - TAIL), TAIL));
	const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const p of parts) {
		all.set(p, at);
		at += p.length;
	}
	const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', all));
	return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
