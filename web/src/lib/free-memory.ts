// Memory let go of at once rather than at the collector's next pass. A worker that allocates
// little (the decoder waiting on the sockets' end) may not collect for seconds, so arrays it is
// done with count against the import's memory while the other workers hold their most.

/**
 * Arrays this small may live on the JS heap (V8 keeps those of up to 64 bytes there): asking for
 * their buffer would only copy them out of it.
 */
const ON_HEAP_BYTES = 64;

/**
 * Frees the memory behind `array` now by detaching its buffer (ES2024 `ArrayBuffer.transfer`),
 * where the platform can; elsewhere it is left to the collector. Only for memory that nothing
 * reads any more: every view of it reads as empty afterwards.
 */
export function freeNow(array: ArrayBufferView): void {
	if (array.byteLength <= ON_HEAP_BYTES) return;
	freeBufferNow(array.buffer);
}

/** The same for a whole buffer (its views alike). */
export function freeBufferNow(buffer: ArrayBufferLike): void {
	const transfer = (buffer as { transfer?: (length: number) => ArrayBuffer }).transfer;
	// A shared buffer has no transfer: it stays as it is.
	if (typeof transfer !== 'function' || !(buffer instanceof ArrayBuffer)) return;
	try {
		transfer.call(buffer, 0);
	} catch {
		// A WebAssembly memory's buffer cannot be detached: the collector frees it with its owner.
	}
}
