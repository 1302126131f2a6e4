// Memory for the slices the decoding sends the sockets worker (slice-wire.ts), given back by the
// worker once it has followed them. Kept rather than left to the collector: a 1 GB import sends
// about 16,000 slices, and a pool that dropped what came back beyond a small cap allocated 660 MB
// of fresh slices, which sat uncollected in the decoder worker (its memory swung between 150 and
// 300 MB), each first copy into new memory also costing page faults.
import { freeBufferNow } from '../lib/free-memory.ts';

/** Sizes are rounded up to this: a slice is a buffer's image and tables (about 130-200 KiB). */
const GRAIN = 32 << 10;

export class SlicePool {
	/** Spare memory, smallest first. */
	readonly #free: ArrayBuffer[] = [];
	#bytes = 0;
	readonly #cap: number;
	/** Memory made new, in bytes, over the pool's life (what the collector would have had to free). */
	made = 0;

	/** `cap`: spare bytes kept at most; what comes back beyond it is freed at once. */
	constructor(cap: number) {
		this.#cap = cap;
	}

	/** Spare bytes held. */
	get bytes(): number {
		return this.#bytes;
	}

	/** Memory of `bytes` or more: the smallest spare that holds them, or new. */
	take(bytes: number): ArrayBuffer {
		const k = this.#firstHolding(bytes);
		if (k < this.#free.length) {
			const spare = this.#free.splice(k, 1)[0]!;
			this.#bytes -= spare.byteLength;
			return spare;
		}
		const size = Math.max(GRAIN, Math.ceil(bytes / GRAIN) * GRAIN);
		this.made += size;
		return new ArrayBuffer(size);
	}

	/** Memory the worker is done with (nothing else may read it); freed at once past the cap. */
	give(buffer: ArrayBuffer): void {
		if (buffer.byteLength === 0) return;
		if (this.#bytes + buffer.byteLength > this.#cap) return freeBufferNow(buffer);
		this.#free.splice(this.#firstHolding(buffer.byteLength), 0, buffer);
		this.#bytes += buffer.byteLength;
	}

	/** Frees every spare at once: nothing more will be sent. */
	clear(): void {
		for (const b of this.#free) freeBufferNow(b);
		this.#free.length = 0;
		this.#bytes = 0;
	}

	/** The index of the first spare of `bytes` or more (the spares' count when none). */
	#firstHolding(bytes: number): number {
		let lo = 0;
		let hi = this.#free.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (this.#free[mid]!.byteLength < bytes) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	}
}
