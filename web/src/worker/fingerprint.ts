// A trace's identity for links and resume: SHA-256 over its size, its header buffer, the layout
// of every buffer (offset, size, CPU, sequence, flags, as the index read them) and its last
// 64 KiB. Reading the whole of a multi-gigabyte file just to name it would cost as much as
// importing it; these parts already differ between any two traces.
import type { BufferIndex } from '../decoder/etl-file.ts';
import type { ByteSource } from '../decoder/source.ts';

const TAIL = 64 << 10;

export async function fingerprint(source: ByteSource, index: BufferIndex): Promise<string> {
	const layout = new DataView(new ArrayBuffer(8 + index.buffers.length * 24));
	layout.setFloat64(0, source.size, true);
	index.buffers.forEach((b, i) => {
		const at = 8 + i * 24;
		layout.setFloat64(at, b.offset, true);
		layout.setUint32(at + 8, b.size, true);
		layout.setUint16(at + 12, b.cpu, true);
		layout.setUint16(at + 14, b.flags, true);
		layout.setBigInt64(at + 16, b.sequence, true);
	});
	const first = index.buffers[0];
	const parts = [
		new Uint8Array(layout.buffer),
		first ? await source.read(0, first.available) : new Uint8Array(0),
		await source.read(Math.max(0, source.size - TAIL), TAIL),
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
