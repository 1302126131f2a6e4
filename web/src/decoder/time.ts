// FILETIME: 100 ns intervals since 1601-01-01 UTC, kept as bigint end to end (they exceed 2^53).

const EPOCH_DIFF_MS = 11644473600000n;
const MAX_MS = 8640000000000000n;

/** ISO 8601 UTC with 7 fractional digits, e.g. 2026-03-14T09:26:53.5897932Z; null when out of range. */
export function filetimeToIso(ft: bigint): string | null {
	if (ft < 0n) return null;
	const ms = ft / 10000n - EPOCH_DIFF_MS;
	if (ms > MAX_MS || ms < -MAX_MS) return null;
	const seconds = ft / 10000000n;
	const fraction = (ft % 10000000n).toString().padStart(7, '0');
	const d = new Date(Number(seconds * 1000n - EPOCH_DIFF_MS));
	const iso = d.toISOString();
	if (iso.length !== 24) return null;
	// One flat string: a template would make a tree of parts that also holds the whole ISO
	// string, several times the memory of the text (a socket's summary keeps about eight).
	return [iso.slice(0, 19), '.', fraction, 'Z'].join('');
}

export function filetimeFromIso(iso: string): bigint {
	const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,7}))?Z$/.exec(iso);
	if (!m) throw new Error(`not an ISO UTC time: ${iso}`);
	const seconds = BigInt(Date.parse(`${m[1]}Z`) / 1000);
	const fraction = BigInt((m[2] ?? '').padEnd(7, '0'));
	return (seconds * 1000n + EPOCH_DIFF_MS) * 10000n + fraction;
}
