// A growing byte buffer that exports write text into directly: ASCII and UTF-8 strings, JSON
// string literals escaped as JSON.stringify escapes them, integers and hex digits without
// intermediate strings. The caller takes what is written (`take`) in pieces of its choosing.

const encoder = new TextEncoder();
const HEX_DIGITS = '0123456789abcdef';

export class ByteSink {
	bytes: Uint8Array;
	/** Bytes written so far. */
	length = 0;

	/** `bytes` as a DataView, for writing four bytes at a time. */
	#view: DataView;

	constructor(capacity = 1 << 16) {
		this.bytes = new Uint8Array(capacity);
		this.#view = new DataView(this.bytes.buffer);
	}

	/** Makes room for n more bytes. */
	reserve(n: number): void {
		const need = this.length + n;
		if (need <= this.bytes.length) return;
		let size = this.bytes.length * 2;
		while (size < need) size *= 2;
		const grown = new Uint8Array(size);
		grown.set(this.bytes.subarray(0, this.length));
		this.bytes = grown;
		this.#view = new DataView(grown.buffer);
	}

	/**
	 * What is written, handed over: the sink goes on in other memory (one given back with
	 * `giveBack` once the taker is done with it, or new), so nothing is copied.
	 */
	take(): Uint8Array {
		const out = this.bytes.subarray(0, this.length);
		this.bytes = this.#spare.pop() ?? new Uint8Array(this.bytes.length);
		this.#view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
		this.length = 0;
		return out;
	}

