// Rebuilds the sockets of a trace being imported, on a core of its own: a second time-ordered
// pass over the dropped file (the WASM decode is cheap), so that the decoder worker only builds
// and stores the event columns. Record indexes match the import's: the same merge, the same order.
import type { BufferEntry } from '../decoder/etl-file.ts';
import { openTrace } from '../decoder/etl-file.ts';
import { blobSource, blockCache } from '../decoder/source.ts';
import { EVENTS_KEPT_PER_SOCKET } from '../sockets/import-tracker.ts';
import { trackTrace } from '../sockets/track-trace.ts';
import type { TrackedTrace } from '../sockets/tracker.ts';
import { serveJob } from './job.ts';

export interface SocketsRequest {
	readonly file: File;
	readonly module: WebAssembly.Module;
	/** The import's buffer index (the same buffers, so the same record order). */
	readonly buffers: readonly BufferEntry[];
}

const PROGRESS_EVERY = 8 << 20;

serveJob<SocketsRequest, TrackedTrace>(async ({ file, module, buffers }, progress) => {
	const opened = await openTrace(blockCache(blobSource(file)), module, file.name);
	if (!opened.ok) throw new Error(opened.error);
	let done = 0;
	let reported = 0;
	const options = { maxEventsPerSocket: EVENTS_KEPT_PER_SOCKET };
	const tracked = await trackTrace(opened.value, buffers, options, (b) => {
		done += b.entry.available;
		if (done - reported >= PROGRESS_EVERY) progress((reported = done));
	});
	progress(done);
	return tracked;
});
