// Filter scans over a chunk's columns, sixteen rows at a time (WASM SIMD): a module of its own,
// so that the decoder runs where SIMD does not. The rows of [0, n) that pass every term of a
// conjunction are written as row numbers (u16) to `out`, and counted. The caller
// (web/src/query/wasm-scan.ts) reserves an area (reserve, areaPtr), copies the columns into it
// and describes each term by TERM_WORDS u32 words at `terms`:
//   [kind, column, a, b, flags column, need]
// kind LOOKUP8: a 32-byte bitmap at `a` (bit v set: value v passes) over a u8 column.
// kind RANGE8/16/32: value - a ≤ b (unsigned) over a u8/u16/u32 column; with `need` ≠ 0, also
//   (flags & need) ≠ 0 over the u8 flags column.
// kind FLAG: (column & need) ≠ 0 over a u8 column.
// NEGATE added to LOOKUP8 or a RANGE kind negates its value test (a range's flags still apply).
// The last sixteen rows may run past n: the caller reserves room for them, and their lanes are
// dropped.

export const TERM_WORDS: u32 = 6;

const AREA: usize = (__heap_base + 15) & ~15;

/** Where the caller's area starts. */
export function areaPtr(): usize {
	return AREA;
}

/** Makes the area at least `n` bytes; false when memory cannot grow that far. */
export function reserve(n: u32): bool {
	const need = (AREA + <usize>n + 0xffff) >> 16;
	const have = <usize>memory.size();
	return need <= have || memory.grow(<i32>(need - have)) >= 0;
}
export const LOOKUP8: u32 = 1;
export const RANGE8: u32 = 2;
export const RANGE16: u32 = 3;
export const RANGE32: u32 = 4;
export const FLAG: u32 = 5;
export const NEGATE: u32 = 0x100;

const ZERO = i8x16.splat(0);
const BITS = i8x16(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);

/** The lanes of rows [i, i + 16) that pass the term at `t` (0xff or 0 each). */
function termMask(t: usize, i: u32): v128 {
	const word = load<u32>(t);
	const kind = word & 0xff;
	const negate = (word & NEGATE) != 0;
	const col = <usize>load<u32>(t, 4);
	const a = load<u32>(t, 8);
	const b = load<u32>(t, 12);
	if (kind == LOOKUP8) {
		const v = v128.load(col + i);
		// Byte v >> 3 of the bitmap: from its first sixteen bytes or its last (swizzle gives 0
		// for a lane index of 16 or more, so each half answers only for its own bytes).
		const at = i8x16.shr_u(v, 3);
		const byte = v128.or(
			v128.swizzle(v128.load(<usize>a), at),
			v128.swizzle(v128.load(<usize>a, 16), i8x16.sub(at, i8x16.splat(16))),
		);
		const bit = v128.swizzle(BITS, v128.and(v, i8x16.splat(7)));
		const hit = i8x16.ne(v128.and(byte, bit), ZERO);
		return negate ? v128.not(hit) : hit;
	}
	if (kind == FLAG) {
		const need = <u8>load<u32>(t, 20);
		return i8x16.ne(v128.and(v128.load(col + i), i8x16.splat(need)), ZERO);
	}
	let pass: v128;
	if (kind == RANGE8) {
		pass = i8x16.le_u(i8x16.sub(v128.load(col + i), i8x16.splat(<u8>a)), i8x16.splat(<u8>b));
	} else if (kind == RANGE16) {
		const p = col + ((<usize>i) << 1);
		const lo = i16x8.splat(<u16>a);
		const span = i16x8.splat(<u16>b);
		pass = i8x16.narrow_i16x8_s(
			i16x8.le_u(i16x8.sub(v128.load(p), lo), span),
			i16x8.le_u(i16x8.sub(v128.load(p, 16), lo), span),
		);
	} else {
		const p = col + ((<usize>i) << 2);
		const lo = i32x4.splat(a);
		const span = i32x4.splat(b);
		pass = i8x16.narrow_i16x8_s(
			i16x8.narrow_i32x4_s(
				i32x4.le_u(i32x4.sub(v128.load(p), lo), span),
				i32x4.le_u(i32x4.sub(v128.load(p, 16), lo), span),
			),
			i16x8.narrow_i32x4_s(
				i32x4.le_u(i32x4.sub(v128.load(p, 32), lo), span),
				i32x4.le_u(i32x4.sub(v128.load(p, 48), lo), span),
			),
		);
	}
	if (negate) pass = v128.not(pass);
	const need = <u8>load<u32>(t, 20);
	if (need == 0) return pass;
	const flags = <usize>load<u32>(t, 16);
	return v128.and(pass, i8x16.ne(v128.and(v128.load(flags + i), i8x16.splat(need)), ZERO));
}

/**
 * Rows of [0, n) passing all `count` terms at `terms`, written to `out` as `first` + row; how
 * many. With `out` 0 they are only counted.
 */
export function scanAll(terms: usize, count: u32, n: u32, out: usize, first: u32): u32 {
	let m: u32 = 0;
	for (let i: u32 = 0; i < n; i += 16) {
		let mask = termMask(terms, i);
		for (let k: u32 = 1; k < count; k++) {
			if (!v128.any_true(mask)) break;
			mask = v128.and(mask, termMask(terms + <usize>(k * TERM_WORDS * 4), i));
		}
		let bits = i8x16.bitmask(mask);
		if (n - i < 16) bits &= (1 << (n - i)) - 1;
		if (out == 0) {
			m += <u32>popcnt(bits);
			continue;
		}
		while (bits != 0) {
			store<u16>(out + ((<usize>m) << 1), <u16>(first + i + ctz(bits)));
			m++;
			bits &= bits - 1;
		}
	}
	return m;
}
