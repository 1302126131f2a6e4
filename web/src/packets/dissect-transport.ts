// TCP (flags, seq/ack, MSS and window-scale options), UDP, ICMP and ICMPv6.
import { ipv6 } from '../net/ip.ts';
import { DNS_PORTS, dissectDns } from './dissect-dns.ts';
import type { DissectState } from './dissect-state.ts';
import { Short, type FrameReader } from './frame-reader.ts';
import { msg } from '../i18n/render.ts';
import { FIELD } from './field-names.ts';

/** TCP flag bits from FIN (bit 0) up, as Wireshark names them. */
export const TCP_FLAG_NAMES = ['FIN', 'SYN', 'RST', 'PSH', 'ACK', 'URG', 'ECE', 'CWR'] as const;

export function tcpFlagNames(flags: number): string {
	return TCP_FLAG_NAMES.filter((_, k) => flags & (1 << k)).join(',');
}

/** ICMPv6 types of Neighbor Discovery (router/neighbor solicitation and advertisement, redirect). */
export const NDP_TYPES: ReadonlySet<number> = new Set([133, 134, 135, 136, 137]);

/**
 * The transport at `at`; `length` is its length by the IP header (the bytes captured may be
 * fewer), `captured` where the captured bytes end.
 */
export function dissectTransport(
	r: FrameReader,
	s: DissectState,
	proto: number,
	at: number,
	length: number,
): void {
	const end = Math.min(r.length, at + length);
	switch (proto) {
		case 6: {
			const sport = r.u16(at, FIELD.tcpSourcePort);
			const dport = r.u16(at + 2, FIELD.tcpDestinationPort);
			const seq = r.u32(at + 4, FIELD.tcpSequenceNumber);
			const ack = r.u32(at + 8, FIELD.tcpAcknowledgmentNumber);
			const off = (r.u8(at + 12, FIELD.tcpDataOffset) >> 4) * 4;
			const flags = r.u8(at + 13, FIELD.tcpFlags);
			const window = r.u16(at + 14, FIELD.tcpWindow);
			if (off < 20) throw new Short(at + 12, msg('packet.bad.tcp-header-short', { length: off }));
			if (off > length)
				throw new Short(
					at + 12,
					msg('packet.bad.tcp-header-long', { length: off, segment: length }),
				);
			r.need(at, off, FIELD.tcpHeader);
			let mss: number | null = null;
			let wscale: number | null = null;
			for (let p = at + 20; p < at + off;) {
				const kind = r.u8(p, FIELD.tcpOption);
				if (kind === 0) break;
				if (kind === 1) {
					p++;
					continue;
				}
				const len = r.u8(p + 1, FIELD.tcpOptionLength);
				if (len < 2 || p + len > at + off)
					throw new Short(p, msg('packet.bad.tcp-option-length', { kind, length: len }));
				if (kind === 2 && len === 4) mss = r.u16(p + 2, FIELD.tcpMss);
				if (kind === 3 && len === 3) wscale = r.u8(p + 2, FIELD.tcpWindowScale);
				p += len;
			}
			const names = tcpFlagNames(flags);
			s.srcPort = sport;
			s.dstPort = dport;
			s.tcp = { flags, flagNames: names, seq, ack, window, mss, wscale };
			s.payloadBytes = length - off;
			s.layer('TCP', at, off, {
				srcport: sport,
				dstport: dport,
				seq,
				ack,
				flags: names,
				window,
				mss,
				wscale,
			});
			if (
				s.payloadBytes >= 14 &&
				(DNS_PORTS.has(sport) || DNS_PORTS.has(dport)) &&
				at + off + 2 <= end
			) {
				const n = r.u16(at + off, FIELD.dnsOverTcpLength);
				if (at + off + 2 + n <= end) dissectDns(r, s, at + off + 2, at + off + 2 + n);
			}
			return;
		}
		case 17: {
			const sport = r.u16(at, FIELD.udpSourcePort);
			const dport = r.u16(at + 2, FIELD.udpDestinationPort);
			const ulen = r.u16(at + 4, FIELD.udpLength);
			if (ulen < 8) throw new Short(at + 4, msg('packet.bad.udp-length-short', { length: ulen }));
			if (ulen > length)
				throw new Short(
					at + 4,
					msg('packet.bad.udp-length-long', { length: ulen, payload: length }),
				);
			s.srcPort = sport;
			s.dstPort = dport;
			s.payloadBytes = ulen - 8;
			s.layer('UDP', at, 8, { srcport: sport, dstport: dport, length: ulen });
			if ((DNS_PORTS.has(sport) || DNS_PORTS.has(dport)) && at + ulen <= r.length)
				dissectDns(r, s, at + 8, at + ulen);
			return;
		}
		case 1:
		case 58: {
			const type = r.u8(at, FIELD.icmpType);
			const code = r.u8(at + 1, FIELD.icmpCode);
			s.icmp = { type, code };
			s.payloadBytes = Math.max(0, length - 4);
			const name = proto === 1 ? 'ICMP' : 'ICMPv6';
			const fields: Record<string, number | string | null> = { type, code };
			if (proto === 58 && (type === 135 || type === 136))
				fields.target = r.length >= at + 24 ? ipv6Target(r, at + 8) : null;
			s.layer(name, at, Math.min(length, 8), fields);
			return;
		}
		default:
			s.payloadBytes = length;
	}
}

function ipv6Target(r: FrameReader, at: number): string {
	r.need(at, 16, FIELD.icmpv6Target);
	return ipv6(r.bytes, at);
}
