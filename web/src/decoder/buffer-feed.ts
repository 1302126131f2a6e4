// The buffers of a file as an index pass finds them, so that a merge can start decoding before
// the pass has read the whole file.
import {
	indexBuffers,
	type BufferEntry,
	type BufferIndex,
	type IndexOptions,
	type OpenTrace,
} from './etl-file.ts';

export class BufferFeed {
	#buffers: readonly BufferEntry[] = [];
	#index: BufferIndex | null = null;
	#failure: { readonly error: unknown } | null = null;
	#wake: (() => void)[] = [];
	#settle!: { resolve: (index: BufferIndex) => void; reject: (error: unknown) => void };
	/** The whole index, once the pass has ended. */
	readonly complete: Promise<BufferIndex>;

	constructor() {
		this.complete = new Promise<BufferIndex>((resolve, reject) => {
			this.#settle = { resolve, reject };
		});
		// Awaited by whoever needs it; a failure is also seen through next().
		this.complete.catch(() => {});
	}

	/** A feed of an index already complete. */
	static of(index: BufferIndex): BufferFeed {
		const feed = new BufferFeed();
		feed.finish(index);
		return feed;
	}

	/** How many buffers have been found so far. */
	get found(): number {
		return this.#buffers.length;
	}

	at(i: number): BufferEntry {
		return this.#buffers[i]!;
	}

	/** The whole index once the pass has ended (null until then). */
	get index(): BufferIndex | null {
		return this.#index;
	}

	/** The pass found more: `buffers` is every buffer found so far, in file order. */
	update(buffers: readonly BufferEntry[]): void {
		this.#buffers = buffers;
		this.#signal();
	}

	finish(index: BufferIndex): void {
		this.#buffers = index.buffers;
		this.#index = index;
		this.#settle.resolve(index);
		this.#signal();
	}

	fail(error: unknown): void {
		this.#failure = { error };
		this.#settle.reject(error);
		this.#signal();
	}

	/** Resolves once more buffers are found or the pass ends; rejects if the pass failed. */
	next(): Promise<void> {
		if (this.#failure) return Promise.reject(this.#failure.error);
		if (this.#index) return Promise.resolve();
		return new Promise<void>((resolve) => this.#wake.push(resolve)).then(() => {
			if (this.#failure) throw this.#failure.error;
		});
	}

	#signal(): void {
		const wake = this.#wake;
		this.#wake = [];
		for (const w of wake) w();
	}
}

/** Starts the index pass of `trace`, handing what it finds to a feed as it goes. */
export function feedIndex(trace: OpenTrace, options: IndexOptions = {}): BufferFeed {
	const feed = new BufferFeed();
	indexBuffers(trace, { ...options, onBuffers: (b) => feed.update(b) }).then(
		(index) => feed.finish(index),
		(error: unknown) => feed.fail(error),
	);
	return feed;
}