	/** Memory from `take` that its taker is done with, for the sink to write into again. */
	giveBack(b: Uint8Array): void {
		if (this.#spare.length < 4 && b.byteOffset === 0)
			this.#spare.push(new Uint8Array(b.buffer as ArrayBuffer));
	}

	#spare: Uint8Array[] = [];

	byte(b: number): void {
		if (this.length >= this.bytes.length) this.reserve(1);
		this.bytes[this.length++] = b;
	}

	/** Precomputed bytes (a key, a constant cell). */
	raw(b: Uint8Array): void {
		const n = b.length;
		if (this.length + n > this.bytes.length) this.reserve(n);
		// A loop beats set() only on the shortest pieces (a comma, a quote, a short key).
		if (n < 8) {
			const out = this.bytes;
			let at = this.length;
			for (let k = 0; k < n; k++) out[at++] = b[k]!;
			this.length = at;
		} else {
			this.bytes.set(b, this.length);
			this.length += n;
		}
	}

	/**
	 * A piece made once: short ones four bytes at a time (fewer stores than a byte loop, no call
	 * as set() makes), long ones by set().
	 */
	piece(p: Piece): void {
		if (p.length > 64) this.raw(p.bytes);
		else this.words(p.words, 0, p.length);
	}

	/**
	 * n bytes held in words (little-endian) from words[from] on, as `keep` stored them. Up to
	 * three bytes past them are written too: what is written next covers them.
	 */
	words(words: Uint32Array, from: number, n: number): void {
		if (this.length + n + 4 > this.bytes.length) this.reserve(n + 4);
		const v = this.#view;
		let at = this.length;
		const end = from + ((n + 3) >> 2);
		for (let k = from; k < end; k++, at += 4) v.setUint32(at, words[k]!, true);
		this.length += n;
	}

	/** The n bytes written from `at` on (up to `length`), into words from words[from] on. */
	keep(at: number, n: number, words: Uint32Array, from: number): void {
		// Whole words are read: the up to three bytes past `length` must be there.
		this.reserve(4);
		const v = this.#view;
		const end = from + ((n + 3) >> 2);
		for (let k = from; k < end; k++, at += 4) words[k] = v.getUint32(at, true);
	}

	/** Writes again the n bytes written from `at` on. */
	again(at: number, n: number): void {
		this.reserve(n);
		// A few bytes (a time's fraction): a loop, without copyWithin's call.
		const out = this.bytes;
		let to = this.length;
		for (let k = 0; k < n; k++) out[to++] = out[at + k]!;
		this.length = to;
	}

	/** A string known to be ASCII (digits, hex, names made of ASCII). */
	ascii(s: string): void {
		const n = s.length;
		this.reserve(n);
		const out = this.bytes;
		let at = this.length;
		for (let k = 0; k < n; k++) out[at++] = s.charCodeAt(k);
		this.length = at;
	}

	/** Any string as UTF-8, lone surrogates as U+FFFD (what Node's stream writes of a string). */
	utf8(s: string): void {
		this.reserve(s.length * 3);
		const { written } = encoder.encodeInto(s, this.bytes.subarray(this.length));
		this.length += written;
	}

	/** A non-negative integer below 2^53, in decimal. */
	uint(v: number): void {
		if (v < 10) {
			this.byte(48 + v);
			return;
		}
		this.reserve(16);
		const out = this.bytes;
		let at = this.length + decimalDigits(v);
		this.length = at;
		let x = v;
		// Above 2^31 the digits come off in floating point, below in int32.
		while (x > 0x7fffffff) {
			const q = Math.floor(x / 10);
			out[--at] = 48 + (x - q * 10);
			x = q;
		}
		do {
			const q = (x / 10) | 0;
			out[--at] = 48 + (x - q * 10);
			x = q;
		} while (x > 0);
	}

	/** An integer of magnitude below 2^53, in decimal (as String(n) writes it). */
	int(v: number): void {
		if (v < 0) {
			this.byte(45);
			this.uint(-v);
		} else this.uint(v);
	}

	/** hi·2^32 + lo in lowercase hex without leading zeros (as bigint.toString(16)). */
	hex64(hi: number, lo: number): void {
		this.reserve(16);
		const out = this.bytes;
		// The digits' count from the leading zero bits, then the digits from the last.
		const digits =
			hi !== 0 ? 8 + ((35 - Math.clz32(hi)) >> 2) : lo === 0 ? 1 : (35 - Math.clz32(lo)) >> 2;
		const low = hi !== 0 ? 8 : digits;
		let at = this.length + digits;
		this.length = at;
		let x = lo;
		for (let d = 0; d < low; d++) {
			out[--at] = HEX_CODES[x & 15]!;
			x >>>= 4;
		}
		x = hi;
		for (let d = low; d < digits; d++) {
			out[--at] = HEX_CODES[x & 15]!;
			x >>>= 4;
		}
	}

	/**
	 * `s` as one CSV cell, byte for byte the UTF-8 of csvCell(s): quoted, its quotes doubled, when
	 * it holds a comma, quote or line break; lone surrogates as U+FFFD.
	 */
	csvCell(s: string): void {
		const n = s.length;
		let quote = false;
		for (let k = 0; k < n && !quote; k++) {
			const c = s.charCodeAt(k);
			quote = c === 44 || c === 34 || c === 10 || c === 13;
		}
		// At most 3 bytes per UTF-16 unit (a quote doubled takes 2).
		this.reserve(n * 3 + 2);
		const out = this.bytes;
		let at = this.length;
		if (quote) out[at++] = 34;
		for (let k = 0; k < n; k++) {
			const c = s.charCodeAt(k);
			if (c < 0x80) {
				out[at++] = c;
				if (c === 34) out[at++] = 34;
			} else if (c < 0x800) {
				out[at++] = 0xc0 | (c >> 6);
				out[at++] = 0x80 | (c & 63);
			} else if (c >= 0xd800 && c <= 0xdfff) {
				const d = k + 1 < n ? s.charCodeAt(k + 1) : 0;
				if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
					const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
					out[at++] = 0xf0 | (cp >> 18);
					out[at++] = 0x80 | ((cp >> 12) & 63);
					out[at++] = 0x80 | ((cp >> 6) & 63);
					out[at++] = 0x80 | (cp & 63);
					k++;
				} else {
					// A lone surrogate: U+FFFD, as TextEncoder writes it.
					out[at++] = 0xef;
					out[at++] = 0xbf;
					out[at++] = 0xbd;
				}
			} else {
				out[at++] = 0xe0 | (c >> 12);
				out[at++] = 0x80 | ((c >> 6) & 63);
				out[at++] = 0x80 | (c & 63);
			}
		}
		if (quote) out[at++] = 34;
		this.length = at;
	}

