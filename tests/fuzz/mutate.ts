// Mutations of traces for the fuzzer: byte-level ones (flips, overwritten words, truncation,
// duplicated, dropped and inserted ranges) and structural ones that aim at the places a
// structure map (structure.ts) names: buffer and record header fields, payload sizes, event
// fields, TraceLogging metadata, XPRESS streams, and inside packet events the fragment flags and
// sizes, each protocol header's words (Ethernet, 802.1Q, ARP, IPv4, IPv6 and its extension
// headers, TCP and its options, UDP, ICMP) and DNS counts and name compression pointers (loops
// included). Every mutator is total: any input, 0 bytes
// included, gives an output and never throws (mutate.test.ts checks it). Deterministic for a seed.
import { NDIS_KEYWORDS } from '../../web/src/generated/packet-capture.ts';
import { concat } from '../builders/bytes.ts';
import { PACKET_SPOTS, type Spot, type StructureMap } from './structure.ts';

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

/** Writes `value` big-endian (truncated to `width` bytes) at `at`, as the wire has it; nothing outside `b`. */
export function setWordBE(b: Uint8Array, at: number, width: number, value: number | bigint): void {
	let v = BigInt.asUintN(64, BigInt(value));
	for (let k = width - 1; k >= 0; k--, v >>= 8n)
		if (at + k >= 0 && at + k < b.length) b[at + k] = Number(v & 0xffn);
}

function getWordBE(b: Uint8Array, at: number, width: number): bigint {
	let v = 0n;
	for (let k = 0; k < Math.min(width, 8); k++)
		v = (v << 8n) | BigInt(at + k >= 0 && at + k < b.length ? b[at + k]! : 0);
	return v;
}

/** RFC 1035: a 12-byte header, the question and answer counts at 4 and 6; a pointer is 0b11 and 14 bits. */
const DNS_HEADER = 12;
const DNS_COUNTS = [4, 6, 8, 10];
const DNS_POINTER = 0xc0;

/** A compression pointer at `at` to `offset` in the message (14 bits, so past the end too). */
function dnsPointer(b: Uint8Array, at: number, offset: number): void {
	setWordBE(b, at, 2, ((DNS_POINTER << 8) | (offset & 0x3fff)) & 0xffff);
}

/** A DNS message's counts, label types or compression pointers made to lie or loop. */
function mutateDns(b: Uint8Array, s: Spot, pick: (n: number) => number): Uint8Array {
	const lo = s.at;
	const hi = Math.min(s.at + s.width, b.length);
	if (hi - lo < DNS_HEADER + 2) return b;
	// Where a name's labels start (the first question's) and where pointers already are.
	const places: number[] = [];
	for (let p = lo + DNS_HEADER; p < hi && places.length < 64;) {
		places.push(p);
		const len = b[p]!;
		if (len === 0 || len & DNS_POINTER) break;
		p += 1 + len;
	}
	for (let p = lo + DNS_HEADER; p + 1 < hi; p++)
		if ((b[p]! & DNS_POINTER) === DNS_POINTER) places.push(p);
	const at = places[pick(places.length)]!;
	const other = places[pick(places.length)]!;
	switch (pick(6)) {
		case 0: // a pointer to itself
			dnsPointer(b, at, at - lo);
			break;
		case 1: // two names pointing at each other
			dnsPointer(b, at, other - lo);
			dnsPointer(b, other, at - lo);
			break;
		case 2: // a pointer to another name, before or after
			dnsPointer(b, at, other - lo);
			break;
		case 3: // a pointer past the message
			dnsPointer(b, at, hi - lo + pick(3) * pick(0x4000));
			break;
		case 4: // the reserved label types 0b01 and 0b10
			b[at] = (pick(2) ? 0x40 : 0x80) | (b[at]! & 0x3f);
			break;
		default: // a count that says more (or fewer) records than there are
			setWordBE(b, lo + DNS_COUNTS[pick(DNS_COUNTS.length)]!, 2, [0, 1, 2, 0x7f, 0xffff][pick(5)]!);
	}
	return b;
}

/** The keyword bits NDIS-PacketCapture says fragments and direction with. */
const NDIS_BITS = Object.values(NDIS_KEYWORDS);

/** A mutation inside a packet event: its flags, a size, a header word, or its DNS message. */
function mutatePacket(b: Uint8Array, s: Spot, pick: (n: number) => number): Uint8Array {
	switch (s.kind) {
		case 'packet-keyword': {
			// A fragment that loses its start or end, a direction or medium changed.
			const old = getWord(b, s.at, 8);
			setWord(b, s.at, 8, old ^ NDIS_BITS[pick(NDIS_BITS.length)]!);
			return b;
		}
		case 'packet-size': {
			const old = getWord(b, s.at, s.width);
			const how = pick(3);
			const value =
				how === 0
					? old + BigInt(pick(33) - 16)
					: how === 1
						? old * 2n
						: BigInt(EDGES[pick(EDGES.length)]!);
			setWord(b, s.at, s.width, value);
			return b;
		}
		case 'dns':
			return mutateDns(b, s, pick);
		default: {
			// A word of a protocol header: a length, offset, flag, type or count, big-endian.
			const width = [1, 2, 4][pick(3)]!;
			const at = s.at + pick(Math.max(1, s.width - width + 1));
			const old = getWordBE(b, at, width);
			const how = pick(4);
			const value =
				how === 0
					? old + BigInt(pick(17) - 8)
					: how === 1
						? old ^ (1n << BigInt(pick(width * 8)))
						: how === 2
							? old & ~0xfn // a nibble (IHL, data offset) zeroed
							: BigInt(EDGES[pick(EDGES.length)]!);
			setWordBE(b, at, width, value);
			return b;
		}
	}
}

/** The structural mutations, by name (the outcome table and the property test list them). */
export const STRUCTURE_MUTATORS: Readonly<
	Record<string, (b: Uint8Array, map: StructureMap, pick: (n: number) => number) => Uint8Array>
> = {
	/** A header, size, count or field word set to an edge value, nudged, or copied from a sibling. */
	field(b, map, pick) {
		const words = map.spots.filter((s) => s.width <= 8 && !PACKET_SPOTS.has(s.kind));
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
	/** Inside a packet event: fragment flags and sizes, a header word, DNS counts and pointers. */
	packet(b, map, pick) {
		const spots = map.spots.filter((s) => PACKET_SPOTS.has(s.kind));
		if (spots.length === 0) return STRUCTURE_MUTATORS.field!(b, map, pick);
		return mutatePacket(b, spots[pick(spots.length)]!, pick);
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
