// "Did you mean": the known word nearest a mistyped one, by edit distance (case ignored).

/** Levenshtein distance with adjacent transpositions counted as one edit. */
export function editDistance(a: string, b: string): number {
	const m = a.length;
	const n = b.length;
	let prev2: number[] = [];
	let prev = Array.from({ length: n + 1 }, (_, j) => j);
	for (let i = 1; i <= m; i++) {
		const row = [i];
		for (let j = 1; j <= n; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
				d = Math.min(d, prev2[j - 2]! + 1);
			row.push(d);
		}
		prev2 = prev;
		prev = row;
	}
	return prev[n]!;
}

/**
 * The candidate nearest `word`, when it is near enough to be a slip of the keyboard: at most one
 * edit in a short word, two in a longer one, or the word as a prefix of the candidate.
 */
export function nearest(word: string, candidates: Iterable<string>): string | null {
	const w = word.toLowerCase();
	let best: string | null = null;
	let bestD = Infinity;
	for (const c of candidates) {
		const d = editDistance(w, c.toLowerCase());
		if (d < bestD) {
			best = c;
			bestD = d;
		}
	}
	if (best === null || bestD === 0) return best;
	const limit = w.length <= 4 ? 1 : 2;
	return bestD <= limit ? best : null;
}
