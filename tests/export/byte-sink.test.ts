import { describe, expect, it } from 'vitest';
import { ByteSink } from '../../web/src/export/byte-sink.ts';
import { csvCell } from '../../web/src/export/record-lines.ts';
import { Prng } from '../builders/prng.ts';

const written = (f: (s: ByteSink) => void, capacity = 4) => {
	const s = new ByteSink(capacity);
	f(s);
	return Buffer.from(s.bytes.subarray(0, s.length));
};

// Every escape JSON.stringify makes, multi-byte UTF-8, surrogate pairs and lone surrogates.
const STRINGS = [
	'',
	'plain',
	'quote " backslash \\ slash /',
	'\b\f\n\r\t\v\0\x01\x1f\x7f',
	'é ü ß 中文 €',
	'emoji 😀 pair',
	'lone \ud800 high',
	'lone \udc00 low',
	'reversed \udc00\ud800',
	'\ud83d',
	'a,b',
	'x\r\ny',
	String.fromCharCode(...Array.from({ length: 0x100 }, (_, i) => i)),
];

describe('ByteSink', () => {
	it('escapes strings as JSON.stringify does', () => {
		for (const s of STRINGS)
			expect(written((k) => k.jsonString(s)).equals(Buffer.from(JSON.stringify(s))), s).toBe(true);
	});

	it('writes UTF-8 as Node writes a string (lone surrogates as U+FFFD)', () => {
		for (const s of STRINGS) expect(written((k) => k.utf8(s)).equals(Buffer.from(s)), s).toBe(true);
	});

	it('doubles every quote of a JSON string, as csvCell quotes a cell of JSON', () => {
		for (const s of STRINGS) {
			const out = written((k) => k.jsonString(s, true)).toString();
			expect(`"${out}"`, s).toBe(csvCell(JSON.stringify(s)));
		}
	});

	it('writes a CSV cell as csvCell makes it, in UTF-8', () => {
		const rng = new Prng(27);
		// Random strings of the characters a cell treats apart, among ASCII, multi-byte and surrogates.
		const pool = [',', '"', '\r', '\n', 'a', ' ', 'é', '中', '😀', '\ud800', '\udc00', '\0'];
		const random = Array.from({ length: 500 }, () =>
			Array.from({ length: rng.int(0, 12) }, () => pool[rng.int(0, pool.length - 1)]).join(''),
		);
		for (const s of [...STRINGS, ...random])
			expect(written((k) => k.csvCell(s)).equals(Buffer.from(csvCell(s))), JSON.stringify(s)).toBe(
				true,
			);
	});

	it('writes integers and hex as toString does', () => {
		const ints = [
			0,
			1,
			9,
			10,
			99,
			100,
			65535,
			2 ** 31 - 1,
			2 ** 31,
			2 ** 32 - 1,
			2 ** 32,
			1e15,
			2 ** 53 - 1,
		];
		for (const v of ints) {
			expect(written((k) => k.uint(v)).toString()).toBe(String(v));
			expect(written((k) => k.int(-v)).toString()).toBe(String(-v));
		}
		const words = [0, 1, 0xf, 0x10, 0xffffffff, 0x80000000, 0x1234abcd];
		for (const hi of words)
			for (const lo of words) {
				const big = (BigInt(hi) << 32n) | BigInt(lo);
				expect(written((k) => k.hex64(hi, lo)).toString()).toBe(big.toString(16));
			}
	});

	it('hands over what it holds and writes on into memory given back', () => {
		const s = new ByteSink(8);
		s.ascii('0123456789');
		const first = s.take();
		expect(Buffer.from(first).toString()).toBe('0123456789');
		s.ascii('ab');
		s.giveBack(first);
		const second = s.take();
		s.ascii('cd');
		// The memory given back is written again; what was taken before is left alone.
		expect(Buffer.from(second).toString()).toBe('ab');
		expect(s.bytes.buffer).toBe(first.buffer);
		expect(Buffer.from(s.take()).toString()).toBe('cd');
	});
});
