import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Prng } from './prng.ts';
import { compressXpress, decompressXpress } from './xpress.ts';

const REAL = new URL('../fixtures/real/', import.meta.url);

function roundTrip(src: Uint8Array): Uint8Array {
	const packed = compressXpress(src);
	const back = decompressXpress(packed, src.length, { strict: true });
	expect(firstDifference(back, src)).toBe(-1);
	return packed;
}

/** Index of the first differing byte, or -1 (toEqual is slow on large arrays). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
	const n = Math.min(a.length, b.length);
	for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
	return a.length === b.length ? -1 : n;
}

function text(s: string): Uint8Array {
	return new TextEncoder().encode(s);
}

describe('XPRESS (MS-XCA plain LZ77)', () => {
	it('round-trips empty and tiny inputs', () => {
		expect(compressXpress(new Uint8Array(0))).toEqual(Uint8Array.of(0xff, 0xff, 0xff, 0xff));
		for (let n = 1; n <= 70; n++) roundTrip(new Prng(n).bytes(n));
		roundTrip(text('aaa'));
		roundTrip(text('abcabcabcabc'));
	});

	it('encodes a short literal run with 1-padded flags (hand-checked bytes)', () => {
		// 'abc': three literal flags (0) then 29 one bits → 0x1FFFFFFF, then the literals.
		expect(compressXpress(text('abc'))).toEqual(
			Uint8Array.of(0xff, 0xff, 0xff, 0x1f, 0x61, 0x62, 0x63),
		);
		// 'abcabcabc': literals a b c, then a match offset 3 length 6 → token (2 << 3) | 3 = 0x13.
		expect(compressXpress(text('abcabcabc'))).toEqual(
			Uint8Array.of(0xff, 0xff, 0xff, 0x1f, 0x61, 0x62, 0x63, 0x13, 0x00),
		);
	});

	it('round-trips random data', () => {
		const rng = new Prng(42);
		for (const n of [100, 1000, 4096, 65536, 200_000]) {
			const src = rng.bytes(n);
			const packed = roundTrip(src);
			// Incompressible: at most one flag word per 32 literals of overhead.
			expect(packed.length).toBeLessThanOrEqual(n + 4 * Math.ceil(n / 32) + 8);
		}
	});

	it('round-trips every length-encoding tier (nibble, u8, u16, u32) and shared nibbles', () => {
		const rng = new Prng(7);
		// Runs whose lengths hit each boundary: 3..9 (token only), 10..24 (nibble), 25..279 (u8),
		// 280..65538 (u16), ≥ 65539 (u32), each separated by random bytes so the next starts fresh.
		const lengths = [
			3, 4, 9, 10, 11, 24, 25, 26, 100, 279, 280, 281, 301, 1000, 65537, 65538, 65539, 65540,
			70_000, 300_000,
		];
		const parts: number[] = [];
		for (const len of lengths) {
			parts.push(...rng.bytes(5));
			const b = rng.int(0, 255);
			for (let i = 0; i < len + 1; i++) parts.push(b);
		}
		roundTrip(Uint8Array.from(parts));
		for (const len of lengths) {
			const src = new Uint8Array(len + 1).fill(0x41);
			const packed = roundTrip(src);
			expect(packed.length).toBeLessThan(24);
		}
		// Many consecutive medium matches: exercises the low/high nibble sharing.
		const pattern = rng.bytes(37);
		const rep = new Uint8Array(37 * 500);
		for (let i = 0; i < rep.length; i++) rep[i] = i % 97 < 60 ? pattern[i % 37]! : i & 0xff;
		roundTrip(rep);
	});

	it('round-trips repetitive and structured data', () => {
		const rng = new Prng(99);
		const words = ['connect', 'send', 'recv', 'close', 'AfdSend', '0xffffa50c', ' ', '\n'];
		let s = '';
		while (s.length < 150_000) s += rng.pick(words);
		const packed = roundTrip(text(s));
		expect(packed.length).toBeLessThan(s.length / 3);
		// Long runs > 300 bytes and > 65 kB in the middle of other data, and offset-8192 matches.
		const src = new Uint8Array(200_000);
		src.set(rng.bytes(8192), 0);
		src.set(src.subarray(0, 8192), 8192);
		src.fill(0xcd, 16_384, 16_384 + 310);
		src.fill(0x00, 20_000, 20_000 + 70_000);
		src.set(rng.bytes(5000), 100_000);
		roundTrip(src);
	});

	it('round-trips real files (ETL fixtures)', () => {
		for (const name of ['krabsetw-powershell-manifest.etl', 'etlparser-amsi-tracelogging.etl']) {
			const data = new Uint8Array(readFileSync(new URL(name, REAL)));
			const slice = data.subarray(0, 256 * 1024);
			const packed = roundTrip(slice);
			expect(packed.length).toBeLessThan(slice.length);
		}
	});

	it('decompresses the compressed buffers of a real file to exactly Offset - 0x48 bytes', () => {
		const data = new Uint8Array(readFileSync(new URL('demikernel-pktmon-compressed.etl', REAL)));
		const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
		let pos = 0;
		let compressed = 0;
		while (pos < data.length) {
			const size = view.getUint32(pos, true);
			const offset = view.getUint32(pos + 0x30, true);
			if (view.getUint16(pos + 0x34, true) & 0x40) {
				const raw = decompressXpress(data.subarray(pos + 0x48, pos + size), offset - 0x48, {
					strict: true,
				});
				// The first record of the decompressed data is a well-formed record marker.
				expect(raw[3]! & 0xc0).toBe(0xc0);
				// Re-compressing our way and decompressing gives the same bytes back.
				roundTrip(raw);
				compressed++;
			}
			pos += size;
		}
		expect(compressed).toBeGreaterThan(0);
	});

	it('rejects corrupt input with a clear message', () => {
		const packed = compressXpress(text('hello hello hello hello hello'));
		expect(() => decompressXpress(packed.subarray(0, 6), 29)).toThrow(/XPRESS: truncated input/);
		expect(() => decompressXpress(packed, 40)).toThrow(/XPRESS: input ended/);
		expect(() => decompressXpress(packed, 10)).toThrow(/overruns the output/);
		// A match as the very first symbol points before the output start.
		expect(() => decompressXpress(Uint8Array.of(0, 0, 0, 0x80, 0x08, 0x00), 4)).toThrow(
			/reaches before the output start/,
		);
		// u16 length escape below 22.
		expect(() =>
			decompressXpress(Uint8Array.of(0, 0, 0, 0x40, 0x41, 0x07, 0x00, 0x0f, 0xff, 0x05, 0x00), 40),
		).toThrow(/below 22/);
		// Trailing garbage is caught in strict mode only.
		const extra = Uint8Array.from([...packed, 1, 2, 3]);
		expect(decompressXpress(extra, 29)).toEqual(text('hello hello hello hello hello'));
		expect(() => decompressXpress(extra, 29, { strict: true })).toThrow(/after the end/);
	});
});
