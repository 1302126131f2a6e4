// Autocomplete of the filter box: fields, then the values the trace holds.
import { describe, expect, it } from 'vitest';
import { FILTER_FIELDS } from '../../../web/src/query/filter-compile.ts';
import {
	FIELD_HELP,
	insertSuggestion,
	listKey,
	suggest,
	type Vocabulary,
} from '../../../web/src/views/filter/filter-suggest.ts';

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

describe('taking a suggestion', () => {
	it('replaces the word typed, goes on to the values after a field, and spaces a value', () => {
		const field = suggest('proc', 4, vocab)!;
		const item = field.items.find((i) => i.insert === 'process:')!;
		const a = insertSuggestion('proc', field, item);
		expect(a).toEqual({ text: 'process:', caret: 8, open: true });

		const value = suggest(a.text, a.caret, vocab)!;
		const curl = value.items.find((i) => i.insert.endsWith('curl.exe'))!;
		const b = insertSuggestion(a.text, value, curl);
		expect(b.text).toBe(`process:curl.exe `);
		expect(b).toMatchObject({ caret: b.text.length, open: false });
	});

	it('adds no second space before one already there, and keeps the rest of the text', () => {
		const text = 'process:cu -event:AfdReceive';
		const s = suggest(text, 10, vocab)!;
		const out = insertSuggestion(text, s, { insert: 'process:curl.exe' });
		expect(out.text).toBe('process:curl.exe -event:AfdReceive');
		expect(out.text.slice(0, out.caret)).toBe('process:curl.exe');
	});
});

describe('keys in the suggestions list', () => {
	const list = (navigated: boolean, active = 0) => ({ count: 3, navigated, active });

	it('lands on the first item with either arrow, then moves round the ends', () => {
		expect(listKey('ArrowUp', false, list(false, 2))).toEqual({ do: 'move', active: 0 });
		expect(listKey('ArrowDown', false, list(true, 2))).toEqual({ do: 'move', active: 0 });
		expect(listKey('ArrowUp', false, list(true, 0))).toEqual({ do: 'move', active: 2 });
	});

	it('takes the item with Tab, and with Enter only once in the list', () => {
		expect(listKey('Tab', false, list(false))).toEqual({ do: 'accept' });
		expect(listKey('Tab', true, list(false))).toBe(null);
		expect(listKey('Enter', false, list(false))).toBe(null);
		expect(listKey('Enter', false, list(true))).toEqual({ do: 'accept' });
	});

	it('closes with Escape and leaves other keys to the box', () => {
		expect(listKey('Escape', false, list(true))).toEqual({ do: 'close' });
		expect(listKey('a', false, list(true))).toBe(null);
	});
});
