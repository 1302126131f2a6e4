import { PromiseCache } from '../lib/promise-cache.ts';

/** Random access to the bytes of a trace: a browser File, a Node file handle, or memory. */
export interface ByteSource {
	readonly size: number;
	/** Up to `length` bytes at `offset`; fewer only at the end of the source. */
	read(offset: number, length: number): Promise<Uint8Array>;
	/**
	 * Optional, for sources that can read synchronously (a Node file, memory): copies up to
	 * `target.length` bytes at `offset` into `target` and returns how many (fewer only at the end
	 * of the source). The decoder then reads each buffer straight into its WASM memory.
	 */
	readInto?(offset: number, target: Uint8Array): number;
	/**
	 * Optional, with readInto: whether it can serve the bytes at [offset, offset + length) now
	 * (a copy being written holds only what has been written); absent: it always can. Those it
	 * does not hold are read with read().
	 */
	holds?(offset: number, length: number): boolean;
	/**
	 * Optional: lets go of the bytes it keeps in memory (blocks read and kept for the next
	 * reads); they are read again when asked for.
	 */
	forget?(): void;
}

/** The source's readInto if it can serve [offset, offset + length) now, else undefined. */
export function syncReader(
	source: ByteSource,
	offset: number,
	length: number,
): ByteSource['readInto'] {
	// Looked up once: a switchable source binds it anew at each look.
	const readInto = source.readInto;
	return readInto && source.holds?.(offset, length) !== false ? readInto : undefined;
}

export function blobSource(blob: Blob): ByteSource {
	return {
		size: blob.size,
		async read(offset, length) {
			return new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer());
		},
	};
}

export function memorySource(bytes: Uint8Array): ByteSource {
	return {
		size: bytes.length,
		async read(offset, length) {
			return bytes.subarray(offset, Math.min(bytes.length, offset + length));
		},
		readInto(offset, target) {
			const part = bytes.subarray(offset, Math.min(bytes.length, offset + target.length));
			target.set(part);
			return part.length;
		},
	};
}

/** Where the blocks of a file read in blocks start, and how large each is. */
export interface BlockPlan {
	/** The start of the block that holds `offset`. */
	startOf(offset: number): number;
	sizeOf(start: number): number;
}

/**
 * Blocks of `first` bytes at the start, then each as large as all before it, up to `size`: the
 * first bytes (a header, the first buffers a decoding waits for) arrive after a small read, and
 * the blocks read ahead of them do not hold up the reads the decoding asks for next.
 */
export function blockPlan(first: number, size: number): BlockPlan {
	const f = Math.max(1, Math.min(first, size));
	// The first start whose block is full size: past it, blocks tile the file evenly.
	let even = f;
	while (even < size) even *= 2;
	return {
		startOf(offset) {
			if (offset < f) return 0;
			if (offset >= even) return even + Math.floor((offset - even) / size) * size;
			let s = f;
			while (s * 2 <= offset) s *= 2;
			return s;
		},
		sizeOf: (start) => (start === 0 ? f : Math.min(start, size)),
	};
}

/**
 * Serves reads from large aligned blocks, so that walking buffers in (nearly) file order costs
 * one read per block rather than one per buffer. Keeps a few blocks for the out-of-order reads
 * of per-CPU buffers flushed late. `firstBlock`: a smaller first block, so that opening a file
 * (and its first buffers) waits for less than a whole block; blocks then grow to `blockSize`
 * (blockPlan).
 */
export function blockCache(
	source: ByteSource,
	blockSize = 8 << 20,
	keep = 4,
	firstBlock = Math.min(blockSize, 1 << 20),
): ByteSource {
	const blocks = new PromiseCache<number, Uint8Array>(keep);
	const { startOf, sizeOf } = blockPlan(firstBlock, blockSize);
	const load = (start: number) => source.read(start, sizeOf(start));
	// No read-ahead at the first read: opening a file reads only its start. Nor from a source
	// that reads synchronously (a Node file): its read cannot overlap the work, only come early.
	const readsAhead = source.readInto === undefined;
	let last = NaN;
	function block(start: number): Promise<Uint8Array> {
		const b = blocks.get(start, load);
		// Read on sequentially (a block read again, or the one after the last): the next block is
		// read while this one is used.
		const next = start + sizeOf(start);
		const onward = start === last || start === last + sizeOf(last);
		if (readsAhead && onward && next < source.size && !blocks.has(next))
			void blocks.get(next, load);
		last = start;
		return b;
	}
	const cached: ByteSource = {
		size: source.size,
		async read(offset, length) {
			const start = startOf(offset);
			if (offset + length > start + sizeOf(start)) return source.read(offset, length);
			const b = await block(start);
			return b.subarray(offset - start, Math.min(b.length, offset - start + length));
		},
	};
	cached.forget = () => blocks.clear();
	// A source that reads synchronously into the caller's memory (a Node file) is faster read
	// directly, buffer by buffer: blocks would cost an allocation and an extra copy each, and the
	// index pass, which needs 0x48 bytes per buffer, would read the whole file.
	const direct = source.readInto?.bind(source);
	if (direct) cached.readInto = direct;
	return cached;
}

