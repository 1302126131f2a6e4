/**
 * A byte-bounded cache, least recently used out first, that a loop over more than it holds does
 * not empty. Plain LRU misses every time on such a loop: each pass evicts what the next pass
 * wants first. Here, once the cache is full, what is added goes to a small probation area (an
 * eighth of the bound, first in first out) instead of pushing out the entries kept, so a pass over
 * chunks that do not all fit still finds most of them; an entry read twice there is kept.
 *
 * A loop that says what it will read (`protect`) has those entries kept before any other: what
 * it adds pushes out the others first, least recently used first. Without one, one insertion in
 * PROMOTE_EVERY is kept at once, so that a new working set comes to replace an old one.
 */
export class LruCache<V> {
	/** Entries kept, least recently used first. */
	readonly #kept = new Map<string, Entry<V>>();
	/** Entries added while full, oldest first. */
	readonly #probation = new Map<string, Entry<V>>();
	#keptBytes = 0;
	#probationBytes = 0;
	#inserts = 0;
	/** What the current loop will read. */
	#protected: ReadonlySet<string> | null = null;

	/** `onEvict`: told of each entry let go to keep within the bound (not of those replaced). */
	constructor(
		public limitBytes: number,
		private readonly onEvict?: (key: string, value: V) => void,
	) {}

	/** Sets the bound, evicting beyond it now. */
	limit(bytes: number): void {
		this.limitBytes = bytes;
		this.#evict();
	}

	/** The keys the current loop will read (null: none said): kept before any other. */
	protect(keys: ReadonlySet<string> | null): void {
		this.#protected = keys;
	}

	/** The value held for the key, without counting as a read. */
	peek(key: string): V | undefined {
		return (this.#kept.get(key) ?? this.#probation.get(key))?.value;
	}

	/** Whether the current loop said it will read the key (`protect`). */
	isProtected(key: string): boolean {
		return this.#protected?.has(key) ?? false;
	}

	/** Lets go of a key now, as if it had never been held (not told to `onEvict`). */
	drop(key: string): void {
		this.#remove(key);
	}

	/** Holds `value` for a key held now, in its place and counted as the same bytes. */
	replace(key: string, value: V): void {
		const e = this.#kept.get(key) ?? this.#probation.get(key);
		if (e) e.value = value;
	}

	/** Whether the key is held, without counting as a read. */
	has(key: string): boolean {
		return this.#kept.has(key) || this.#probation.has(key);
	}

	get(key: string): V | undefined {
		const e = this.#kept.get(key);
		if (e) {
			this.#kept.delete(key);
			this.#kept.set(key, e);
			return e.value;
		}
		const p = this.#probation.get(key);
		if (!p) return undefined;
		// The first read is the one it was loaded for; a second says it is wanted again.
		if (++p.reads >= 2) {
			this.#probation.delete(key);
			this.#probationBytes -= p.bytes;
			this.#kept.set(key, p);
			this.#keptBytes += p.bytes;
			this.#evict();
		}
		return p.value;
	}

	set(key: string, value: V, bytes: number): void {
		this.#remove(key);
		const e: Entry<V> = { value, bytes, reads: 0 };
		const full = this.#keptBytes + this.#probationBytes + bytes > this.limitBytes;
		const keep = !full
			? true
			: this.#protected
				? this.#protected.has(key) && this.#unprotectedKept() !== undefined
				: this.#inserts++ % PROMOTE_EVERY === 0;
		if (keep) {
			this.#kept.set(key, e);
			this.#keptBytes += bytes;
		} else {
			this.#probation.set(key, e);
			this.#probationBytes += bytes;
			const room = this.limitBytes / PROBATION_SHARE;
			for (const [k, old] of this.#probation) {
				if (this.#probationBytes <= room || this.#probation.size <= 1) break;
				this.#probation.delete(k);
				this.#probationBytes -= old.bytes;
				this.onEvict?.(k, old.value);
			}
		}
		this.#evict();
	}

	get bytes(): number {
		return this.#keptBytes + this.#probationBytes;
	}

	clear(): void {
		this.#kept.clear();
		this.#probation.clear();
		this.#keptBytes = 0;
		this.#probationBytes = 0;
	}

	#remove(key: string): void {
		const k = this.#kept.get(key);
		if (k) {
			this.#kept.delete(key);
			this.#keptBytes -= k.bytes;
		}
		const p = this.#probation.get(key);
		if (p) {
			this.#probation.delete(key);
			this.#probationBytes -= p.bytes;
		}
	}

	/** The least recently used kept entry the current loop will not read, if any. */
	#unprotectedKept(): string | undefined {
		const p = this.#protected;
		for (const k of this.#kept.keys()) if (!p?.has(k)) return k;
		return undefined;
	}

	/**
	 * Down to the bound: kept entries the current loop will not read, least recently used first;
	 * then the least recently used kept (probation, already trimmed to its share, holds what a
	 * loop has just read ahead); then probation, oldest first.
	 */
	#evict(): void {
		while (this.bytes > this.limitBytes && this.#protected && this.#kept.size > 1) {
			const k = this.#unprotectedKept();
			if (k === undefined) break;
			const e = this.#kept.get(k)!;
			this.#keptBytes -= e.bytes;
			this.#kept.delete(k);
			this.onEvict?.(k, e.value);
		}
		for (const [k, e] of this.#kept) {
			if (this.bytes <= this.limitBytes || this.#kept.size <= 1) break;
			this.#kept.delete(k);
			this.#keptBytes -= e.bytes;
			this.onEvict?.(k, e.value);
		}
		for (const [k, e] of this.#probation) {
			if (this.bytes <= this.limitBytes || this.#probation.size <= 1) break;
			this.#probation.delete(k);
			this.#probationBytes -= e.bytes;
			this.onEvict?.(k, e.value);
		}
	}
}

interface Entry<V> {
	value: V;
	readonly bytes: number;
	/** Reads while on probation. */
	reads: number;
}

/** The probation area's share of the bound: one part in this many. */
const PROBATION_SHARE = 8;
/** One insertion in this many, once full, is kept at once rather than put on probation. */
const PROMOTE_EVERY = 16;
