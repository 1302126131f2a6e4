/** A byte-bounded least-recently-used cache. */
export class LruCache<V> {
	readonly #map = new Map<string, { value: V; bytes: number }>();
	#bytes = 0;
	constructor(readonly limitBytes: number) {}

	get(key: string): V | undefined {
		const e = this.#map.get(key);
		if (!e) return undefined;
		this.#map.delete(key);
		this.#map.set(key, e);
		return e.value;
	}

	set(key: string, value: V, bytes: number): void {
		const old = this.#map.get(key);
		if (old) {
			this.#bytes -= old.bytes;
			this.#map.delete(key);
		}
		this.#map.set(key, { value, bytes });
		this.#bytes += bytes;
		for (const [k, e] of this.#map) {
			if (this.#bytes <= this.limitBytes || this.#map.size <= 1) break;
			this.#map.delete(k);
			this.#bytes -= e.bytes;
		}
	}

	get bytes(): number {
		return this.#bytes;
	}

	clear(): void {
		this.#map.clear();
		this.#bytes = 0;
	}
}
