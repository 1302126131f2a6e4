// Buffered writes to stdout that respect back-pressure, so that piping millions of lines into
// `head` or a slow consumer neither exhausts memory nor crashes on EPIPE.
import { once } from 'node:events';

export class LineWriter {
	#chunk: string[] = [];
	#size = 0;
	#closed = false;
	readonly #out: NodeJS.WritableStream;

	constructor(out: NodeJS.WritableStream = process.stdout) {
		this.#out = out;
		out.on('error', (e: NodeJS.ErrnoException) => {
			if (e.code === 'EPIPE') this.#closed = true;
			else throw e;
		});
	}

	get closed(): boolean {
		return this.#closed;
	}

	async line(s: string): Promise<void> {
		this.#chunk.push(s);
		this.#size += s.length + 1;
		if (this.#size >= 1 << 20) await this.flush();
	}

	async flush(): Promise<void> {
		if (this.#chunk.length === 0 || this.#closed) return;
		const text = this.#chunk.join('\n') + '\n';
		this.#chunk = [];
		this.#size = 0;
		if (!this.#out.write(text)) await once(this.#out, 'drain');
	}
}
