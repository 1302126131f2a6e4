// Record indexes of one socket's events. 4 bytes each: a 10 M-event trace costs 40 MB at most,
// which a worker holds easily, and the UI can list every event of a socket. A cap bounds one
// very busy socket: past it, the first cap/2 indexes stay and the last cap/2 roll in a ring.
import { freeNow } from '../lib/free-memory.ts';

export class IndexList {
	#head = new Uint32Array(8);
	#headLength = 0;
	#tail: Uint32Array | null = null;
	#tailAt = 0;
	#count = 0;
	readonly #half: number;

	/** `cap`: how many indexes to keep (Infinity: all). */
	constructor(cap = Infinity) {
		this.#half = Number.isFinite(cap) ? Math.max(1, Math.floor(cap / 2)) : Infinity;
	}

	get count(): number {
		return this.#count;
	}

	get first(): number {
		return this.#head[0]!;
	}

	get last(): number {
		if (this.#tail && this.#count > this.#headLength)
			return this.#tail[(this.#tailAt + this.#tail.length - 1) % this.#tail.length]!;
		return this.#head[this.#headLength - 1]!;
	}

	push(index: number): void {
		this.#count++;
		if (this.#headLength < this.#half) {
			if (this.#headLength === this.#head.length) {
				const grown = new Uint32Array(Math.min(this.#head.length * 2, this.#half));
				grown.set(this.#head);
				this.#head = grown;
			}
			this.#head[this.#headLength++] = index;
			return;
		}
		const tail = (this.#tail ??= new Uint32Array(this.#half));
		tail[this.#tailAt] = index;
		if (++this.#tailAt === tail.length) this.#tailAt = 0;
	}

	/**
	 * Frees its memory now (a tracker done with its sockets: an import's end, when tens of
	 * thousands of lists are let go while the summaries are made). It holds nothing afterwards.
	 */
	free(): void {
		freeNow(this.#head);
		if (this.#tail) freeNow(this.#tail);
		this.#head = new Uint32Array(0);
		this.#headLength = 0;
		this.#tail = null;
		this.#tailAt = 0;
		this.#count = 0;
	}

	/** The kept indexes in order (a copy). */
	toArray(): Uint32Array {
		const inTail = Math.min(this.#count - this.#headLength, this.#tail?.length ?? 0);
		const out = new Uint32Array(this.#headLength + inTail);
		out.set(this.#head.subarray(0, this.#headLength));
		if (this.#tail && inTail > 0) {
			const start = inTail < this.#tail.length ? 0 : this.#tailAt;
			for (let k = 0; k < inTail; k++)
				out[this.#headLength + k] = this.#tail[(start + k) % this.#tail.length]!;
		}
		return out;
	}
}
