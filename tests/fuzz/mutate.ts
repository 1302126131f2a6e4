// Mutations of traces for the fuzzer: byte-level ones (flips, overwritten words, truncation,
// duplicated, dropped and inserted ranges) and structural ones that aim at the places a
// structure map (structure.ts) names: buffer and record header fields, payload sizes, event
// fields, TraceLogging metadata, XPRESS streams. Every mutator is total: any input, 0 bytes
// included, gives an output and never throws (mutate.test.ts checks it). Deterministic for a seed.
import { concat } from '../builders/bytes.ts';
import type { Spot, StructureMap } from './structure.ts';

export type Rng = () => number;

export function rng(seed: number): Rng {
	let s = seed >>> 0 || 1;
	return () => {
		// xorshift32
		s ^= s << 13;
		s >>>= 0;
		s ^= s >>> 17;
		s ^= s << 5;
		s >>>= 0;
		return s / 0x100000000;
	};
}

/** An integer in [0, n); 0 when n < 1, so a pick over an empty range is still a number. */
export function picker(r: Rng): (n: number) => number {
	return (n) => (n >= 1 ? Math.floor(r() * n) : 0);
}

/** Values that sizes, offsets, counts and markers are most often wrong by. */
export const EDGES = [
	0, 1, 2, 3, 4, 7, 8, 0x10, 0x18, 0x20, 0x47, 0x48, 0x50, 0x7f, 0x80, 0xff, 0x100, 0x1000, 0x7fff,
	0x8000, 0xffff, 0x10000, 0x100000, 0x4000000, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
];

/** Writes `value` (little-endian, truncated to `width` bytes) at `at`; nothing outside `b`. */
export function setWord(b: Uint8Array, at: number, width: number, value: number | bigint): void {
	let v = BigInt.asUintN(64, BigInt(value));
	for (let k = 0; k < width && at + k < b.length; k++, v >>= 8n)
		if (at + k >= 0) b[at + k] = Number(v & 0xffn);
}

export function getWord(b: Uint8Array, at: number, width: number): bigint {
	let v = 0n;
	for (let k = Math.min(width, 8) - 1; k >= 0; k--)
		v = (v << 8n) | BigInt(at + k >= 0 && at + k < b.length ? b[at + k]! : 0);
	return v;
}

const MAX_RANGE = 4096;

/** One byte-level mutation of `b` within [lo, hi) (the whole input by default). */
export type ByteMutator = (b: Uint8Array, pick: (n: number) => number) => Uint8Array;

export const BYTE_MUTATORS: Readonly<Record<string, ByteMutator>> = {
	flip(b, pick) {
		for (let i = 0, n = 1 + pick(16); i < n && b.length > 0; i++) {
			const at = pick(b.length);
			b[at] = b[at]! ^ (1 << pick(8));
		}
		return b;
	},
	word(b, pick) {
		// a 1-, 2-, 4- or 8-byte word set to an edge value, or nudged by a little
		const width = [1, 2, 4, 8][pick(4)]!;
		const at = pick(Math.max(1, b.length - width + 1));
		const old = getWord(b, at, width);
		const value = pick(3) === 0 ? old + BigInt(pick(17) - 8) : BigInt(EDGES[pick(EDGES.length)]!);
		setWord(b, at, width, value);
		return b;
	},
	truncate(b, pick) {
		return b.slice(0, pick(b.length + 1));
	},
	duplicate(b, pick) {
		const from = pick(b.length);
		const len = pick(Math.min(MAX_RANGE, b.length - from) + 1);
		const at = pick(b.length + 1);
		const out = new Uint8Array(b.length + len);
		out.set(b.subarray(0, at));
		out.set(b.subarray(from, from + len), at);
		out.set(b.subarray(at), at + len);
		return out;
	},
	drop(b, pick) {
		const from = pick(b.length);
		const len = pick(Math.min(MAX_RANGE, b.length - from) + 1);
		const out = new Uint8Array(b.length - len);
		out.set(b.subarray(0, from));
		out.set(b.subarray(from + len), from);
		return out;
	},
	insert(b, pick) {
		const at = pick(b.length + 1);
		const len = 1 + pick(64);
		const out = new Uint8Array(b.length + len);
		out.set(b.subarray(0, at));
		for (let i = 0; i < len; i++) out[at + i] = pick(3) === 0 ? 0 : pick(256);
		out.set(b.subarray(at), at + len);
		return out;
	},
	scribble(b, pick) {
		for (let at = pick(b.length), i = 0, n = pick(64); i < n && at + i < b.length; i++)
			b[at + i] = pick(256);
		return b;
	},
};
const BYTE_NAMES = Object.keys(BYTE_MUTATORS);

