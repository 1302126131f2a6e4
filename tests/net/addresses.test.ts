import { describe, expect, it } from 'vitest';
import { canonicalAddress, ipv4, ipv6, parseIp } from '../../web/src/net/ip.ts';
import { ipMatches, parseIpPattern } from '../../web/src/net/ip-range.ts';
import { socketAddress } from '../../web/src/net/sockaddr.ts';
import { guidBytes } from '../builders/bytes.ts';

const v6 = (groups: number[]) => {
	const b = new Uint8Array(16);
	groups.forEach((g, i) => {
		b[2 * i] = g >> 8;
		b[2 * i + 1] = g & 0xff;
	});
	return b;
};

describe('addresses', () => {
	it('IPv4 is read in network order', () => {
		expect(ipv4(new Uint8Array([192, 168, 1, 10]), 0)).toBe('192.168.1.10');
	});
	it('IPv6 follows RFC 5952', () => {
		expect(ipv6(v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]), 0)).toBe('2001:db8::1');
		expect(ipv6(v6([0x2001, 0xdb8, 0, 1, 1, 1, 1, 1]), 0)).toBe('2001:db8:0:1:1:1:1:1');
		expect(ipv6(v6([0x2001, 0, 0, 1, 0, 0, 0, 1]), 0)).toBe('2001:0:0:1::1');
		expect(ipv6(v6([0, 0, 0, 0, 0, 0, 0, 0]), 0)).toBe('::');
		expect(ipv6(v6([0xfe80, 0, 0, 0, 0, 0, 0, 1]), 0)).toBe('fe80::1');
		expect(ipv6(v6([0, 0, 0, 0, 0, 0xffff, 0xc000, 0x0201]), 0)).toBe('::ffff:192.0.2.1');
	});
	it('SOCKADDR_IN and SOCKADDR_IN6 with big-endian ports', () => {
		const sin = new Uint8Array([2, 0, 0x01, 0xbb, 142, 250, 74, 46, 0, 0, 0, 0, 0, 0, 0, 0]);
		expect(socketAddress(sin, 0, 16)?.text).toBe('142.250.74.46:443');
		const sin6 = new Uint8Array(28);
		sin6.set([23, 0, 0x00, 0x35]);
		sin6.set(v6([0xfe80, 0, 0, 0, 0, 0, 0, 1]), 8);
		expect(socketAddress(sin6, 0, 28)?.text).toBe('[fe80::1]:53');
		sin6.set([12, 0, 0, 0], 24);
		expect(socketAddress(sin6, 0, 28)?.text).toBe('[fe80::1%12]:53');
		expect(socketAddress(sin, 0, 0)).toBeNull();
	});
});

describe('addresses of every family', () => {
	const le16 = (n: number) => [n & 0xff, n >> 8];
	const le32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24];
	it('AF_UNIX shows its path (and an abstract name with @)', () => {
		const path = 'C:\\Users\\ana\\AppData\\Local\\Temp\\agent.sock';
		const b = new Uint8Array(110);
		b.set([...le16(1), ...new TextEncoder().encode(path)]);
		const a = socketAddress(b, 0, b.length)!;
		expect(a.address).toBe(path);
		expect(a.text).toBe(`unix:${path}`);
		const abs = Uint8Array.from([...le16(1), 0, ...new TextEncoder().encode('x11'), 0, 0]);
		expect(socketAddress(abs, 0, abs.length)!.text).toBe('unix:@x11');
	});
	it('AF_HYPERV shows the VM and service GUIDs', () => {
		const vm = '2b1f8a3e-0d4c-4e5a-9f61-7a1c2d3e4f50';
		const service = '0000c350-facb-11e6-bd58-64006a7986d3';
		const b = Uint8Array.from([...le16(34), 0, 0, ...guidBytes(vm), ...guidBytes(service)]);
		const a = socketAddress(b, 0, b.length)!;
		expect(a.text).toBe(`VM ${vm} service ${service}`);
		expect(a.address).toBe(`${vm}/${service}`);
	});
	it('AF_VSOCK shows cid:port', () => {
		const b = Uint8Array.from([...le16(40), 0, 0, ...le32(5000), ...le32(3), 0, 0, 0, 0]);
		const a = socketAddress(b, 0, b.length)!;
		expect(a.text).toBe('vsock 3:5000');
		expect([a.address, a.port]).toEqual(['3', 5000]);
	});
	it('an unknown family shows its bytes in hex', () => {
		const b = Uint8Array.from([...le16(99), 0xde, 0xad, 0xbe, 0xef]);
		expect(socketAddress(b, 0, b.length)!.text).toBe('family 99: deadbeef');
		// A Hyper-V address cut short is not read as GUIDs.
		const short = Uint8Array.from([...le16(34), 0, 0, 1, 2]);
		expect(socketAddress(short, 0, short.length)!.text).toBe('family 34: 00000102');
	});
});

describe('one canonical text and ranges', () => {
	it('one canonical text per address', () => {
		expect(canonicalAddress('::ffff:192.0.2.1')).toBe('192.0.2.1');
		expect(canonicalAddress('[::ffff:192.0.2.1]:443')).toBe('192.0.2.1');
		expect(canonicalAddress('192.0.2.1:443')).toBe('192.0.2.1');
		expect(canonicalAddress('[2001:DB8:0:0::1%12]:80')).toBe('2001:db8::1');
		expect(canonicalAddress('unix:/tmp/x')).toBeNull();
	});
	it('parses what it writes', () => {
		expect(ipv6(parseIp('2001:db8::1')!, 0)).toBe('2001:db8::1');
		expect(ipv4(parseIp('192.0.2.1')!, 0)).toBe('192.0.2.1');
		expect(parseIp('::ffff:192.0.2.1')).toEqual(
			Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 1]),
		);
		expect(parseIp('1.2.3.256')).toBeNull();
		expect(parseIp('1::2::3')).toBeNull();
	});
	it('CIDR blocks match by prefix, within one family', () => {
		const ten = parseIpPattern('10.0.0.0/8')!;
		expect(ipMatches(ten, parseIp('10.200.1.2')!)).toBe(true);
		expect(ipMatches(ten, parseIp('11.0.0.1')!)).toBe(false);
		expect(ipMatches(ten, parseIp('::ffff:10.0.0.1')!)).toBe(false);
		expect(ipMatches(parseIpPattern('fe80::/10')!, parseIp('fe80::1')!)).toBe(true);
		expect(parseIpPattern('10.0.0.0/33')).toBeNull();
		expect(parseIpPattern('10.0.0.0/8/1')).toBeNull();
	});
});