/**
 * Reads a source front to back in large blocks with a few reads in flight (a browser File reads
 * faster so), handing out views of the block in hand synchronously: a scan of small pieces
 * (buffer headers) then waits once per block, not once per piece.
 */
export class SequentialReader {
	readonly #source: ByteSource;
	readonly #plan: BlockPlan;
	readonly #ahead: number;
	#start = 0;
	#block: Uint8Array = new Uint8Array(0);
	readonly #pending = new Map<number, Promise<Uint8Array>>();

	/**
	 * `firstBlock`: the size of the first block, smaller so that the scan can start sooner; the
	 * blocks then grow to `blockSize` (blockPlan).
	 */
	constructor(source: ByteSource, blockSize = 8 << 20, ahead = 2, firstBlock = blockSize) {
		this.#source = source;
		this.#plan = blockPlan(firstBlock, blockSize);
		this.#ahead = ahead;
	}

	/** The bytes at [offset, offset + length) if the block in hand holds them all, else null. */
	view(offset: number, length: number): Uint8Array | null {
		const at = offset - this.#start;
		if (at < 0 || at >= this.#block.length) return null;
		// Past the block's end: only the file's last block may hand out fewer bytes.
		const last = this.#start + this.#block.length >= this.#source.size;
		if (at + length > this.#block.length && !last) return null;
		return this.#block.subarray(at, at + length);
	}

	/** Up to `length` bytes at `offset` (fewer only at the end), moving on to its block. */
	async read(offset: number, length: number): Promise<Uint8Array> {
		const start = this.#plan.startOf(offset);
		if (start !== this.#start || this.#block.length === 0) {
			this.#block = await this.#take(start);
			this.#start = start;
			let next = start;
			for (let k = 1; k <= this.#ahead; k++) this.#fetch((next += this.#plan.sizeOf(next)));
		}
		// A piece running past the block's end: read on its own.
		return this.view(offset, length) ?? this.#source.read(offset, length);
	}

	#fetch(start: number): void {
		if (start < this.#source.size && !this.#pending.has(start))
			this.#pending.set(start, this.#source.read(start, this.#plan.sizeOf(start)));
	}

	#take(start: number): Promise<Uint8Array> {
		this.#fetch(start);
		const p = this.#pending.get(start)!;
		// Blocks behind this one are not needed again.
		for (const k of this.#pending.keys()) if (k <= start) this.#pending.delete(k);
		return p;
	}
}

/**
 * A copy of a file being written, for the bytes it holds (its first `written()`), and the file
 * itself for the rest: synchronous reads of the copy cost the decoding far less than reads of a
 * browser File, so they start as soon as the copy has the bytes, not once it is whole.
 */
export function growingSource(
	copy: ByteSource & Required<Pick<ByteSource, 'readInto'>>,
	rest: ByteSource,
	written: () => number,
): ByteSource {
	const holds = (offset: number, length: number) =>
		offset + length <= written() || written() >= rest.size;
	return {
		size: rest.size,
		read: (offset, length) =>
			holds(offset, Math.min(length, rest.size - offset))
				? copy.read(offset, length)
				: rest.read(offset, length),
		readInto: (offset, target) => copy.readInto(offset, target),
		holds,
		forget: () => rest.forget?.(),
	};
}

/** `source`, with its first `length` bytes read through `head` (the same bytes, at hand already). */
export function withHead(source: ByteSource, head: ByteSource, length: number): ByteSource {
	return {
		size: source.size,
		read: (offset, n) => (offset + n <= length ? head.read(offset, n) : source.read(offset, n)),
	};
}

/** A source whose bytes can come from another source from some point on (the same bytes). */
export interface SwitchableSource extends ByteSource {
	/** The source it was made with. */
	readonly initial: ByteSource;
	use(source: ByteSource): void;
	/** Back to the source it was made with. */
	reset(): void;
}

export function switchableSource(initial: ByteSource): SwitchableSource {
	let inner = initial;
	return {
		initial,
		get size() {
			return inner.size;
		},
		read: (offset, length) => inner.read(offset, length),
		// Looked up on each use (decodeBuffer asks for it per buffer), so a switch takes effect.
		get readInto() {
			return inner.readInto?.bind(inner);
		},
		get holds() {
			return inner.holds?.bind(inner);
		},
		use(source) {
			if (source.size !== initial.size)
				throw new Error(`a source of ${source.size} bytes cannot stand for ${initial.size}`);
			inner = source;
		},
		reset() {
			inner = initial;
		},
		forget() {
			initial.forget?.();
			if (inner !== initial) inner.forget?.();
		},
	};
}
