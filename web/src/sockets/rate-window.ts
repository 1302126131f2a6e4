// "n occurrences within a window" in O(1) per occurrence: the times of the last n-1 in a ring.

export class RateWindow {
	readonly #ring: Float64Array;
	readonly #window: number;
	#at = 0;

	/** `n` occurrences within `windowTicks` (100 ns units). */
	constructor(n: number, windowTicks: number) {
		this.#ring = new Float64Array(Math.max(1, n - 1)).fill(-Infinity);
		this.#window = n <= 1 ? Infinity : windowTicks;
	}

	/** Records an occurrence; true when it and the n-1 before it fall within the window. */
	hit(ticks: number): boolean {
		const oldest = this.#ring[this.#at]!;
		this.#ring[this.#at] = ticks;
		this.#at = (this.#at + 1) % this.#ring.length;
		return ticks - oldest <= this.#window;
	}
}
