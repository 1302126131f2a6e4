// Mutations of valid traces for the fuzz tests: byte flips, overwritten words, truncation,
// duplicated and dropped ranges. Deterministic for a seed.
import { concat } from '../builders/bytes.ts';

export function rng(seed: number): () => number {
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

export function mutate(input: Uint8Array, seed: number): Uint8Array {
	const r = rng(seed);
	const pick = (n: number) => Math.floor(r() * n);
	let b = input.slice();
	const rounds = 1 + pick(4);
	for (let k = 0; k < rounds; k++) {
		switch (pick(6)) {
			case 0: // flip a few bytes
				for (let i = 0, n = 1 + pick(16); i < n; i++) {
					const at = pick(b.length);
					b[at] = b[at]! ^ (1 << pick(8));
				}
				break;
			case 1: {
				// overwrite a 16- or 32-bit word with an edge value (sizes, offsets, markers)
				const v = [0, 1, 7, 8, 0x47, 0x48, 0x50, 0xffff, 0xffffffff, 0x80000000][pick(10)]!;
				const at = pick(Math.max(1, b.length - 4));
				new DataView(b.buffer).setUint32(at, v, true);
				break;
			}
			case 2: // truncate
				b = b.slice(0, pick(b.length + 1));
				break;
			case 3: {
				// duplicate a range
				const from = pick(b.length);
				const len = pick(Math.min(4096, b.length - from + 1));
				const at = pick(b.length + 1);
				const out = new Uint8Array(b.length + len);
				out.set(b.subarray(0, at));
				out.set(b.subarray(from, from + len), at);
				out.set(b.subarray(at), at + len);
				b = out;
				break;
			}
			case 4: {
				// drop a range
				const from = pick(b.length);
				const len = pick(Math.min(4096, b.length - from + 1));
				const out = new Uint8Array(b.length - len);
				out.set(b.subarray(0, from));
				out.set(b.subarray(from + len), from);
				b = out;
				break;
			}
			default:
				// scribble random bytes over a short range
				for (let at = pick(b.length), i = 0, n = pick(64); i < n && at + i < b.length; i++)
					b[at + i] = pick(256);
		}
		if (b.length === 0) break;
	}
	return b;
}

const BUFFER_HEADER = 0x48;
/** WMI_BUFFER_HEADER fields a structural mutation may set: BufferSize, Offset, sequence, CPU, flags. */
const BUFFER_FIELDS = [
	[0x00, 4],
	[0x30, 4],
	[0x18, 8],
	[0x28, 2],
	[0x34, 2],
] as const;
/** TRACE_LOGFILE_HEADER (64-bit) fields: BufferSize, NumberOfProcessors, EndTime, BuffersWritten, PerfFreq, ReservedFlags. */
const LOGFILE_FIELDS = [
	[0x00, 4],
	[0x0c, 4],
	[0x10, 8],
	[0x24, 4],
	[0x100, 8],
	[0x110, 4],
] as const;
const EDGES = [0, 1, 2, 0x47, 0x48, 0x1000, 0xffff, 0x10000, 0x4000000, 0x7fffffff, 0xffffffff];

/** Byte offsets of the buffers of `b`, stepping each BufferSize while it is sane. */
export function bufferStarts(b: Uint8Array): number[] {
	const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
	const out: number[] = [];
	for (let at = 0; at + BUFFER_HEADER <= b.length;) {
		out.push(at);
		const size = v.getUint32(at, true);
		if (size < BUFFER_HEADER) break;
		at += size;
	}
	return out;
}

/**
 * Mutations that know the file's structure: buffers duplicated, dropped or swapped, a buffer
 * header or trace header field set to an edge value. Deterministic for a seed.
 */
export function mutateStructure(input: Uint8Array, seed: number): Uint8Array {
	const r = rng(seed);
	const pick = (n: number) => Math.floor(r() * n);
	const starts = bufferStarts(input);
	const ends = starts.map((_, k) => starts[k + 1] ?? input.length);
	const pieces = starts.map((s, k) => input.slice(s, ends[k]));
	if (pieces.length < 2) return mutate(input, seed);
	const set = (b: Uint8Array, at: number, width: number, value: number) => {
		if (at + width > b.length) return;
		const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
		if (width === 2) v.setUint16(at, value & 0xffff, true);
		else if (width === 4) v.setUint32(at, value >>> 0, true);
		else v.setBigUint64(at, BigInt(value), true);
	};
	const k = 1 + pick(pieces.length - 1);
	switch (pick(6)) {
		case 0: // a buffer repeated
			pieces.splice(k, 0, pieces[k]!.slice());
			break;
		case 1: // a buffer dropped
			pieces.splice(k, 1);
			break;
		case 2: {
			// two buffers swapped
			const j = 1 + pick(pieces.length - 1);
			[pieces[k], pieces[j]] = [pieces[j]!, pieces[k]!];
			break;
		}
		case 3: {
			// a buffer header field
			const [at, width] = BUFFER_FIELDS[pick(BUFFER_FIELDS.length)]!;
			set(pieces[k]!, at, width, EDGES[pick(EDGES.length)]!);
			break;
		}
		case 4: {
			// a trace header field (buffer 0, after the SYSTEM header)
			const [at, width] = LOGFILE_FIELDS[pick(LOGFILE_FIELDS.length)]!;
			set(pieces[0]!, BUFFER_HEADER + 0x20 + at, width, EDGES[pick(EDGES.length)]!);
			break;
		}
		default: // bytes of one buffer's data scrambled (records, or XPRESS data)
			return mutate(concat(pieces), seed);
	}
	return concat(pieces);
}
