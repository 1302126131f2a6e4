// Buffered writes to stdout that respect back-pressure, so that piping millions of lines into
// `head` or a slow consumer neither exhausts memory nor crashes on EPIPE. Once the reader has gone,
// the next line throws OutputClosed: the command stops decoding and exits 0.
import type { ByteSink } from '../export/byte-sink.ts';

/** The reader of stdout has gone (EPIPE): nothing more is wanted. */
export class OutputClosed extends Error {
	constructor() {
		super('output closed');
	}
}

export class LineWriter {
	#chunk: string[] = [];
	#size = 0;
	#closed = false;
	/** Wakes a write waiting for 'drain' when the stream closes or fails instead. */
	#wake: (() => void) | null = null;
	readonly #out: NodeJS.WritableStream;

	constructor(out: NodeJS.WritableStream = process.stdout) {
		this.#out = out;
		this.#reuse = out === process.stdout;
		out.on('error', (e: NodeJS.ErrnoException) => {
			// Any write error on stdout (EPIPE, or the pipe torn down otherwise) ends the output;
			// there is no one left to tell on stdout, and stderr is not the place for it.
			void e;
			this.#closed = true;
			this.#wake?.();
			this.#release?.();
		});
		out.on('close', () => {
			this.#closed = true;
			this.#wake?.();
			this.#release?.();
		});
	}

	get closed(): boolean {
		return this.#closed;
	}

	async line(s: string): Promise<void> {
		if (this.#closed) throw new OutputClosed();
		this.#chunk.push(s);
		this.#size += s.length + 1;
		if (this.#size >= 1 << 20) await this.flush();
	}

	/**
	 * Sends what a sink holds (whole lines), after the lines before it. On the process's stdout,
	 * two pieces of memory take turns: the sink writes into one while the stream writes out the
	 * other, which it has finished with once its write's callback runs (the bytes are in the file
	 * or pipe then). Another stream may hand the very memory on (a PassThrough does), so there
	 * each piece is new memory.
	 */
	async sink(sink: ByteSink): Promise<void> {
		await this.flush();
		if (sink.length === 0) return;
		if (!this.#reuse) {
			await this.#send(sink.take());
			return;
		}
		await this.#inFlight;
		if (this.#closed) throw new OutputClosed();
		const piece = sink.take();
		this.#inFlight = new Promise<void>((resolve) => {
			let released = false;
			this.#release = () => {
				if (released) return;
				released = true;
				sink.giveBack(piece);
				resolve();
			};
		});
		const release = this.#release!;
		await this.#send(piece, release);
	}

	readonly #reuse: boolean;
	#inFlight: Promise<void> | null = null;
	/** Ends the wait for the piece in flight (also when the stream closes instead). */
	#release: (() => void) | null = null;

	async flush(): Promise<void> {
		if (this.#closed) throw new OutputClosed();
		if (this.#chunk.length === 0) return;
		const text = this.#chunk.join('\n') + '\n';
		this.#chunk = [];
		this.#size = 0;
		await this.#send(text);
	}

	async #send(data: string | Uint8Array, done?: () => void): Promise<void> {
		if (this.#out.write(data, done && (() => done()))) return;
		let wake!: () => void;
		await new Promise<void>((resolve) => {
			wake = resolve;
			this.#wake = resolve;
			this.#out.once('drain', resolve);
		});
		this.#out.removeListener('drain', wake);
		this.#wake = null;
		if (this.#closed) throw new OutputClosed();
	}
}
