// IPv4 and IPv6 (with its extension headers), then the transport.
import { ipv4, ipv6 } from '../net/ip.ts';
import type { DissectState } from './dissect-state.ts';
import { dissectTransport } from './dissect-transport.ts';
import { Short, type FrameReader } from './frame-reader.ts';
import { msg } from '../i18n/render.ts';
import { FIELD } from './field-names.ts';

/** IPv6 extension headers that chain on with a Next Header and a length (in 8-byte units). */
const IPV6_EXTENSIONS: ReadonlySet<number> = new Set([0, 43, 60, 135, 139, 140]);
const IPV6_FRAGMENT = 44;
const IPV6_AH = 51;

export function dissectIpv4(r: FrameReader, s: DissectState, at: number): void {
	const vihl = r.u8(at, FIELD.ipv4Version);
	if (vihl >> 4 !== 4) throw new Short(at, msg('packet.bad.ipv4-version', { version: vihl >> 4 }));
	const ihl = (vihl & 0xf) * 4;
	if (ihl < 20) throw new Short(at, msg('packet.bad.ipv4-header-short', { length: ihl }));
	r.need(at, ihl, FIELD.ipv4Header);
	const total = r.u16(at + 2, FIELD.ipv4TotalLength);
	if (total < ihl)
		throw new Short(at + 2, msg('packet.bad.ipv4-total-short', { total, header: ihl }));
	const frag = r.u16(at + 6, FIELD.ipv4Fragment);
	const proto = r.u8(at + 9, FIELD.ipv4Protocol);
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
		ttl: r.u8(at + 8, FIELD.ipv4Ttl),
		proto,
		id: r.u16(at + 4, FIELD.ipv4Id),
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
	const v = r.u8(at, FIELD.ipv6Version);
	if (v >> 4 !== 6) throw new Short(at, msg('packet.bad.ipv6-version', { version: v >> 4 }));
	r.need(at, 40, FIELD.ipv6Header);
	const payload = r.u16(at + 4, FIELD.ipv6PayloadLength);
	let next = r.u8(at + 6, FIELD.ipv6NextHeader);
	s.ipVersion = 6;
	s.srcAddress = ipv6(r.bytes, at + 8);
	s.dstAddress = ipv6(r.bytes, at + 24);
	if (at + 40 + payload > r.length) s.wireLength = at + 40 + payload;
	s.layer('IPv6', at, 40, {
		src: s.srcAddress,
		dst: s.dstAddress,
		plen: payload,
		nxt: next,
		hlim: r.u8(at + 7, FIELD.ipv6HopLimit),
	});
	let pos = at + 40;
	const end = at + 40 + payload;
	for (;;) {
		if (IPV6_EXTENSIONS.has(next) || next === IPV6_AH) {
			const len =
				next === IPV6_AH
					? (r.u8(pos + 1, FIELD.ipv6AhLength) + 2) * 4
					: (r.u8(pos + 1, FIELD.ipv6ExtensionLength) + 1) * 8;
			if (pos + len > end) throw new Short(pos, msg('packet.bad.ipv6-extension-past', { next }));
			s.layers.push({
				name: `IPv6 extension ${next}`,
				at: pos,
				length: len,
				fields: { nxt: r.u8(pos, FIELD.ipv6Extension) },
			});
			next = r.u8(pos, FIELD.ipv6ExtensionNextHeader);
			pos += len;
			continue;
		}
		if (next === IPV6_FRAGMENT) {
			if (pos + 8 > end) throw new Short(pos, msg('packet.bad.ipv6-fragment-past'));
			const off = r.u16(pos + 2, FIELD.ipv6FragmentOffset) & 0xfff8;
			s.layers.push({ name: 'IPv6 fragment', at: pos, length: 8, fields: { frag_offset: off } });
			next = r.u8(pos, FIELD.ipv6FragmentNextHeader);
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
