// 64-bit pointer values (as high and low halves) → a number, in an open-addressing hash table
// over typed arrays: the builder looks up two pointers per Winsock event, and nested Maps cost
// more than the rest of the row.

const EMPTY = -1;

export class PointerTable {
	#hi = new Int32Array(1024);
	#lo = new Int32Array(1024);
	#value = new Int32Array(1024).fill(EMPTY);
	#size = 0;

	/**
	 * The value kept for the pointer stored little-endian at words[at] (low half) and
	 * words[at + 1], or -1. The halves are read and looked up here, never passed to a call: a
	 * half of 2^30 or more (most kernel pointers) passed as an argument is boxed, two allocations
	 * per lookup, where small integers are 31 bits wide (as in browsers).
	 */
	getAt(words: Uint32Array, at: number): number {
		const lo = words[at]! | 0;
		const hi = words[at + 1]! | 0;
		const mask = this.#value.length - 1;
		for (let k = slot(hi, lo, mask); ; k = (k + 1) & mask) {
			const v = this.#value[k]!;
			if (v === EMPTY || (this.#hi[k] === hi && this.#lo[k] === lo)) return v;
		}
	}

	/** Keeps `value` (≥ 0) for (hi, lo), which must not be there yet. */
	set(hi: number, lo: number, value: number): void {
		if ((this.#size + 1) * 2 > this.#value.length) this.#grow();
		this.#put(hi, lo, value);
		this.#size++;
	}

	#put(hi: number, lo: number, value: number): void {
		const mask = this.#value.length - 1;
		let k = slot(hi, lo, mask);
		while (this.#value[k] !== EMPTY) k = (k + 1) & mask;
		this.#hi[k] = hi;
		this.#lo[k] = lo;
		this.#value[k] = value;
	}

	#grow(): void {
		const [hi, lo, value] = [this.#hi, this.#lo, this.#value];
		this.#hi = new Int32Array(hi.length * 2);
		this.#lo = new Int32Array(hi.length * 2);
		this.#value = new Int32Array(hi.length * 2).fill(EMPTY);
		for (let k = 0; k < value.length; k++)
			if (value[k] !== EMPTY) this.#put(hi[k]!, lo[k]!, value[k]!);
	}
}

function slot(hi: number, lo: number, mask: number): number {
	// Pointers are aligned and share their high half: mix both before masking.
	return ((Math.imul(lo ^ (lo >>> 15), 0x2c1b3c6d) ^ Math.imul(hi, 0x297a2d39)) >>> 0) & mask;
}

/** A pointer value given as halves, as lowercase 0x-hex text without leading zeros. */
export function pointerText(hi: number, lo: number): string {
	return hi
		? `0x${(hi >>> 0).toString(16)}${(lo >>> 0).toString(16).padStart(8, '0')}`
		: `0x${(lo >>> 0).toString(16)}`;
}
