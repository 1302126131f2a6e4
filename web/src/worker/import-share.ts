// How much of an import is done, from its three parts: the decoding, the sockets rebuilt beside
// it, and the copy of the file into the library. The sockets start late (once the copy is
// whole), so the share is a weighted sum, which only grows, rather than the slowest part, which
// would send the bar back when they start. The decoding and the sockets each go over every
// record; the copy only moves bytes.

const DECODING = 2;
const SOCKETS = 2;
const COPY = 1;

/** Each part done from 0 to 1; `copied` null when the import makes no copy. */
export function importShare(decoded: number, followed: number, copied: number | null): number {
	const clamp = (x: number) => Math.min(1, Math.max(0, x));
	const parts = DECODING * clamp(decoded) + SOCKETS * clamp(followed);
	return copied === null
		? parts / (DECODING + SOCKETS)
		: (parts + COPY * clamp(copied)) / (DECODING + SOCKETS + COPY);
}
