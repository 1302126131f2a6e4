// Column arrays of full chunks, given back once nothing reads them, for the next chunks to fill.
// An import otherwise allocates 4.5 MB of columns per 65,536 events and leaves each set to the
// collector, which lets hundreds of megabytes of them pile up before it frees any.
import { freeNow } from '../lib/free-memory.ts';
import { allocateColumn, CHUNK_ROWS, type ColumnName, type Columns } from './layout.ts';

export class ColumnPool {
	readonly #free = new Map<ColumnName, Columns[ColumnName][]>();
	readonly #keep: number;

	/**
	 * `keep`: the sets kept at most. Chunks are given back in bursts (those written together are
	 * stored together), while builders take them one at a time: sets beyond it are left to the GC.
	 */
	constructor(keep = 2) {
		this.#keep = keep;
	}

	/** A column of `rows` zeros: one given back (zeroed again) when one of that size is free. */
	take<K extends ColumnName>(name: K, rows: number): Columns[K] {
		const kept = rows === CHUNK_ROWS ? this.#free.get(name)?.pop() : undefined;
		if (!kept) return allocateColumn(name, rows) as Columns[K];
		kept.fill(0);
		return kept as Columns[K];
	}

	/**
	 * Frees the sets kept: no more chunks are coming. At once, not at the collector's next pass: an
	 * import's end, when the sockets are summarised elsewhere, is when it holds the most memory.
	 */
	clear(): void {
		for (const free of this.#free.values()) for (const a of free) freeNow(a);
		this.#free.clear();
	}

	/**
	 * Columns whose owner is done with them: no reference to them may be kept anywhere else, as
	 * the next chunk overwrites them. Only full-size ones are kept, and only a few of each.
	 */
	give(columns: Partial<Columns>): void {
		for (const [name, a] of Object.entries(columns) as [ColumnName, Columns[ColumnName]][]) {
			if (a.length !== CHUNK_ROWS) continue;
			let free = this.#free.get(name);
			if (!free) this.#free.set(name, (free = []));
			if (free.length < this.#keep && !free.includes(a)) free.push(a);
		}
	}
}
