// The last few results of an asynchronous load, kept as promises so that concurrent requests for
// one key share a single load. A failed load is forgotten (asked again next time).

export class PromiseCache<K, V> {
	readonly #entries = new Map<K, Promise<V>>();
	readonly #keep: number;
	readonly #evicted: ((value: Promise<V>) => void) | null;

	/** `evicted` is told of each value put out to make room (it may be a load that fails). */
	constructor(keep: number, evicted: ((value: Promise<V>) => void) | null = null) {
		this.#keep = keep;
		this.#evicted = evicted;
	}

	/** Forgets every value (loads under way settle for those who asked). */
	clear(): void {
		this.#entries.clear();
	}

	has(key: K): boolean {
		return this.#entries.has(key);
	}

	/** The value for `key`, loaded with `load` unless kept (then it becomes the newest). */
	get(key: K, load: (key: K) => Promise<V>): Promise<V> {
		let p = this.#entries.get(key);
		if (p) {
			this.#entries.delete(key);
			this.#entries.set(key, p);
			return p;
		}
		p = load(key);
		this.#entries.set(key, p);
		if (this.#entries.size > this.#keep) {
			const [oldest, value] = this.#entries.entries().next().value!;
			this.#entries.delete(oldest);
			this.#evicted?.(value);
		}
		p.catch(() => this.#entries.delete(key));
		return p;
	}
}
