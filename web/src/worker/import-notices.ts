// While a trace is being imported, the page's view of it asks again as chunks are stored. The
// worker decides when: it is where the decoding and the page's queries share one thread, so it
// spaces the notices as the import grows (each query scans what is stored so far), and it knows
// when the last chunk is stored and the import has ended.
import { releaseProxy } from 'comlink';
import type { ChunksCommitted } from './api.ts';

export type CommitListener = (c: ChunksCommitted) => unknown;

/** The page's listeners, per trace (Comlink proxies in the browser, plain functions in tests). */
export class ImportNotices {
	readonly #listeners = new Map<number, { traceId: number; listener: CommitListener }>();
	#next = 1;

	/** `listener` hears of the chunks committed by imports of trace `traceId`; returns its number. */
	follow(traceId: number, listener: CommitListener): number {
		const n = this.#next++;
		this.#listeners.set(n, { traceId, listener });
		return n;
	}

	unfollow(n: number): void {
		const entry = this.#listeners.get(n);
		this.#listeners.delete(n);
		const release = (entry?.listener as { [releaseProxy]?: () => void } | undefined)?.[
			releaseProxy
		];
		release?.call(entry!.listener);
	}

	tell(c: ChunksCommitted): void {
		for (const { traceId, listener } of this.#listeners.values())
			if (traceId === c.traceId)
				// A page gone away cannot answer: nothing to do about it here.
				void Promise.resolve()
					.then(() => listener(c))
					.catch(() => {});
	}
}

/** At least this long between notices (a query over the first chunks is quick). */
const MIN_SPACING_MS = 1000;

/**
 * When an import tells the page to look again. Not at its first chunk stored: the view's first
 * query waits for that chunk in the worker (query-service.ts), and a second query then would
 * only hold up its first rows. From there, spaced by half the time the import has taken, at
 * least a second, so that the page's queries take a bounded share of the worker as the trace
 * grows; chunks held back are told when the decoding ends.
 */
export class RefreshPolicy {
	/** When the page last saw the stored chunks (the first chunk, or a notice); null before. */
	#lastMs: number | null = null;
	#held = false;

	/** Chunks were committed `elapsedMs` into the import: whether to tell the page now. */
	committed(elapsedMs: number): boolean {
		if (this.#lastMs === null) {
			this.#lastMs = elapsedMs;
			return false;
		}
		this.#held = true;
		return this.due(elapsedMs);
	}

	/** Whether chunks held back are due now (asked as the import reports progress). */
	due(elapsedMs: number): boolean {
		if (!this.#held || this.#lastMs === null) return false;
		if (elapsedMs - this.#lastMs < Math.max(MIN_SPACING_MS, elapsedMs / 2)) return false;
		this.#held = false;
		this.#lastMs = elapsedMs;
		return true;
	}

	/** The decoding has ended: whether chunks are still to be told. */
	flush(): boolean {
		const held = this.#held;
		this.#held = false;
		return held;
	}

	/**
	 * The import started over (and told the page so): the view's next query waits for the new
	 * first chunk.
	 */
	restarted(): void {
		this.#lastMs = null;
		this.#held = false;
	}
}
