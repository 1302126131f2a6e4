// An import's chunks, written several to a transaction: they are gathered until a byte budget
// or a short time has passed, then stored together. The first chunk goes alone (the page's first
// rows wait for it), and the decoding's end or stop writes what is held at once.
import type { ChunkRecord } from '../store/db.ts';
import { WRITES_IN_FLIGHT } from '../ingest/ingest.ts';

/** Stored bytes a batch gathers before it is written. */
export const BATCH_BYTES = 8 << 20;
/**
 * Most chunks in a batch: half the writes the decoding lets run beside it, so that it never waits
 * for a chunk still held (it waits for the oldest write once WRITES_IN_FLIGHT are running).
 */
export const BATCH_CHUNKS = Math.max(1, WRITES_IN_FLIGHT >> 1);
/**
 * Longest a chunk is held: the page sees stored rows, and an interrupted import keeps them. As
 * long as the page's refreshes are apart at least (import-notices.ts): a chunk of 65,536 events
 * takes about half a second to decode on a busy machine, and a shorter limit wrote most alone.
 */
export const BATCH_MS = 1000;

/** Writes records in one transaction. */
export type PutChunks = (records: readonly ChunkRecord[]) => Promise<void>;

interface Batch {
	readonly records: ChunkRecord[];
	bytes: number;
	readonly since: number;
	readonly stored: Promise<void>;
	readonly settle: (written: Promise<void>) => void;
}

export class ChunkBatches {
	readonly #put: PutChunks;
	#held: Batch | null = null;
	#timer: ReturnType<typeof setTimeout> | null = null;
	#started = false;

	constructor(put: PutChunks) {
		this.#put = put;
	}

	/** Adds a chunk's record (`bytes` of columns); settles once it is stored, or rejects. */
	add(record: ChunkRecord, bytes: number): Promise<void> {
		const batch = (this.#held ??= newBatch());
		batch.records.push(record);
		batch.bytes += bytes;
		if (
			!this.#started ||
			batch.bytes >= BATCH_BYTES ||
			batch.records.length >= BATCH_CHUNKS ||
			performance.now() - batch.since >= BATCH_MS
		)
			this.flush();
		else this.#timer ??= setTimeout(() => this.flush(), BATCH_MS);
		return batch.stored;
	}

	/** Writes what is held now. */
	flush(): void {
		if (this.#timer !== null) clearTimeout(this.#timer);
		this.#timer = null;
		const batch = this.#held;
		if (!batch) return;
		this.#held = null;
		this.#started = true;
		batch.settle(this.#put(batch.records));
	}
}

function newBatch(): Batch {
	let settle!: (written: Promise<void>) => void;
	const stored = new Promise<void>((resolve, reject) => {
		settle = (written) => written.then(resolve, reject);
	});
	return { records: [], bytes: 0, since: performance.now(), stored, settle };
}
