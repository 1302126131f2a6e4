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

/**
 * Serves reads from large aligned blocks, so that walking buffers in (nearly) file order costs
 * one read per block rather than one per buffer. Keeps a few blocks for the out-of-order reads
 * of per-CPU buffers flushed late.
 */
export function blockCache(source: ByteSource, blockSize = 8 << 20, keep = 4): ByteSource {
	// Blocks are kept as promises, so that concurrent reads of one block share a single read.
	const blocks = new Map<number, Promise<Uint8Array>>();
	let last = -1;
	function load(start: number): Promise<Uint8Array> {
		const b = source.read(start, blockSize);
		blocks.set(start, b);
		if (blocks.size > keep) blocks.delete(blocks.keys().next().value!);
		b.catch(() => blocks.delete(start));
		return b;
	}
	function block(start: number): Promise<Uint8Array> {
		let b = blocks.get(start);
		if (b) {
			blocks.delete(start);
			blocks.set(start, b);
		} else b = load(start);
		// Read on sequentially: the next block is read while this one is used.
		const next = start + blockSize;
		if (start === last + blockSize && next < source.size && !blocks.has(next)) load(next);
		last = start;
		return b;
	}
	const cached: ByteSource = {
		size: source.size,
		async read(offset, length) {
			const start = offset - (offset % blockSize);
			if (offset + length > start + blockSize) return source.read(offset, length);
			const b = await block(start);
			return b.subarray(offset - start, Math.min(b.length, offset - start + length));
		},
	};
	// A source that reads synchronously into the caller's memory (a Node file) is faster read
	// directly, buffer by buffer: blocks would cost an allocation and an extra copy each, and the
	// index pass, which needs 0x48 bytes per buffer, would read the whole file.
	const direct = source.readInto?.bind(source);
	if (direct) cached.readInto = direct;
	return cached;
}
