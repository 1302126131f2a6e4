// MS-XCA Plain LZ77 ("XPRESS", COMPRESSION_FORMAT_XPRESS = 3): the compressor of [MS-XCA] 2.3
// and the decompressor of [MS-XCA] 2.4, used for compressed ETL buffers (docs/etl-format.md §9).
//
// Stream format: 32-bit little-endian flag words, consumed from the most significant bit. A 0 bit
// is one literal byte; a 1 bit is a u16 match token: bits 0-2 = length - 3, bits 3-15 =
// offset - 1 (offsets 1..8192). Length field 7 continues in a nibble: one byte shared by two
// consecutive long matches (the first uses its low nibble, the next its high nibble). Nibble 15
// continues in a u8; u8 255 continues in a u16 holding the whole length - 3; a u16 of 0
// continues in a u32 holding the whole length - 3. The unused bits of the last flag word are 1.

export const XPRESS_MIN_MATCH = 3;
export const XPRESS_MAX_OFFSET = 8192;

const HASH_BITS = 15;
const HASH_SIZE = 1 << HASH_BITS;
/** Candidates examined per position. Greedy parsing; deterministic. */
const MAX_CHAIN = 48;
/** Stop searching once a match is this long. */
const GOOD_ENOUGH = 4096;

function hash3(src: Uint8Array, i: number): number {
	const v = src[i]! | (src[i + 1]! << 8) | (src[i + 2]! << 16);
	return (Math.imul(v, 0x9e3779b1) >>> (32 - HASH_BITS)) & (HASH_SIZE - 1);
}

/** Compresses `src` with MS-XCA Plain LZ77. Empty input gives a single all-ones flag word. */
export function compressXpress(src: Uint8Array): Uint8Array {
	const n = src.length;
	// Literals cost 1 byte per input byte and every match costs at most its length, so the
	// output never exceeds n plus one flag word per 32 symbols plus the final word.
	const out = new Uint8Array(n + 4 * (Math.ceil(n / 32) + 2));
	const view = new DataView(out.buffer);
	const head = new Int32Array(HASH_SIZE).fill(-1);
	const prev = new Int32Array(Math.max(1, n));

	let outPos = 4;
	let flags = 0;
	let flagCount = 0;
	let flagPos = 0;
	let halfBytePos = 0; // 0 = none pending (position 0 always holds a flag word)

	const insert = (i: number): void => {
		if (i + 2 >= n) return;
		const h = hash3(src, i);
		prev[i] = head[h]!;
		head[h] = i;
	};
	const pushFlag = (bit: number): void => {
		flags = ((flags << 1) | bit) >>> 0;
		flagCount++;
		if (flagCount === 32) {
			view.setUint32(flagPos, flags, true);
			flagCount = 0;
			flags = 0;
			flagPos = outPos;
			outPos += 4;
		}
	};

	let pos = 0;
	while (pos < n) {
		let bestLen = 0;
		let bestOff = 0;
		if (pos + 2 < n) {
			const limit = n - pos;
			let cand = head[hash3(src, pos)]!;
			let chain = MAX_CHAIN;
			while (cand >= 0 && chain-- > 0) {
				const off = pos - cand;
				if (off > XPRESS_MAX_OFFSET) break;
				if (src[cand + bestLen] === src[pos + bestLen] || bestLen === 0) {
					let len = 0;
					while (len < limit && src[cand + len] === src[pos + len]) len++;
					if (len > bestLen) {
						bestLen = len;
						bestOff = off;
						if (len >= GOOD_ENOUGH || len === limit) break;
					}
				}
				cand = prev[cand]!;
			}
		}

		if (bestLen >= XPRESS_MIN_MATCH) {
			let length = bestLen - 3;
			const token = (bestOff - 1) << 3;
			if (length < 7) {
				view.setUint16(outPos, token | length, true);
				outPos += 2;
			} else {
				view.setUint16(outPos, token | 7, true);
				outPos += 2;
				length -= 7;
				const nib = length < 15 ? length : 15;
				if (halfBytePos === 0) {
					halfBytePos = outPos;
					out[outPos++] = nib;
				} else {
					out[halfBytePos] = out[halfBytePos]! | (nib << 4);
					halfBytePos = 0;
				}
				if (length >= 15) {
					length -= 15;
					if (length < 255) {
						out[outPos++] = length;
					} else {
						out[outPos++] = 255;
						length += 15 + 7; // the u16/u32 holds the whole length - 3
						if (length < 0x10000) {
							view.setUint16(outPos, length, true);
							outPos += 2;
						} else {
							view.setUint16(outPos, 0, true);
							view.setUint32(outPos + 2, length, true);
							outPos += 6;
						}
					}
				}
			}
			for (let i = 0; i < bestLen; i++) insert(pos + i);
			pos += bestLen;
			pushFlag(1);
		} else {
			out[outPos++] = src[pos]!;
			insert(pos);
			pos++;
			pushFlag(0);
		}
	}

	// Pad the last flag word with 1 bits (a decoder that meets a 1 bit at the end of the input
	// stops there). flagCount is 0..31 here; 0 means a fresh, all-ones word.
	const free = 32 - flagCount;
	const padded = free === 32 ? 0xffffffff : ((flags << free) | ((1 << free) - 1)) >>> 0;
	view.setUint32(flagPos, padded, true);
	return out.slice(0, outPos);
}

