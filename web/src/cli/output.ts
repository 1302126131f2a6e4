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

/** Rows whose widths set the columns' before any is printed: later rows keep those widths. */
const WIDTH_ROWS = 256;

/** One table cell as a person reads it: no value is `-`, lists are joined, objects are JSON. */
export function tableCell(v: unknown): string {
	if (v === null || v === undefined || v === '') return '-';
	if (Array.isArray(v)) return v.length ? v.map((x) => tableCell(x)).join(' ') : '-';
	if (typeof v === 'object') return JSON.stringify(v);
	// One line per row: a line break inside a cell would break the columns.
	return String(v).replace(/[\r\n\t]+/g, ' ');
}

/** Columns of characters a string takes in a terminal: wide (CJK) characters take two. */
export function displayWidth(s: string): number {
	let n = 0;
	for (const ch of s) {
		const c = ch.codePointAt(0)!;
		n +=
			(c >= 0x1100 && c <= 0x115f) ||
			(c >= 0x2e80 && c <= 0xa4cf) ||
			(c >= 0xac00 && c <= 0xd7a3) ||
			(c >= 0xf900 && c <= 0xfaff) ||
			(c >= 0xfe30 && c <= 0xfe4f) ||
			(c >= 0xff00 && c <= 0xff60) ||
			(c >= 0xffe0 && c <= 0xffe6) ||
			(c >= 0x20000 && c <= 0x3fffd)
				? 2
				: 1;
	}
	return n;
}

/**
 * An aligned table for a person at a terminal: a header, then a line per row, columns two spaces
 * apart, numbers to the right. The widths come from the first WIDTH_ROWS rows, so that a table of
 * a million sockets starts printing at once and holds little; a longer cell later pushes the rest
 * of its line out rather than being cut.
 */
export class AlignedTable {
	readonly #out: LineWriter;
	readonly #header: readonly string[];
	#held: unknown[][] | null = [];
	#widths: number[] = [];
	#numeric: boolean[] = [];
	#rows = 0;

	constructor(out: LineWriter, header: readonly string[]) {
		this.#out = out;
		this.#header = header;
	}

	get rows(): number {
		return this.#rows;
	}

	async row(values: readonly unknown[]): Promise<void> {
		this.#rows++;
		if (this.#held) {
			this.#held.push([...values]);
			if (this.#held.length >= WIDTH_ROWS) await this.#start();
			return;
		}
		await this.#out.line(this.#line(values.map(tableCell)));
	}

	async end(): Promise<void> {
		if (this.#held) await this.#start();
	}

	async #start(): Promise<void> {
		const held = this.#held!;
		this.#held = null;
		const cells = held.map((r) => r.map(tableCell));
		this.#widths = this.#header.map((h, c) =>
			Math.max(displayWidth(h), ...cells.map((r) => displayWidth(r[c] ?? ''))),
		);
		this.#numeric = this.#header.map(
			(_, c) =>
				held.some((r) => typeof r[c] === 'number') &&
				held.every((r) => typeof r[c] === 'number' || r[c] === null || r[c] === undefined),
		);
		await this.#out.line(this.#line(this.#header));
		for (const r of cells) await this.#out.line(this.#line(r));
	}

	#line(cells: readonly string[]): string {
		const last = cells.length - 1;
		return cells
			.map((s, c) => {
				const pad = ' '.repeat(Math.max(0, (this.#widths[c] ?? 0) - displayWidth(s)));
				if (this.#numeric[c]) return pad + s;
				return c === last ? s : s + pad;
			})
			.join('  ');
	}
}