/** One to four byte-level mutations of a copy of `input`. */
export function mutate(input: Uint8Array, seed: number): Uint8Array {
	const pick = picker(rng(seed));
	let b: Uint8Array = input.slice();
	for (let k = 0, rounds = 1 + pick(4); k < rounds; k++)
		b = BYTE_MUTATORS[BYTE_NAMES[pick(BYTE_NAMES.length)]!]!(b, pick);
	return b;
}

/** A mutation of the bytes of one spot only (a payload, a metadata blob, an XPRESS stream). */
function mutateInside(b: Uint8Array, spot: Spot, pick: (n: number) => number): Uint8Array {
	const lo = Math.min(spot.at, b.length);
	const hi = Math.min(spot.at + spot.width, b.length);
	const inner = BYTE_MUTATORS[BYTE_NAMES[pick(BYTE_NAMES.length)]!]!(b.slice(lo, hi), pick);
	return concat([b.subarray(0, lo), inner, b.subarray(hi)]);
}

/** The structural mutations, by name (the outcome table and the property test list them). */
export const STRUCTURE_MUTATORS: Readonly<
	Record<string, (b: Uint8Array, map: StructureMap, pick: (n: number) => number) => Uint8Array>
> = {
	/** A header, size, count or field word set to an edge value, nudged, or copied from a sibling. */
	field(b, map, pick) {
		const words = map.spots.filter((s) => s.width <= 8);
		if (words.length === 0) return BYTE_MUTATORS.word!(b, pick);
		const s = words[pick(words.length)]!;
		const old = getWord(b, s.at, s.width);
		const how = pick(4);
		const value =
			how === 0
				? old + BigInt(pick(9) - 4)
				: how === 1
					? old ^ (1n << BigInt(pick(s.width * 8)))
					: how === 2
						? getWord(b, words[pick(words.length)]!.at, s.width)
						: BigInt(EDGES[pick(EDGES.length)]!);
		setWord(b, s.at, s.width, value);
		return b;
	},
	/** Bytes inside one region (payload, TraceLogging metadata, XPRESS stream) changed. */
	region(b, map, pick) {
		const regions = map.spots.filter((s) => s.width > 8);
		if (regions.length === 0) return BYTE_MUTATORS.scribble!(b, pick);
		return mutateInside(b, regions[pick(regions.length)]!, pick);
	},
	/** A buffer repeated, dropped, swapped with another, or cut short. */
	buffers(b, map, pick) {
		const starts = map.buffers.filter((s) => s < b.length);
		if (starts.length < 2) return BYTE_MUTATORS.truncate!(b, pick);
		const pieces = starts.map((s, k) => b.slice(s, starts[k + 1] ?? b.length));
		const k = 1 + pick(pieces.length - 1);
		switch (pick(4)) {
			case 0:
				pieces.splice(k, 0, pieces[k]!.slice());
				break;
			case 1:
				pieces.splice(k, 1);
				break;
			case 2: {
				const j = 1 + pick(pieces.length - 1);
				[pieces[k], pieces[j]] = [pieces[j]!, pieces[k]!];
				break;
			}
			default:
				pieces[k] = pieces[k]!.slice(0, pick(pieces[k]!.length + 1));
		}
		return concat(pieces);
	},
	/** A record repeated or dropped inside its buffer (the buffer keeps its size). */
	records(b, map, pick) {
		const records = map.spots.filter((s) => s.kind === 'record');
		if (records.length === 0) return BYTE_MUTATORS.duplicate!(b, pick);
		const r = records[pick(records.length)]!;
		const lo = Math.min(r.at, b.length);
		const hi = Math.min(r.at + r.width, b.length);
		const copy = b.slice(lo, hi);
		return pick(2) === 0
			? concat([b.subarray(0, hi), copy, b.subarray(hi)])
			: concat([b.subarray(0, lo), b.subarray(hi)]);
	},
};
const STRUCTURE_NAMES = Object.keys(STRUCTURE_MUTATORS);

/**
 * One to three structural mutations guided by `map` (the spots of the unmutated input), with a
 * byte-level mutation now and then; offsets past a shortened input are no-ops.
 */
export function mutateStructure(input: Uint8Array, map: StructureMap, seed: number): Uint8Array {
	const pick = picker(rng(seed));
	let b: Uint8Array = input.slice();
	for (let k = 0, rounds = 1 + pick(3); k < rounds; k++) {
		if (pick(5) === 0) b = BYTE_MUTATORS[BYTE_NAMES[pick(BYTE_NAMES.length)]!]!(b, pick);
		else b = STRUCTURE_MUTATORS[STRUCTURE_NAMES[pick(STRUCTURE_NAMES.length)]!]!(b, map, pick);
	}
	return b;
}

/** Byte offsets of the buffers of `b`, stepping each BufferSize while it is sane. */
export function bufferStarts(b: Uint8Array): number[] {
	const out: number[] = [];
	for (let at = 0; at + 0x48 <= b.length;) {
		out.push(at);
		const size = Number(getWord(b, at, 4));
		if (size < 0x48) break;
		at += size;
	}
	return out;
}
