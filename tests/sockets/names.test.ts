// The address → names table: DNS-Client results as Windows spells them (IPv4-mapped addresses,
// CNAME items), getaddrinfo results, and which answer names a socket that used the address.
import { describe, expect, it } from 'vitest';
import { NameTable, namedEndpoint, parseQueryResults } from '../../web/src/sockets/names.ts';
import { dnsQueryResults, type DnsItem } from '../builders/net-payloads.ts';

describe('QueryResults', () => {
	it('reads IPv4-mapped and plain IPv6 addresses and the CNAME chain in order', () => {
		const items: DnsItem[] = [
			{ cname: 'www.example.com.cdn.net' },
			{ cname: 'edge-7.cdn.net' },
			{ address: '93.184.216.34' },
			{ address: '2606:2800:220:1:248:1893:25c8:1946' },
		];
		const text = dnsQueryResults(items);
		expect(text).toBe(
			'type:  5 www.example.com.cdn.net;type:  5 edge-7.cdn.net;::ffff:93.184.216.34;2606:2800:220:1:248:1893:25c8:1946;',
		);
		expect(parseQueryResults(text)).toEqual({
			addresses: ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
			chain: ['www.example.com.cdn.net', 'edge-7.cdn.net'],
		});
	});
	it('skips other record types and empty items', () => {
		expect(parseQueryResults('type:  16 "v=spf1";;::ffff:10.0.0.1;')).toEqual({
			addresses: ['10.0.0.1'],
			chain: [],
		});
	});
});

describe('NameTable', () => {
	const t = new NameTable();
	// Record indexes stand for trace order; ticks are not used for the choice.
	t.dnsAnswer(10, 100, 'api.example.com', 0, dnsQueryResults([{ address: '198.51.100.7' }]));
	t.dnsAnswer(
		20,
		200,
		'www.example.com',
		0,
		dnsQueryResults([{ cname: 'www.example.com.edge.net' }, { address: '198.51.100.7' }]),
	);
	// A failed lookup and a literal name add nothing.
	t.dnsAnswer(25, 250, 'bad.example.com', 9003, dnsQueryResults([{ address: '198.51.100.7' }]));
	t.dnsAnswer(26, 260, '198.51.100.9', 0, dnsQueryResults([{ address: '198.51.100.9' }]));
	t.gaiResult(30, 300, 'files.example.org', 0, '203.0.113.5;2001:db8::5;');

	it('names an address by the latest answer before its first use, with every name known', () => {
		expect(t.lookup('198.51.100.7', 15)).toEqual({
			name: 'api.example.com',
			names: ['api.example.com', 'www.example.com', 'www.example.com.edge.net'],
			index: 10,
		});
		expect(t.lookup('198.51.100.7', 40)).toEqual({
			name: 'www.example.com',
			names: ['www.example.com', 'www.example.com.edge.net', 'api.example.com'],
			index: 20,
		});
	});
	it('null before any answer, and for addresses no answer held', () => {
		expect(t.lookup('198.51.100.7', 5).name).toBeNull();
		expect(t.lookup('198.51.100.7', 5).names).toHaveLength(3);
		expect(t.lookup('198.51.100.9', 99)).toEqual({ name: null, names: [], index: null });
		expect(t.lookup(null, 99).name).toBeNull();
	});
	it('getaddrinfo results name IPv4 and IPv6 addresses', () => {
		expect(t.lookup('203.0.113.5', 31).name).toBe('files.example.org');
		expect(t.lookup('2001:db8::5', 31).name).toBe('files.example.org');
		expect(t.answers).toBe(3);
	});
	it('name (address:port)', () => {
		expect(namedEndpoint('www.example.com', '198.51.100.7:443')).toBe(
			'www.example.com (198.51.100.7:443)',
		);
		expect(namedEndpoint(null, '198.51.100.7:443')).toBe('198.51.100.7:443');
		expect(namedEndpoint(null, null)).toBe('unknown peer');
	});
});
