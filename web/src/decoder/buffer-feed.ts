// The buffers of a file as an index pass finds them, so that a merge can start decoding before
// the pass has read the whole file.
import {
	indexBuffers,
	type BufferEntry,
	type BufferIndex,
	type IndexOptions,
	type OpenTrace,
} from './etl-file.ts';

/**
 * How far (in buffers) the pass may run ahead of the decoding: it reads every byte, and on few
 * cores what it reads beyond what the decoding needs soon only slows the decoding down.
 */
const LEAD = 1024;

export class BufferFeed {
	#buffers: readonly BufferEntry[] = [];
	#index: BufferIndex | null = null;
	#failure: { readonly error: unknown } | null = null;
	#wake: (() => void)[] = [];
	#decoded = 0;
	/** The merge waits in next(): the pass must go on whatever its lead. */
	#starved = false;
	#room: (() => void)[] = [];
	#released = false;
	#settle!: { resolve: (index: BufferIndex) => void; reject: (error: unknown) => void };
	/** The whole index, once the pass has ended. */
	readonly complete: Promise<BufferIndex>;
	readonly #lead: number;

	/** `lead`: how far the pass may run ahead (LEAD; tests make it small to need fewer buffers). */
	constructor(lead = LEAD) {
		this.#lead = lead;
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
		this.#starved = true;
		this.#makeRoom();
		return new Promise<void>((resolve) => this.#wake.push(resolve)).then(() => {
			if (this.#failure) throw this.#failure.error;
		});
	}

	/** The decoding has decoded `n` buffers. */
	decoded(n: number): void {
		this.#decoded = n;
		if (this.found - n < this.#lead) this.#makeRoom();
	}

	/**
	 * For the pass: null when it may go on, else a promise that settles when it may (the decoding
	 * has caught up, or waits for buffers not found yet).
	 */
	room(): Promise<void> | null {
		if (this.#starved || this.#released || this.found - this.#decoded < this.#lead) return null;
		return new Promise<void>((resolve) => this.#room.push(resolve));
	}

	/** Whether the pass is holding, waiting for the decoding to catch up. */
	get holding(): boolean {
		return this.#room.length > 0;
	}

	/** The decoding no longer keeps pace (it stopped, or waits for the whole index): the pass runs free. */
	release(): void {
		this.#released = true;
		this.#makeRoom();
	}

	#makeRoom(): void {
		// Asked after every decoded buffer: nothing to do (nor to allocate) unless the pass waits.
		if (this.#room.length === 0) return;
		const room = this.#room;
		this.#room = [];
		for (const r of room) r();
	}

	#signal(): void {
		this.#starved = false;
		const wake = this.#wake;
		this.#wake = [];
		for (const w of wake) w();
	}
}

/** Starts the index pass of `trace`, handing what it finds to a feed as it goes. */
export function feedIndex(trace: OpenTrace, options: IndexOptions = {}, lead = LEAD): BufferFeed {
	const feed = new BufferFeed(lead);
	indexBuffers(trace, {
		...options,
		onBuffers: (b) => feed.update(b),
		pace: () => feed.room(),
	}).then(
		(index) => feed.finish(index),
		(error: unknown) => feed.fail(error),
	);
	return feed;
}
