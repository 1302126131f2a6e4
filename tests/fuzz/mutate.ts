// Mutations of valid traces for the fuzz tests: byte flips, overwritten words, truncation,
// duplicated and dropped ranges. Deterministic for a seed.

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
				for (let i = 0, n = 1 + pick(16); i < n; i++) b[pick(b.length)] ^= 1 << pick(8);
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
