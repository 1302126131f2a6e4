// Counts per key (integers from 0 to 2^53), in an open-addressing hash table over typed arrays:
// a group-by over ten million events made two Map operations per event, most of its time.

const EMPTY = -1;
const TWO32 = 4294967296;

export class CountTable {
	#keys = new Float64Array(256).fill(EMPTY);
	#counts = new Float64Array(256);
	#size = 0;

	/** Counts `key` `n` times more (once unless told). */
	add(key: number, n = 1): void {
		const mask = this.#keys.length - 1;
		for (let k = slot(key, mask); ; k = (k + 1) & mask) {
			const x = this.#keys[k]!;
			if (x === key) {
				this.#counts[k]! += n;
				return;
			}
			if (x === EMPTY) {
				this.#keys[k] = key;
				this.#counts[k] = n;
				if (++this.#size * 2 > this.#keys.length) this.#grow();
				return;
			}
		}
	}

	/** [key, count] of every key counted, in no particular order. */
	entries(): [number, number][] {
		const out: [number, number][] = [];
		for (let k = 0; k < this.#keys.length; k++)
			if (this.#keys[k] !== EMPTY) out.push([this.#keys[k]!, this.#counts[k]!]);
		return out;
	}

	#grow(): void {
		const [keys, counts] = [this.#keys, this.#counts];
		this.#keys = new Float64Array(keys.length * 2).fill(EMPTY);
		this.#counts = new Float64Array(keys.length * 2);
		const mask = this.#keys.length - 1;
		for (let j = 0; j < keys.length; j++) {
			if (keys[j] === EMPTY) continue;
			let k = slot(keys[j]!, mask);
			while (this.#keys[k] !== EMPTY) k = (k + 1) & mask;
			this.#keys[k] = keys[j]!;
			this.#counts[k] = counts[j]!;
		}
	}
}

function slot(key: number, mask: number): number {
	const lo = key >>> 0;
	const hi = (key / TWO32) | 0;
	return ((Math.imul(lo ^ (lo >>> 15), 0x2c1b3c6d) ^ Math.imul(hi, 0x297a2d39)) >>> 0) & mask;
}
