// A small seeded PRNG (mulberry32) so builders and tests are deterministic.

export class Prng {
	private s: number;

	constructor(seed: number) {
		this.s = seed >>> 0;
	}

	/** Uniform in [0, 2^32). */
	nextU32(): number {
		this.s = (this.s + 0x6d2b79f5) >>> 0;
		let t = this.s;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return (t ^ (t >>> 14)) >>> 0;
	}

	/** Uniform in [0, 1). */
	next(): number {
		return this.nextU32() / 0x100000000;
	}

	/** Integer in [min, max] (inclusive). */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	/** True with probability p. */
	chance(p: number): boolean {
		return this.next() < p;
	}

	pick<T>(items: readonly T[]): T {
		if (items.length === 0) throw new Error('pick from an empty list');
		return items[this.int(0, items.length - 1)]!;
	}

	bytes(n: number): Uint8Array {
		const out = new Uint8Array(n);
		for (let i = 0; i < n; i++) out[i] = this.nextU32() & 0xff;
		return out;
	}
}