	/**
	 * `"s"` escaped exactly as JSON.stringify escapes a string, as UTF-8. `doubled`: every quote
	 * written twice, as inside a quoted CSV cell.
	 */
	jsonString(s: string, doubled = false): void {
		const n = s.length;
		// At most 6 bytes per UTF-16 unit (\u00XX, or a lone surrogate escaped).
		this.reserve(n * 6 + 4);
		const out = this.bytes;
		let at = this.length;
		out[at++] = 34;
		if (doubled) out[at++] = 34;
		for (let k = 0; k < n; k++) {
			const c = s.charCodeAt(k);
			if (c < 0x80) {
				if (c >= 0x20 && c !== 34 && c !== 92) out[at++] = c;
				else {
					at = escapeAscii(out, at, c);
					if (doubled && c === 34) out[at++] = 34;
				}
			} else if (c < 0x800) {
				out[at++] = 0xc0 | (c >> 6);
				out[at++] = 0x80 | (c & 63);
			} else if (c >= 0xd800 && c <= 0xdfff) {
				const d = k + 1 < n ? s.charCodeAt(k + 1) : 0;
				if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
					const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
					out[at++] = 0xf0 | (cp >> 18);
					out[at++] = 0x80 | ((cp >> 12) & 63);
					out[at++] = 0x80 | ((cp >> 6) & 63);
					out[at++] = 0x80 | (cp & 63);
					k++;
				} else at = unicodeEscape(out, at, c);
			} else {
				out[at++] = 0xe0 | (c >> 12);
				out[at++] = 0x80 | ((c >> 6) & 63);
				out[at++] = 0x80 | (c & 63);
			}
		}
		out[at++] = 34;
		if (doubled) out[at++] = 34;
		this.length = at;
	}
}

function decimalDigits(v: number): number {
	let digits = 1;
	for (let p = 10; p <= v && digits < 16; p *= 10) digits++;
	return digits;
}

const HEX_CODES = Uint8Array.from(HEX_DIGITS, (c) => c.charCodeAt(0));
const SHORT_ESCAPES: Record<number, number> = { 8: 98, 9: 116, 10: 110, 12: 102, 13: 114 };

function escapeAscii(out: Uint8Array, at: number, c: number): number {
	if (c === 34 || c === 92) {
		out[at++] = 92;
		out[at++] = c;
		return at;
	}
	const short = SHORT_ESCAPES[c];
	if (short !== undefined) {
		out[at++] = 92;
		out[at++] = short;
		return at;
	}
	return unicodeEscape(out, at, c);
}

function unicodeEscape(out: Uint8Array, at: number, c: number): number {
	out[at++] = 92;
	out[at++] = 117;
	out[at++] = HEX_CODES[(c >> 12) & 15]!;
	out[at++] = HEX_CODES[(c >> 8) & 15]!;
	out[at++] = HEX_CODES[(c >> 4) & 15]!;
	out[at++] = HEX_CODES[c & 15]!;
	return at;
}

/** Bytes made once and written often, also held as little-endian words. */
export class Piece {
	readonly bytes: Uint8Array;
	readonly words: Uint32Array;
	readonly length: number;
	constructor(bytes: Uint8Array) {
		this.bytes = bytes;
		this.length = bytes.length;
		this.words = new Uint32Array((bytes.length + 3) >> 2);
		new Uint8Array(this.words.buffer).set(bytes);
	}
}

/** A constant's bytes, made once. */
export const utf8Bytes = (s: string): Uint8Array => encoder.encode(s);
