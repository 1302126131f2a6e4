// Test helper: a written trace summed up for comparison, the way `sockscope diff` reads one.
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { summarizeStream } from '../../web/src/compare/summarize.ts';
import type { TraceSummary } from '../../web/src/compare/summary.ts';
import { trackTraceStream } from '../../web/src/sockets/track-trace.ts';
import { open } from '../decoder/load.ts';

export async function summaryOf(bytes: Uint8Array, name = 'trace.etl'): Promise<TraceSummary> {
	const trace = await open(bytes, name);
	const index = await indexBuffers(trace);
	const tracked = await trackTraceStream(trace, index.buffers, { maxEventsPerSocket: 0 });
	return summarizeStream(name, tracked);
}
