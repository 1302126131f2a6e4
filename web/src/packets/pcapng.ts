// pcapng (draft-ietf-opsawg-pcapng) as blocks of bytes: a Section Header, one Interface
// Description per capture interface (if_name, if_description, if_MACaddr, if_tsresol = 7: the
// trace's 100 ns kept), one Enhanced Packet per frame (epb_flags with the direction, epb_packetid,
// epb_verdict for a drop, opt_comment naming the owner). Little-endian throughout.
import { LINK_TYPES } from '../generated/packet-capture.ts';
import type { CaptureInterface, Frame } from './types.ts';

/** FILETIME of 1970-01-01 (pcapng timestamps count from the Unix epoch). */
const UNIX_EPOCH_FILETIME = 116444736000000000n;
const SNAPLEN = 262144;

const BLOCK = { section: 0x0a0d0d0a, interface: 1, enhanced: 6 } as const;
const OPT = {
	end: 0,
	comment: 1,
	ifName: 2,
	ifDescription: 3,
	ifMac: 6,
	ifTsresol: 9,
	shbUserAppl: 4,
	epbFlags: 2,
	epbPacketId: 5,
	epbVerdict: 7,
} as const;

const utf8 = new TextEncoder();

class Block {
	readonly #parts: number[] = [];
	readonly #bytes: Uint8Array[] = [];
	#length = 0;

	#flush(): void {
		if (this.#parts.length) {
			this.#bytes.push(Uint8Array.from(this.#parts));
			this.#length += this.#parts.length;
			this.#parts.length = 0;
		}
	}
	u16(v: number): this {
		this.#parts.push(v & 0xff, (v >> 8) & 0xff);
		return this;
	}
	u32(v: number): this {
		this.#parts.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
		return this;
	}
	u64(v: bigint): this {
		return this.u32(Number(v & 0xffffffffn)).u32(Number((v >> 32n) & 0xffffffffn));
	}
	bytes(b: Uint8Array): this {
		this.#flush();
		this.#bytes.push(b);
		this.#length += b.length;
		return this.pad(b.length);
	}
	pad(n: number): this {
		for (let k = n; k % 4 !== 0; k++) this.#parts.push(0);
		return this;
	}
	option(code: number, value: Uint8Array): this {
		return this.u16(code).u16(value.length).bytes(value);
	}
	text(code: number, s: string): this {
		return s ? this.option(code, utf8.encode(s)) : this;
	}
	/** The block with its type and both length fields. */
	finish(type: number): Uint8Array {
		this.#flush();
		const total = this.#length + 12;
		const out = new Uint8Array(total);
		const v = new DataView(out.buffer);
		v.setUint32(0, type, true);
		v.setUint32(4, total, true);
		let at = 8;
		for (const b of this.#bytes) {
			out.set(b, at);
			at += b.length;
		}
		v.setUint32(total - 4, total, true);
		return out;
	}
}

function le32(v: number): Uint8Array {
	const b = new Uint8Array(4);
	new DataView(b.buffer).setUint32(0, v, true);
	return b;
}

function le64(v: bigint): Uint8Array {
	const b = new Uint8Array(8);
	new DataView(b.buffer).setBigUint64(0, v, true);
	return b;
}

export function sectionHeader(application: string): Uint8Array {
	return new Block()
		.u32(0x1a2b3c4d)
		.u16(1)
		.u16(0)
		.u64(0xffffffffffffffffn)
		.text(OPT.shbUserAppl, application)
		.u32(OPT.end)
		.finish(BLOCK.section);
}

export function interfaceBlock(f: CaptureInterface): Uint8Array {
	const b = new Block().u16(LINK_TYPES[f.link]).u16(0).u32(SNAPLEN);
	b.text(OPT.ifName, f.name).text(OPT.ifDescription, f.description);
	if (f.mac) b.option(OPT.ifMac, Uint8Array.from(f.mac.split(':').map((x) => parseInt(x, 16))));
	b.option(OPT.ifTsresol, Uint8Array.of(7));
	return b.u32(OPT.end).finish(BLOCK.interface);
}

/** One frame on interface `ifIndex` (its position among the IDBs), with its comment. */
export function packetBlock(f: Frame, ifIndex: number, comment: string): Uint8Array {
	const ts = f.filetime - UNIX_EPOCH_FILETIME;
	const wire = Math.max(f.bytes.length, f.originalLength ?? f.dissection.wireLength ?? 0);
	const b = new Block()
		.u32(ifIndex)
		.u32(Number((ts >> 32n) & 0xffffffffn))
		.u32(Number(ts & 0xffffffffn))
		.u32(f.bytes.length)
		.u32(wire)
		.bytes(f.bytes);
	b.text(OPT.comment, comment);
	if (f.direction) b.option(OPT.epbFlags, le32(f.direction === 'in' ? 1 : 2));
	if (f.pktGroupId !== null) b.option(OPT.epbPacketId, le64(f.pktGroupId));
	// As etl2pcapng marks a PktMon drop: verdict type 2 (eBPF XDP), XDP_DROP.
	if (f.dropReason !== null) b.option(OPT.epbVerdict, Uint8Array.of(2, 1, 0, 0, 0, 0, 0, 0, 0));
	return b.u32(OPT.end).finish(BLOCK.enhanced);
}