export interface XpressDecompressOptions {
	/**
	 * Also require a clean end: after `outLength` bytes the stream may only hold the 1-padding
	 * of the current flag word (or one all-ones flag word), nothing else.
	 */
	strict?: boolean;
}

/**
 * Decompresses exactly `outLength` bytes ([MS-XCA] 2.4). Throws an Error naming the input
 * position on corrupt or truncated input, a match reaching before the start of the output, or
 * output overrun. Input after the last needed symbol is ignored unless `strict`.
 */
export function decompressXpress(
	src: Uint8Array,
	outLength: number,
	opts: XpressDecompressOptions = {},
): Uint8Array {
	if (!Number.isInteger(outLength) || outLength < 0) {
		throw new RangeError(`XPRESS: bad output length ${outLength}`);
	}
	const out = new Uint8Array(outLength);
	const fail = (what: string, at: number): never => {
		throw new Error(`XPRESS: ${what} at input offset ${at} (output ${outPos}/${outLength})`);
	};
	const need = (count: number, what: string): void => {
		if (inPos + count > src.length) fail(`truncated input reading ${what}`, inPos);
	};
	const rd16 = (at: number): number => src[at]! | (src[at + 1]! << 8);
	const rd32 = (at: number): number =>
		(src[at]! | (src[at + 1]! << 8) | (src[at + 2]! << 16) | (src[at + 3]! << 24)) >>> 0;

	let inPos = 0;
	let outPos = 0;
	let flags = 0;
	let flagCount = 0;
	let halfBytePos = 0;

	while (outPos < outLength) {
		if (flagCount === 0) {
			need(4, 'flag word');
			flags = rd32(inPos);
			inPos += 4;
			flagCount = 32;
		}
		flagCount--;
		if ((flags & (1 << flagCount)) === 0) {
			need(1, 'literal');
			out[outPos++] = src[inPos++]!;
			continue;
		}
		if (inPos === src.length) fail('input ended before the output was complete', inPos);
		const tokenAt = inPos;
		need(2, 'match token');
		const token = rd16(inPos);
		inPos += 2;
		let length = token & 7;
		const offset = (token >>> 3) + 1;
		if (length === 7) {
			if (halfBytePos === 0) {
				need(1, 'length nibble');
				length = src[inPos]! & 15;
				halfBytePos = inPos;
				inPos++;
			} else {
				length = src[halfBytePos]! >>> 4;
				halfBytePos = 0;
			}
			if (length === 15) {
				need(1, 'length byte');
				length = src[inPos++]!;
				if (length === 255) {
					need(2, 'length u16');
					length = rd16(inPos);
					inPos += 2;
					if (length === 0) {
						need(4, 'length u32');
						length = rd32(inPos);
						inPos += 4;
					}
					if (length < 15 + 7) fail(`length escape value ${length} below 22`, inPos);
					length -= 15 + 7;
				}
				length += 15;
			}
			length += 7;
		}
		length += 3;
		if (offset > outPos) fail(`match offset ${offset} reaches before the output start`, tokenAt);
		if (outPos + length > outLength) {
			fail(`match of length ${length} overruns the output (${outLength} bytes)`, tokenAt);
		}
		for (let i = 0; i < length; i++, outPos++) out[outPos] = out[outPos - offset]!;
	}

	if (opts.strict) {
		// What may remain: the rest of the current flag word's bits, all 1 with no input left; or
		// (when the word was used up) one whole 0xFFFFFFFF word and nothing after it.
		if (flagCount > 0) {
			const span = 2 ** flagCount;
			if ((flags >>> 0) % span !== span - 1 || inPos !== src.length) {
				fail('unexpected data after the end of the output', inPos);
			}
		} else if (inPos !== src.length) {
			if (inPos + 4 !== src.length || rd32(inPos) !== 0xffffffff) {
				fail('unexpected data after the end of the output', inPos);
			}
		}
	}
	return out;
}
