// Events the user marked (M, or the row menu), kept per trace on this machine: by the trace's
// key (its fingerprint's start, state/view-hash.ts), so they come back after a reload and with
// the same file imported again. An event is named by its index in the trace.

const PREFIX = 'sockscope.marks.';

/** Most marks kept for one trace (a mark is for a handful of events worth coming back to). */
export const MAX_MARKS = 10_000;

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function loadMarks(storage: Storage | null, traceKey: string): Set<number> {
	try {
		const v = JSON.parse(storage?.getItem(PREFIX + traceKey) ?? '[]') as unknown;
		if (!Array.isArray(v)) return new Set();
		return new Set(
			v.filter((i): i is number => Number.isSafeInteger(i) && i >= 0).slice(0, MAX_MARKS),
		);
	} catch {
		return new Set();
	}
}

export function saveMarks(storage: Storage | null, traceKey: string, marks: ReadonlySet<number>) {
	try {
		if (marks.size === 0) storage?.removeItem(PREFIX + traceKey);
		else storage?.setItem(PREFIX + traceKey, JSON.stringify([...marks].sort((a, b) => a - b)));
	} catch {
		// Storage may be off or full: the marks then last until the page closes.
	}
}

/** The marks with `index` marked or unmarked (`on` unset: the other way round). */
export function toggleMark(marks: ReadonlySet<number>, index: number, on?: boolean): Set<number> {
	const next = new Set(marks);
	const mark = on ?? !next.has(index);
	if (mark && next.size < MAX_MARKS) next.add(index);
	else if (!mark) next.delete(index);
	return next;
}

/**
 * The next marked event after `from` (step 1) or before it (-1), wrapping round at the ends;
 * `from` null: the first (or last). Null when nothing is marked.
 */
export function markAfter(
	marks: ReadonlySet<number>,
	from: number | null,
	step: 1 | -1,
): number | null {
	if (marks.size === 0) return null;
	const sorted = [...marks].sort((a, b) => a - b);
	if (from === null) return step === 1 ? sorted[0]! : sorted.at(-1)!;
	if (step === 1) return sorted.find((i) => i > from) ?? sorted[0]!;
	return sorted.findLast((i) => i < from) ?? sorted.at(-1)!;
}

/** Whether a filter reads the marks (`marked:yes`): the worker then needs them with it. */
export const readsMarks = (filter: string): boolean => /\bmarked\b/i.test(filter);
