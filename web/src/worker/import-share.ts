// How much of an import is done, from its two parts: the decoding (which also follows the
// sockets, record by record) and the copy of the file into the library. A weighted sum, which
// only grows, rather than the slowest part: the copy starts late (once the first rows are
// stored). The decoding goes over every record; the copy only moves bytes.

const DECODING = 4;
const COPY = 1;

/** Each part done from 0 to 1; `copied` null when the import makes no copy. */
export function importShare(decoded: number, copied: number | null): number {
	const clamp = (x: number) => Math.min(1, Math.max(0, x));
	const parts = DECODING * clamp(decoded);
	return copied === null ? parts / DECODING : (parts + COPY * clamp(copied)) / (DECODING + COPY);
}
