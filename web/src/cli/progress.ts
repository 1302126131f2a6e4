// Progress on stderr, rewritten in place: only when stderr is a terminal (never in a log or a
// pipe) and not --quiet. At most a few updates a second.
const EVERY_MS = 200;

export class Progress {
	readonly #label: string;
	readonly #out: NodeJS.WritableStream | null;
	#last = 0;
	#shown = false;

	constructor(
		label: string,
		quiet: boolean,
		out: NodeJS.WritableStream & { isTTY?: boolean } = process.stderr,
	) {
		this.#label = label;
		this.#out = !quiet && out.isTTY ? out : null;
	}

	get enabled(): boolean {
		return this.#out !== null;
	}

	update(done: number, total: number): void {
		if (!this.#out) return;
		const now = Date.now();
		if (now - this.#last < EVERY_MS) return;
		this.#last = now;
		const pct = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 0;
		const mb = (n: number) => (n / 1e6).toFixed(n < 1e7 ? 1 : 0);
		this.#out.write(`\r\x1b[K${this.#label}: ${pct}% (${mb(done)} of ${mb(total)} MB)`);
		this.#shown = true;
	}

	/** Clears the line, leaving stderr as it was for the messages that follow. */
	done(): void {
		if (this.#out && this.#shown) this.#out.write('\r\x1b[K');
		this.#shown = false;
	}
}
