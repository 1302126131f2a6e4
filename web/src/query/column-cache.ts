// A trace's columns as the engine reads them: each read once however many loops want it at the
// same time, kept in a byte-bounded cache, and read ahead of the loop that will need them.
import { COLUMN_ALIGN, type ColumnName, type ReadColumns } from '../columns/layout.ts';
import type { Ticks } from '../decoder/units.ts';
import type { ChunkSummary } from '../columns/chunk-summary.ts';
import { LruCache } from './lru.ts';

export interface ChunkInfo {
	readonly index: number;
	readonly rows: number;
	readonly tMin: Ticks;
	readonly tMax: Ticks;
	/** Counts by event type, process, status… (absent: the chunk is scanned). */
	readonly summary?: ChunkSummary | null;
}

/**
 * Where the chunks come from: IndexedDB in the browser, memory in tests and the CLI. Columns come
 * in the type they are stored in (ReadColumns).
 */
export interface ChunkSource {
	chunks(): readonly ChunkInfo[];
	column<K extends ColumnName>(chunk: number, name: K): Promise<ReadColumns[K]>;
	/** Several columns of one chunk, read together where that is cheaper than one by one. */
	columns?<K extends ColumnName>(chunk: number, names: readonly K[]): Promise<ReadColumns[K][]>;
}

/** The columns named, in order. */
export type ColumnsOf<N extends readonly ColumnName[]> = {
	-readonly [I in keyof N]: ReadColumns[N[I]];
};

/** Chunks whose columns a loop over chunks reads ahead of the one it is at. */
const READ_AHEAD = 16;

export class ColumnCache {
	readonly #source: ChunkSource;
	readonly #cache: LruCache<ReadColumns[ColumnName]>;
	/** Columns being read, so that a read ahead and the read that needs it are one. */
	readonly #reads = new Map<string, Promise<ReadColumns[ColumnName]>>();

	readonly #bound: number;
	/**
	 * Columns held that are views of one read with others (loadColumns): the read's memory is
	 * freed only once none of them is held, so when one goes, the others go with it, but for
	 * those the current loop will read, which get bytes of their own.
	 */
	readonly #sharing = new Map<ArrayBufferLike, Set<string>>();

	constructor(source: ChunkSource, cacheBytes: number) {
		this.#source = source;
		this.#bound = cacheBytes;
		this.#cache = new LruCache(cacheBytes, (key, value) => this.#evicted(key, value));
	}

	get bytes(): number {
		return this.#cache.bytes;
	}

	/** Bounds the cache to `bytes` from now on, evicting at once what is beyond (null: its own bound). */
	limit(bytes: number | null): void {
		this.#cache.limit(bytes ?? this.#bound);
	}

	async column<K extends ColumnName>(chunk: number, name: K): Promise<ReadColumns[K]> {
		const key = `${chunk}:${name}`;
		const hit = this.#cache.get(key) as ReadColumns[K] | undefined;
		if (hit) return hit;
		return this.#load(chunk, name, key);
	}

	/** Several columns of one chunk: those neither held nor being read are read together. */
	columns<const N extends readonly ColumnName[]>(chunk: number, names: N): Promise<ColumnsOf<N>> {
		this.#loadTogether(chunk, names);
		return Promise.all(names.map((name) => this.column(chunk, name))) as Promise<ColumnsOf<N>>;
	}

	#load<K extends ColumnName>(chunk: number, name: K, key: string): Promise<ReadColumns[K]> {
		return (this.#reads.get(key) ?? this.#track(key, this.#source.column(chunk, name))) as Promise<
			ReadColumns[K]
		>;
	}

