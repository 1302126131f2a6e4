// The dissectors on hand-built frames: each layer's facts come back, and a frame that lies about
// its lengths or ends early is reported as malformed at the offset where it goes wrong.
import { describe, expect, it } from 'vitest';
import { dissect } from '../../web/src/packets/dissect.ts';
import { english, render } from '../../web/src/i18n/render.ts';
import {
	arpRequest,
	BROADCAST,
	dns,
	ethernet,
	ipv4,
	ipv6,
	neighborSolicitation,
	TCP,
	tcp,
	udp,
} from '../builders/frames.ts';

describe('dissect', () => {
	it('reads a TCP SYN with MSS and window scale behind an 802.1Q tag', () => {
		const seg = tcp(50123, 443, TCP.SYN, { seq: 123456789, mss: 1460, wscale: 8 });
		const d = dissect(
			ethernet(0x0800, ipv4('10.0.0.2', '10.0.0.5', 6, seg), { vlan: 42 }),
			'ethernet',
		);
		expect(d.malformed).toBeNull();
		expect(d.layers.map((l) => l.name)).toEqual(['Ethernet', '802.1Q', 'IPv4', 'TCP']);
		expect(d.vlan).toBe(42);
		expect([d.srcAddress, d.srcPort, d.dstAddress, d.dstPort]).toEqual([
			'10.0.0.2',
			50123,
			'10.0.0.5',
			443,
		]);
		expect(d.tcp).toMatchObject({ flagNames: 'SYN', seq: 123456789, mss: 1460, wscale: 8 });
		expect(d.payloadBytes).toBe(0);
	});

	it('counts TCP payload by the IP length, and reads SYN,ACK and RST,ACK', () => {
		const data = Array.from({ length: 300 }, (_, k) => k & 0xff);
		const d = dissect(
			ethernet(
				0x0800,
				ipv4('10.0.0.5', '10.0.0.2', 6, tcp(443, 50123, TCP.PSH | TCP.ACK, { payload: data })),
			),
			'ethernet',
		);
		expect(d.payloadBytes).toBe(300);
		expect(d.tcp!.flagNames).toBe('PSH,ACK');
		const rst = dissect(
			ethernet(0x0800, ipv4('10.0.0.5', '10.0.0.2', 6, tcp(8081, 50124, TCP.RST | TCP.ACK))),
			'ethernet',
		);
		expect(rst.tcp!.flagNames).toBe('RST,ACK');
	});

	it('follows IPv6 extension headers to UDP and reads a DNS answer with compressed names', () => {
		const msg = dns({
			id: 0x1234,
			name: 'api.example.com',
			answers: ['93.184.216.34', '93.184.216.35'],
		});
		const hop = { type: 0, body: [1, 4, 0, 0, 0, 0] };
		const d = dissect(
			ethernet(0x86dd, ipv6('2001:db8::1', '2001:db8::53', 17, udp(53, 61000, msg), [hop])),
			'ethernet',
		);
		expect(d.malformed).toBeNull();
		expect(d.ipProtocol).toBe(17);
		expect(d.srcAddress).toBe('2001:db8::1');
		expect(d.protocol).toBe('DNS');
		expect(d.dns).toMatchObject({
			id: 0x1234,
			response: true,
			questions: [{ name: 'api.example.com', type: 1 }],
		});
		expect(d.dns!.answers.map((a) => [a.name, a.data])).toEqual([
			['api.example.com', '93.184.216.34'],
			['api.example.com', '93.184.216.35'],
		]);
	});

	it('reads ARP and an ICMPv6 neighbor solicitation, and a broadcast destination', () => {
		const a = dissect(
			ethernet(0x0806, arpRequest('10.0.0.2', '10.0.0.1'), { dst: BROADCAST }),
			'ethernet',
		);
		expect(a.protocol).toBe('ARP');
		expect(a.linkBroadcast).toBe(true);
		expect([a.srcAddress, a.dstAddress]).toEqual(['10.0.0.2', '10.0.0.1']);
		const ns = dissect(
			ethernet(0x86dd, ipv6('fe80::2', 'ff02::1:ff00:1', 58, neighborSolicitation('fe80::1'))),
			'ethernet',
		);
		expect(ns.protocol).toBe('ICMPv6');
		expect(ns.icmp).toEqual({ type: 135, code: 0 });
	});

	it('reads a raw IP frame (wireless WAN)', () => {
		const d = dissect(
			Uint8Array.from(ipv4('10.1.1.1', '10.1.1.2', 17, udp(5000, 6000, [1, 2, 3]))),
			'raw',
		);
		expect([d.protocol, d.payloadBytes]).toEqual(['UDP', 3]);
	});

	describe('malformed frames are reported with their offset, never thrown', () => {
		const cases: [string, Uint8Array, number, RegExp][] = [
			['an Ethernet header cut short', Uint8Array.from([1, 2, 3, 4, 5]), 0, /Ethernet header/],
			[
				'an IPv4 header length below 20',
				ethernet(0x0800, ipv4('1.1.1.1', '2.2.2.2', 6, [], { ihl: 3 })),
				14,
				/below 20/,
			],
			[
				'an IPv4 total length below its header',
				ethernet(0x0800, ipv4('1.1.1.1', '2.2.2.2', 6, [], { totalLength: 10 })),
				16,
				/total length 10/,
			],
			[
				'a TCP header cut short',
				ethernet(0x0800, ipv4('1.1.1.1', '2.2.2.2', 6, tcp(1, 2, TCP.SYN).slice(0, 10))),
				34 + 8,
				/TCP/,
			],
			[
				'a UDP length past the IP payload',
				ethernet(0x0800, ipv4('1.1.1.1', '2.2.2.2', 17, [0, 53, 0, 53, 0x40, 0, 0, 0])),
				38,
				/UDP length 16384/,
			],
			[
				'a DNS name pointer loop',
				ethernet(
					0x0800,
					ipv4(
						'1.1.1.1',
						'2.2.2.2',
						17,
						udp(53, 999, [0, 1, 0x81, 0x80, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12, 0, 1, 0, 1]),
					),
				),
				54,
				/loops/,
			],
		];
		for (const [what, frame, at, message] of cases)
			it(what, () => {
				const d = dissect(frame, 'ethernet');
				expect(d.malformed, what).not.toBeNull();
				expect(d.malformed!.at).toBe(at);
				expect(english(d.malformed!.what)).toMatch(message);
				// Said in Chinese too: no English word left but protocol and field names.
				const zh = render('zh', d.malformed!.what);
				expect(zh).toMatch(/[\u4e00-\u9fff]/);
				expect(zh.replace(/\b(DNS|TCP|UDP|IPv[46]|IP|ICMP(v6)?|ARP|TTL|MSS)\b/g, '')).not.toMatch(
					/\b[a-z]{3,}\b/,
				);
			});

		it('random bytes never throw', () => {
			let x = 12345;
			for (let n = 0; n < 2000; n++) {
				const len = n % 120;
				const b = new Uint8Array(len);
				for (let k = 0; k < len; k++) b[k] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
				if (len > 13) b[12] = n % 3 === 0 ? 0x08 : n % 3 === 1 ? 0x86 : 0x81;
				if (len > 13) b[13] = n % 3 === 0 ? 0x00 : n % 3 === 1 ? 0xdd : 0x00;
				expect(() => dissect(b, n % 2 ? 'ethernet' : 'raw')).not.toThrow();
			}
		});
	});
});
