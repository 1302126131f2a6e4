// Every frame dissected once, in the decoding path: Ethernet and 802.1Q, ARP, IPv4, IPv6, TCP,
// UDP, ICMP, ICMPv6 and DNS. A frame that contradicts itself or ends early is reported as
// malformed with the offset where it went wrong; dissect() never throws.
import type { LinkName } from '../generated/packet-capture.ts';
import { ipv4 } from '../net/ip.ts';
import { dissectIpv4, dissectIpv6 } from './dissect-ip.ts';
import { DissectState } from './dissect-state.ts';
import { FrameReader, macText, Short } from './frame-reader.ts';
import type { Dissection } from './types.ts';
import { msg } from '../i18n/render.ts';
import { FIELD } from './field-names.ts';

export const ETHERTYPE = {
	ipv4: 0x0800,
	arp: 0x0806,
	vlan: 0x8100,
	qinq: 0x88a8,
	ipv6: 0x86dd,
} as const;

function ethernet(r: FrameReader, s: DissectState): void {
	r.need(0, 14, FIELD.ethernetHeader);
	s.linkBroadcast = (r.bytes[0]! & 1) === 1;
	let type = r.u16(12, FIELD.ethertype);
	s.layer('Ethernet', 0, 14, { dst: macText(r.bytes, 0), src: macText(r.bytes, 6), type });
	let at = 14;
	while (type === ETHERTYPE.vlan || type === ETHERTYPE.qinq) {
		const tci = r.u16(at, FIELD.vlanTag);
		s.vlan = tci & 0xfff;
		type = r.u16(at + 2, FIELD.vlanEtherType);
		s.layer('802.1Q', at, 4, { id: tci & 0xfff, priority: tci >> 13, type });
		at += 4;
	}
	network(r, s, type, at);
}

function network(r: FrameReader, s: DissectState, type: number, at: number): void {
	if (type === ETHERTYPE.ipv4) dissectIpv4(r, s, at);
	else if (type === ETHERTYPE.ipv6) dissectIpv6(r, s, at);
	else if (type === ETHERTYPE.arp) arp(r, s, at);
}

function arp(r: FrameReader, s: DissectState, at: number): void {
	r.need(at, 8, FIELD.arpHeader);
	const hlen = r.u8(at + 4, FIELD.arpHardwareLength);
	const plen = r.u8(at + 5, FIELD.arpProtocolLength);
	const op = r.u16(at + 6, FIELD.arpOpcode);
	r.need(at, 8 + 2 * (hlen + plen), FIELD.arpAddresses);
	const fields: Record<string, string | number> = { opcode: op };
	if (hlen === 6 && plen === 4) {
		fields.src_hw = macText(r.bytes, at + 8);
		fields.src_proto_ipv4 = ipv4(r.bytes, at + 14);
		fields.dst_proto_ipv4 = ipv4(r.bytes, at + 24);
		s.srcAddress = fields.src_proto_ipv4;
		s.dstAddress = fields.dst_proto_ipv4;
	}
	s.layer('ARP', at, 8 + 2 * (hlen + plen), fields);
}

export function dissect(bytes: Uint8Array, link: LinkName): Dissection {
	const r = new FrameReader(bytes);
	const s = new DissectState();
	let malformed: Dissection['malformed'] = null;
	try {
		if (link === 'ethernet') ethernet(r, s);
		else if (link === 'raw') {
			const v = r.u8(0, FIELD.ipVersion) >> 4;
			if (v === 4) dissectIpv4(r, s, 0);
			else if (v === 6) dissectIpv6(r, s, 0);
			else throw new Short(0, msg('packet.bad.raw-ip-version', { version: v }));
		} else s.layer('802.11', 0, 0, {});
	} catch (e) {
		if (!(e instanceof Short)) throw e;
		// A read past the captured bytes went wrong where they end.
		malformed = { at: Math.min(e.at, bytes.length), what: e.what };
	}
	return {
		layers: s.layers,
		protocol: s.protocol,
		ipVersion: s.ipVersion,
		ipProtocol: s.ipProtocol,
		srcAddress: s.srcAddress,
		dstAddress: s.dstAddress,
		srcPort: s.srcPort,
		dstPort: s.dstPort,
		vlan: s.vlan,
		linkBroadcast: s.linkBroadcast,
		tcp: s.tcp,
		icmp: s.icmp,
		payloadBytes: s.payloadBytes,
		dns: s.dns,
		wireLength: s.wireLength,
		malformed,
	};
}
