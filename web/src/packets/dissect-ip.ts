// IPv4 and IPv6 (with its extension headers), then the transport.
import { ipv4, ipv6 } from '../net/ip.ts';
import type { DissectState } from './dissect-state.ts';
import { dissectTransport } from './dissect-transport.ts';
import { Short, type FrameReader } from './frame-reader.ts';

/** IPv6 extension headers that chain on with a Next Header and a length (in 8-byte units). */
const IPV6_EXTENSIONS: ReadonlySet<number> = new Set([0, 43, 60, 135, 139, 140]);
const IPV6_FRAGMENT = 44;
const IPV6_AH = 51;

export function dissectIpv4(r: FrameReader, s: DissectState, at: number): void {
	const vihl = r.u8(at, 'IPv4 version');
	if (vihl >> 4 !== 4) throw new Short(at, `IPv4 header has version ${vihl >> 4}`);
	const ihl = (vihl & 0xf) * 4;
	if (ihl < 20) throw new Short(at, `IPv4 header length ${ihl} is below 20`);
	r.need(at, ihl, 'IPv4 header');
	const total = r.u16(at + 2, 'IPv4 total length');
	if (total < ihl)
		throw new Short(at + 2, `IPv4 total length ${total} is below its header's ${ihl}`);
	const frag = r.u16(at + 6, 'IPv4 fragment');
	const proto = r.u8(at + 9, 'IPv4 protocol');
	s.ipVersion = 4;
	s.ipProtocol = proto;
	s.srcAddress = ipv4(r.bytes, at + 12);
	s.dstAddress = ipv4(r.bytes, at + 16);
	if (at + total > r.length) s.wireLength = at + total;
	const offset = (frag & 0x1fff) * 8;
	s.layer('IPv4', at, ihl, {
		src: s.srcAddress,
		dst: s.dstAddress,
		len: total,
		ttl: r.u8(at + 8, 'IPv4 TTL'),
		proto,
		id: r.u16(at + 4, 'IPv4 id'),
		df: (frag & 0x4000) !== 0,
		mf: (frag & 0x2000) !== 0,
		frag_offset: offset,
	});
	// A later fragment carries no transport header of its own.
	if (offset !== 0) {
		s.payloadBytes = total - ihl;
		return;
	}
	dissectTransport(r, s, proto, at + ihl, total - ihl);
}

export function dissectIpv6(r: FrameReader, s: DissectState, at: number): void {
	const v = r.u8(at, 'IPv6 version');
	if (v >> 4 !== 6) throw new Short(at, `IPv6 header has version ${v >> 4}`);
	r.need(at, 40, 'IPv6 header');
	const payload = r.u16(at + 4, 'IPv6 payload length');
	let next = r.u8(at + 6, 'IPv6 next header');
	s.ipVersion = 6;
	s.srcAddress = ipv6(r.bytes, at + 8);
	s.dstAddress = ipv6(r.bytes, at + 24);
	if (at + 40 + payload > r.length) s.wireLength = at + 40 + payload;
	s.layer('IPv6', at, 40, {
		src: s.srcAddress,
		dst: s.dstAddress,
		plen: payload,
		nxt: next,
		hlim: r.u8(at + 7, 'IPv6 hop limit'),
	});
	let pos = at + 40;
	const end = at + 40 + payload;
	for (;;) {
		if (IPV6_EXTENSIONS.has(next) || next === IPV6_AH) {
			const len =
				next === IPV6_AH
					? (r.u8(pos + 1, 'IPv6 AH length') + 2) * 4
					: (r.u8(pos + 1, 'IPv6 extension length') + 1) * 8;
			if (pos + len > end)
				throw new Short(pos, `IPv6 extension header ${next} runs past the payload`);
			s.layers.push({
				name: `IPv6 extension ${next}`,
				at: pos,
				length: len,
				fields: { nxt: r.u8(pos, 'IPv6 extension') },
			});
			next = r.u8(pos, 'IPv6 extension next header');
			pos += len;
			continue;
		}
		if (next === IPV6_FRAGMENT) {
			if (pos + 8 > end) throw new Short(pos, 'IPv6 fragment header runs past the payload');
			const off = r.u16(pos + 2, 'IPv6 fragment offset') & 0xfff8;
			s.layers.push({ name: 'IPv6 fragment', at: pos, length: 8, fields: { frag_offset: off } });
			next = r.u8(pos, 'IPv6 fragment next header');
			pos += 8;
			if (off !== 0) {
				s.ipProtocol = next;
				s.payloadBytes = end - pos;
				return;
			}
			continue;
		}
		break;
	}
	s.ipProtocol = next;
	if (next === 59) return; // No Next Header
	dissectTransport(r, s, next, pos, end - pos);
}
