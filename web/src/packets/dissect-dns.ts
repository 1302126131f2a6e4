// DNS messages (RFC 1035): the header, questions and answers, names with compression pointers.
import { ipv4, ipv6 } from '../net/ip.ts';
import type { DissectState } from './dissect-state.ts';
import { Short, type FrameReader } from './frame-reader.ts';
import type { DnsRecord } from './types.ts';

/** Ports whose UDP or TCP payload is read as DNS: DNS, mDNS, LLMNR. */
export const DNS_PORTS: ReadonlySet<number> = new Set([53, 5353, 5355]);

/** Pointers followed in one name at most (a loop would otherwise never end). */
const MAX_JUMPS = 64;

/** The name at `at` (within the message starting at `base`) and where the field ends. */
function name(
	r: FrameReader,
	base: number,
	at: number,
	end: number,
): { text: string; next: number } {
	const labels: string[] = [];
	let pos = at;
	let next = -1;
	let jumps = 0;
	for (;;) {
		if (pos >= end) throw new Short(pos, 'DNS name runs past the message');
		const len = r.u8(pos, 'DNS label length');
		if (len === 0) {
			if (next < 0) next = pos + 1;
			break;
		}
		if ((len & 0xc0) === 0xc0) {
			const target = base + (((len & 0x3f) << 8) | r.u8(pos + 1, 'DNS pointer'));
			if (next < 0) next = pos + 2;
			if (++jumps > MAX_JUMPS || target >= end)
				throw new Short(pos, 'DNS name pointer loops or points past the message');
			pos = target;
			continue;
		}
		if (len & 0xc0) throw new Short(pos, `DNS label type 0x${(len & 0xc0).toString(16)} unknown`);
		r.need(pos + 1, len, 'DNS label');
		if (pos + 1 + len > end) throw new Short(pos, 'DNS label runs past the message');
		labels.push(String.fromCharCode(...r.bytes.subarray(pos + 1, pos + 1 + len)));
		pos += 1 + len;
	}
	return { text: labels.join('.') || '.', next };
}

/** Dissects the DNS message at [at, end) of the frame. */
export function dissectDns(r: FrameReader, s: DissectState, at: number, end: number): void {
	r.need(at, 12, 'DNS header');
	const id = r.u16(at, 'DNS id');
	const flags = r.u16(at + 2, 'DNS flags');
	const qd = r.u16(at + 4, 'DNS question count');
	const an = r.u16(at + 6, 'DNS answer count');
	const questions: { name: string; type: number }[] = [];
	const answers: DnsRecord[] = [];
	let pos = at + 12;
	for (let k = 0; k < qd; k++) {
		const n = name(r, at, pos, end);
		questions.push({ name: n.text, type: r.u16(n.next, 'DNS question type') });
		pos = n.next + 4;
	}
	for (let k = 0; k < an; k++) {
		const n = name(r, at, pos, end);
		const type = r.u16(n.next, 'DNS answer type');
		const ttl = r.u32(n.next + 4, 'DNS answer TTL');
		const rdlength = r.u16(n.next + 8, 'DNS answer length');
		const rd = n.next + 10;
		r.need(rd, rdlength, 'DNS answer data');
		if (rd + rdlength > end) throw new Short(rd, 'DNS answer data runs past the message');
		let data: string | null = null;
		if (type === 1 && rdlength === 4) data = ipv4(r.bytes, rd);
		else if (type === 28 && rdlength === 16) data = ipv6(r.bytes, rd);
		else if (type === 5 || type === 12 || type === 2) data = name(r, at, rd, end).text;
		answers.push({ name: n.text, type, data, ttl });
		pos = rd + rdlength;
	}
	s.dns = { id, response: (flags & 0x8000) !== 0, rcode: flags & 0xf, questions, answers };
	s.layer('DNS', at, end - at, {
		id,
		response: (flags & 0x8000) !== 0,
		rcode: flags & 0xf,
		question: questions[0]?.name ?? null,
		answers: answers.map((a) => a.data ?? a.name).join(' ') || null,
	});
}
