// ArrayBuffer.prototype.transfer (ES2024) where the runtime lacks it (Node 20), for tests of memory
// freed at once: the buffer transferred is detached, as browsers and newer Node detach it, and a
// buffer that cannot be (a WebAssembly memory's) throws.
type Transfer = (this: ArrayBuffer, length?: number) => ArrayBuffer;

/** Installs it if missing; returns what removes it again. */
export function withTransfer(): () => void {
	const proto = ArrayBuffer.prototype as unknown as { transfer?: Transfer };
	if (typeof proto.transfer === 'function') return () => {};
	const transfer: Transfer = function (length) {
		const moved = structuredClone(this, { transfer: [this] });
		return length === undefined || length === moved.byteLength ? moved : moved.slice(0, length);
	};
	Object.defineProperty(proto, 'transfer', { value: transfer, configurable: true, writable: true });
	return () => void delete proto.transfer;
}
