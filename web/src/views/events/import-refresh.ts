// While a trace is being imported its table shows what is stored so far. Each re-run of the
// filter (with its timeline) scans that in the same worker as the import, so the pauses between
// runs grow with the import: half the time it has taken, at least a second. Until an answer has
// rows, every progress report asks again (the first waits in the worker for the first chunk).
import type { ImportProgress, TraceSummary } from '../../worker/api.ts';

/** Shortest pause between two runs while importing. */
export const MIN_REFRESH_MS = 1000;

/**
 * Whether a progress report should re-run the current filter, `sinceLastMs` after the last run.
 * `nothingYet`: no run is going on and the last answer counted no events.
 */
export function refreshDue(
	progress: Pick<ImportProgress, 'elapsedMs' | 'bytesDone' | 'bytesTotal'>,
	sinceLastMs: number,
	nothingYet: boolean,
): boolean {
	const tooSoon = sinceLastMs < Math.max(MIN_REFRESH_MS, progress.elapsedMs / 2);
	const lastReport = progress.bytesDone >= progress.bytesTotal;
	return nothingYet || !tooSoon || lastReport;
}

/**
 * Whether the trace is whole: no import reports on it and the library does not list it as being
 * imported. The names, the trust counters and the sockets wait for that: they take a pass over
 * the whole trace, which would only slow an import down (one worker does both).
 */
export function importDone(
	progress: ImportProgress | null,
	trace: Pick<TraceSummary, 'status'>,
): boolean {
	return !progress && trace.status !== 'importing';
}

/** The import has ended and the answer on screen was partial: one more run makes it whole. */
export function finalRunDue(
	progress: ImportProgress | null,
	trace: Pick<TraceSummary, 'status'>,
	answerPartial: boolean,
): boolean {
	return !progress && trace.status === 'complete' && answerPartial;
}
