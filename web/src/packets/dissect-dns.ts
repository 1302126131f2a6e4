// DNS messages (RFC 1035): the header, questions and answers, names with compression pointers.
import { ipv4, ipv6 } from '../net/ip.ts';
import type { DissectState } from './dissect-state.ts';
import { Short, type FrameReader } from './frame-reader.ts';
import type { DnsRecord } from './types.ts';
import { msg } from '../i18n/render.ts';
import { FIELD } from './field-names.ts';

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
		if (pos >= end) throw new Short(pos, msg('packet.bad.dns-name-past'));
		const len = r.u8(pos, FIELD.dnsLabelLength);
		if (len === 0) {
			if (next < 0) next = pos + 1;
			break;
		}
		if ((len & 0xc0) === 0xc0) {
			const target = base + (((len & 0x3f) << 8) | r.u8(pos + 1, FIELD.dnsPointer));
			if (next < 0) next = pos + 2;
			if (++jumps > MAX_JUMPS || target >= end)
				throw new Short(pos, msg('packet.bad.dns-pointer-loop'));
			pos = target;
			continue;
		}
		if (len & 0xc0)
			throw new Short(
				pos,
				msg('packet.bad.dns-label-type', { type: `0x${(len & 0xc0).toString(16)}` }),
			);
		r.need(pos + 1, len, FIELD.dnsLabel);
		if (pos + 1 + len > end) throw new Short(pos, msg('packet.bad.dns-label-past'));
		labels.push(String.fromCharCode(...r.bytes.subarray(pos + 1, pos + 1 + len)));
		pos += 1 + len;
	}
	return { text: labels.join('.') || '.', next };
}

/** Dissects the DNS message at [at, end) of the frame. */
export function dissectDns(r: FrameReader, s: DissectState, at: number, end: number): void {
	r.need(at, 12, FIELD.dnsHeader);
	const id = r.u16(at, FIELD.dnsId);
	const flags = r.u16(at + 2, FIELD.dnsFlags);
	const qd = r.u16(at + 4, FIELD.dnsQuestionCount);
	const an = r.u16(at + 6, FIELD.dnsAnswerCount);
	const questions: { name: string; type: number }[] = [];
	const answers: DnsRecord[] = [];
	let pos = at + 12;
	for (let k = 0; k < qd; k++) {
		const n = name(r, at, pos, end);
		questions.push({ name: n.text, type: r.u16(n.next, FIELD.dnsQuestionType) });
		pos = n.next + 4;
	}
	for (let k = 0; k < an; k++) {
		const n = name(r, at, pos, end);
		const type = r.u16(n.next, FIELD.dnsAnswerType);
		const ttl = r.u32(n.next + 4, FIELD.dnsAnswerTtl);
		const rdlength = r.u16(n.next + 8, FIELD.dnsAnswerLength);
		const rd = n.next + 10;
		r.need(rd, rdlength, FIELD.dnsAnswerData);
		if (rd + rdlength > end) throw new Short(rd, msg('packet.bad.dns-answer-past'));
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
