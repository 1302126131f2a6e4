// Answers from chunk summaries (columns/chunk-summary.ts): a filter that reads only the columns a
// summary's combinations are made of gives one answer per combination, so it is tested once per
// combination and the combination's rows are counted as they are, without reading the chunk.
// The answers are those of a scan by construction: the same compiled predicate decides both.
import { SUMMARY_COLUMNS, type ChunkSummary } from '../columns/chunk-summary.ts';
import type { ColumnName, Columns } from '../columns/layout.ts';
import type { CompiledFilter } from './filter-compile.ts';
import type { ChunkInfo } from './column-cache.ts';
import type { TimeRange } from './protocol.ts';

const SUMMARISED: ReadonlySet<ColumnName> = new Set(SUMMARY_COLUMNS);

/** Whether a filter (null: none) can be decided per combination of a summary. */
export function summaryDecides(compiled: CompiledFilter | null): boolean {
	if (!compiled) return true;
	if (compiled.payloadTypes || compiled.owners || compiled.positional) return false;
	for (const c of compiled.columns) if (!SUMMARISED.has(c)) return false;
	return true;
}

/** Whether a chunk lies wholly inside a range (null: the whole trace). */
export function wholeIn(info: ChunkInfo, range: TimeRange | null): boolean {
	return !range || (info.tMin >= range.from && info.tMax < range.to);
}

/**
 * The summary that answers for a chunk under a filter and a range, if one does: the chunk has a
 * summary of its own rows, lies wholly inside the range, and the filter is decided per combination.
 */
export function answeringSummary(
	info: ChunkInfo,
	range: TimeRange | null,
	decides: boolean,
): ChunkSummary | null {
	const s = info.summary;
	return decides && s && s.rows === info.rows && wholeIn(info, range) ? s : null;
}

/** Per combination of a summary, whether the filter matches its rows (1) or not (0). */
export function matchingCombinations(
	compiled: CompiledFilter | null,
	summary: ChunkSummary,
): Uint8Array {
	const n = summary.counts.length;
	const hit = new Uint8Array(n);
	if (!compiled) return hit.fill(1);
	const test = compiled.bind(summary.columns as Columns);
	for (let k = 0; k < n; k++) if (test(k)) hit[k] = 1;
	return hit;
}

/** Rows of a chunk a filter matches, from its summary. */
export function summaryCount(compiled: CompiledFilter | null, summary: ChunkSummary): number {
	const hit = matchingCombinations(compiled, summary);
	let n = 0;
	for (let k = 0; k < hit.length; k++) if (hit[k] === 1) n += summary.counts[k]!;
	return n;
}
