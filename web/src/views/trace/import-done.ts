// Whether a trace being shown is whole. While it is imported the worker says when the view should
// ask again (worker/import-notices.ts holds that policy); what waits for the end is decided here.
import type { ImportProgress, TraceSummary } from '../../worker/api.ts';

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
