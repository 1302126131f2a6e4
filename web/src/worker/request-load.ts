/**
 * How many requests of the page the worker is answering. An import lets them in at every buffer
 * while any is (each such pause costs it tens of milliseconds), so a request that only waits for
 * the import itself (its first rows) is parked: it does not count while it waits.
 */
export class RequestLoad {
	#answering = 0;

	/** Whether a request is being answered (and not parked). */
	get waiting(): boolean {
		return this.#answering > 0;
	}

	/** `f`, counted while it runs. */
	answer<A extends unknown[], R>(f: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
		return async (...args: A): Promise<R> => {
			this.#answering++;
			try {
				return await f(...args);
			} finally {
				this.#answering--;
			}
		};
	}

	/**
	 * Awaits `p` uncounted: the request waits for something the import brings (letting it in
	 * sooner would only slow that down).
	 */
	async park<T>(p: Promise<T>): Promise<T> {
		this.#answering--;
		try {
			return await p;
		} finally {
			this.#answering++;
		}
	}
}
