// Autocomplete of the filter box: fields, then the values the trace holds.
import { describe, expect, it } from 'vitest';
import { FILTER_FIELDS } from '../../web/src/query/filter-compile.ts';
import { FIELD_HELP, suggest, type Vocabulary } from '../../web/src/views/events/filter-suggest.ts';

const vocab: Vocabulary = {
	events: [
		{ name: 'AfdReceive', count: 920 },
		{ name: 'AfdConnectWithAddress', count: 16 },
		{ name: 'AfdConnectIndicationWithAddress', count: 3 },
	],
	providers: ['Microsoft-Windows-Winsock-AFD'],
	processes: [
		{ pid: 4120, name: 'chrome.exe', count: 1891 },
		{ pid: 5200, name: 'curl.exe', count: 20 },
	],
	statuses: [{ name: 'STATUS_CONNECTION_REFUSED', wsa: 'WSAECONNREFUSED', count: 1 }],
};

describe('filter autocomplete', () => {
	it('documents every field of the language', () => {
		expect(FIELD_HELP.map((f) => f.field).sort()).toEqual([...FILTER_FIELDS].sort());
	});

	it('offers field names for a word being typed', () => {
		const s = suggest('status:error ev', 15, vocab)!;
		expect(s.from).toBe(13);
		expect(s.to).toBe(15);
		expect(s.items[0]!.insert).toBe('event:');
	});

	it('offers the trace values of a field, prefix matches first', () => {
		const s = suggest('event:afdconn', 13, vocab)!;
		expect(s.items.map((i) => i.insert)).toEqual([
			'event:AfdConnectWithAddress',
			'event:AfdConnectIndicationWithAddress',
		]);
		const p = suggest('-process:cu', 11, vocab)!;
		expect(p.from).toBe(1);
		expect(p.items[0]!.insert).toBe('process:curl.exe');
	});

	it('finds values from a bare word', () => {
		const s = suggest('refused', 7, vocab)!;
		expect(s.items.map((i) => i.insert)).toContain('status:STATUS_CONNECTION_REFUSED');
		expect(suggest('curl', 4, vocab)!.items.map((i) => i.insert)).toContain('process:curl.exe');
	});

	it('replaces the whole word under the caret', () => {
		const s = suggest('(event:Afd) x', 8, vocab)!;
		expect([s.from, s.to]).toEqual([1, 10]);
	});

	it('stays quiet when nothing fits', () => {
		expect(suggest('', 0, vocab)).toBe(null);
		expect(suggest('zzz', 3, vocab)).toBe(null);
		expect(suggest('event:AfdReceive', 16, vocab)).toBe(null);
	});

	it('completes the Wireshark forms and payload fields by name', () => {
		const spaced = suggest('process == cu', 13, vocab)!;
		expect([spaced.from, spaced.to]).toEqual([11, 13]);
		expect(spaced.items[0]!.insert).toBe('curl.exe');
		expect(suggest('process==cu', 11, vocab)!.items[0]!.insert).toBe('process==curl.exe');
		expect(suggest('Sock', 4, vocab)!.items.map((i) => i.insert)).toContain('SocketType == ');
		expect(suggest('SocketType == SOCK_D', 20, vocab)!.items.map((i) => i.insert)).toEqual([
			'SOCK_DGRAM',
		]);
	});
});
