// What every benchmark reads of its command line, and how it sums up repeated runs.

/** An integer option `name N` (at least `min`), or `fallback` when it is not given. */
export function arg(name: string, fallback: number, min = 1): number {
	const i = process.argv.indexOf(name);
	if (i < 0) return fallback;
	const v = Number(process.argv[i + 1]);
	if (!Number.isInteger(v) || v < min) throw new Error(`${name} needs an integer ≥ ${min}`);
	return v;
}

export const median = (xs: number[]): number => {
	const s = [...xs].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
