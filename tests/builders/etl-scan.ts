// A minimal, independent ETL scanner for the builder tests. It reads the offsets straight from
// docs/etl-format.md (hard-coded here on purpose, so it does not share the writer's use of the
// generated layouts) and returns buffers and raw records. Not a decoder: no payload schemas.

import { decompressXpress } from './xpress.ts';

export interface ScannedRecord {
	bufferIndex: number;
	offset: number;
	headerType: number;
	/** 'event' | 'system' | ... by header type; 'wpp' for MESSAGE records. */
	kind: string;
	size: number;
	raw: bigint;
	pid: number | null;
	tid: number | null;
	bytes: Uint8Array;
	/** Bytes between Size and the next 8-byte boundary. */
	padding: Uint8Array;
}

export interface ScannedBuffer {
	index: number;
	fileOffset: number;
	bufferSize: number;
	savedOffset: number;
	offset: number;
	timeStamp: bigint;
	sequence: bigint;
	clientContext: number;
	cpu: number;
	state: number;
	flags: number;
	type: number;
	/** The buffer with its data decompressed (header + records up to Offset). */
	image: Uint8Array;
	/** For uncompressed buffers, bytes [Offset, BufferSize). */
	tail: Uint8Array;
	records: ScannedRecord[];
}

const KIND: Record<number, string> = {
	1: 'system',
	2: 'system',
	3: 'compact',
	4: 'compact',
	0x0a: 'classic',
	0x14: 'classic',
	0x0b: 'instance',
	0x15: 'instance',
	0x10: 'perfinfo',
	0x11: 'perfinfo',
	0x12: 'event',
	0x13: 'event',
};

export function scanEtl(file: Uint8Array): ScannedBuffer[] {
	const dv = new DataView(file.buffer, file.byteOffset, file.byteLength);
	const out: ScannedBuffer[] = [];
	let pos = 0;
	while (pos < file.length) {
		if (pos + 0x48 > file.length) throw new Error(`truncated buffer header at ${pos}`);
		const bufferSize = dv.getUint32(pos, true);
		const offset = dv.getUint32(pos + 0x30, true);
		const flags = dv.getUint16(pos + 0x34, true);
		if (bufferSize < 0x48 || pos + bufferSize > file.length) {
			throw new Error(`bad BufferSize ${bufferSize} at ${pos}`);
		}
		let image: Uint8Array;
		let tail: Uint8Array;
		if (flags & 0x40) {
			const data = decompressXpress(file.subarray(pos + 0x48, pos + bufferSize), offset - 0x48, {
				strict: true,
			});
			image = new Uint8Array(offset);
			image.set(file.subarray(pos, pos + 0x48));
			image.set(data, 0x48);
			tail = new Uint8Array(0);
		} else {
			image = file.subarray(pos, pos + offset);
			tail = file.subarray(pos + offset, pos + bufferSize);
		}
		const cc = dv.getUint16(pos + 0x28, true);
		const buf: ScannedBuffer = {
			index: out.length,
			fileOffset: pos,
			bufferSize,
			savedOffset: dv.getUint32(pos + 4, true),
			offset,
			timeStamp: dv.getBigInt64(pos + 0x10, true),
			sequence: dv.getBigInt64(pos + 0x18, true),
			clientContext: cc,
			cpu: flags & 0x20 ? cc & 0x7ff : cc & 0xff,
			state: dv.getUint32(pos + 0x2c, true),
			flags,
			type: dv.getUint16(pos + 0x36, true),
			image,
			tail,
			records: [],
		};
		const iv = new DataView(image.buffer, image.byteOffset, image.byteLength);
		let p = 0x48;
		while (p < offset) {
			const m = iv.getUint32(p, true);
			if (m === 0xffffffff) break;
			const flagsByte = m >>> 24;
			const ht = (m >>> 16) & 0xff;
			let size: number;
			let kind: string;
			let raw: bigint;
			let pid: number | null = null;
			let tid: number | null = null;
			if (flagsByte === 0x90 && ht === 0) {
				kind = 'wpp';
				size = m & 0xffff;
				const opt = iv.getUint16(p + 6, true);
				let q = p + 8;
				if (opt & 0x01) q += 4;
				if (opt & 0x02) q += 16;
				raw = iv.getBigInt64(q, true);
				q += 8;
				if (opt & 0x20) {
					tid = iv.getUint32(q, true);
					pid = iv.getUint32(q + 4, true);
				}
			} else {
				if ((flagsByte & 0xc0) !== 0xc0 || !(ht in KIND)) {
					throw new Error(`bad record marker 0x${m.toString(16)} at ${p} in buffer ${out.length}`);
				}
				kind = KIND[ht]!;
				const sysLike = ht <= 4 || ht === 0x10 || ht === 0x11;
				size = sysLike ? iv.getUint16(p + 4, true) : m & 0xffff;
				if (ht === 0x10 || ht === 0x11) raw = iv.getBigInt64(p + 8, true);
				else {
					tid = iv.getUint32(p + 8, true);
					pid = iv.getUint32(p + 12, true);
					raw = iv.getBigInt64(p + 16, true);
				}
			}
			if (size < 8 || p + size > offset) throw new Error(`bad record size ${size} at ${p}`);
			const next = p + ((size + 7) & ~7);
			buf.records.push({
				bufferIndex: out.length,
				offset: p,
				headerType: ht,
				kind,
				size,
				raw,
				pid,
				tid,
				bytes: image.subarray(p, p + size),
				padding: image.subarray(p + size, Math.min(next, offset)),
			});
			p = next;
		}
		out.push(buf);
		pos += bufferSize;
	}
	return out;
}