	/** Starts one read of the columns of a chunk that are neither held nor being read. */
	#loadTogether(chunk: number, names: readonly ColumnName[]): void {
		if (!this.#source.columns) return;
		const missing = names.filter((name) => {
			const key = `${chunk}:${name}`;
			return !this.#cache.has(key) && !this.#reads.has(key);
		});
		if (missing.length < 2) return;
		const reading = this.#source.columns(chunk, missing);
		missing.forEach((name, k) =>
			this.#track(
				`${chunk}:${name}`,
				reading.then((columns) => columns[k]!),
			),
		);
	}

	/** A read under way: the column is cached once read, and the read forgotten once settled. */
	#track<K extends ColumnName>(
		key: string,
		read: Promise<ReadColumns[K]>,
	): Promise<ReadColumns[K]> {
		const loading = read.then((a) => {
			this.#unshare(key);
			// More than its own bytes and their alignment: a view of a read shared with others.
			// Counted among them before it is held: holding it may push one of them out.
			const shared = a.buffer.byteLength > a.byteLength + COLUMN_ALIGN;
			if (shared) {
				const sharing = this.#sharing.get(a.buffer) ?? new Set<string>();
				this.#sharing.set(a.buffer, sharing.add(key));
			}
			this.#cache.set(key, a, a.byteLength);
			// Let go at once, or copied out: no longer among those sharing the read.
			if (shared && this.#cache.peek(key) !== a) this.#unshareFrom(a.buffer, key);
			return a;
		});
		const settled = () => void this.#reads.delete(key);
		loading.then(settled, settled);
		this.#reads.set(key, loading);
		return loading;
	}

	/**
	 * Starts reading the columns the next few chunks of a loop will need, while this one is
	 * worked on: a chunk's columns come from storage in a few milliseconds, most of it waiting,
	 * and one at a time that waiting added up to most of a first query over a large trace.
	 */
	readAhead(
		chunks: readonly number[],
		at: number,
		names: readonly ColumnName[] | ((chunk: number) => readonly ColumnName[]),
	): void {
		const namesOf = typeof names === 'function' ? names : () => names;
		// At a loop's start: what it will read is kept before anything else (lru.ts).
		if (at === 0)
			this.#cache.protect(new Set(chunks.flatMap((c) => namesOf(c).map((n) => `${c}:${n}`))));
		for (let k = at + 1; k <= at + READ_AHEAD && k < chunks.length; k++) {
			const chunk = chunks[k]!;
			this.#loadTogether(chunk, namesOf(chunk));
			for (const name of namesOf(chunk)) {
				// Not a read of what is held (the cache counts reads to know what to keep).
				const key = `${chunk}:${name}`;
				// A failure is met, and reported, where the column is needed.
				if (!this.#cache.has(key)) this.#load(chunk, name, key).catch(() => {});
			}
		}
	}

	/**
	 * A column let go: those that shared its read go too, unless the current loop will read them
	 * (then they are copied out of the read).
	 */
	#evicted(key: string, value: ReadColumns[ColumnName]): void {
		const sharing = this.#sharing.get(value.buffer);
		if (!sharing) return;
		this.#sharing.delete(value.buffer);
		for (const other of sharing) {
			const held = other === key ? undefined : this.#cache.peek(other);
			if (held?.buffer !== value.buffer) continue;
			if (this.#cache.isProtected(other)) this.#cache.replace(other, held.slice());
			else this.#cache.drop(other);
		}
	}

	/** A column about to be held anew: no longer counted among those sharing its old read. */
	#unshare(key: string): void {
		const old = this.#cache.peek(key);
		if (old) this.#unshareFrom(old.buffer, key);
	}

	#unshareFrom(buffer: ArrayBufferLike, key: string): void {
		const sharing = this.#sharing.get(buffer);
		if (!sharing) return;
		sharing.delete(key);
		if (sharing.size === 0) this.#sharing.delete(buffer);
	}

	/** Caches a column an import has just written. */
	prime<K extends ColumnName>(chunk: number, name: K, column: ReadColumns[K]): void {
		this.#unshare(`${chunk}:${name}`);
		this.#cache.set(`${chunk}:${name}`, column, column.byteLength);
	}
}
