// Rebuilds the sockets of a trace being imported, on a core of its own: a second time-ordered
// pass over the file (the WASM decode is cheap), so that the decoder worker only builds and
// stores the event columns. Record indexes match the import's: the same merge, the same order.
// It stores them itself: handing them to the decoder worker to store would clone them twice,
// at the end of the import.
// It reads the library's copy of the file when there is one: synchronous reads of a local file
// cost far less than reading the dropped File through the browser.
import type { BufferEntry } from '../decoder/etl-file.ts';
import { indexBuffers, openTrace } from '../decoder/etl-file.ts';
import { blobSource, blockCache } from '../decoder/source.ts';
import { openTraceFileSync } from '../store/trace-files.ts';
import { EVENTS_KEPT_PER_SOCKET } from '../sockets/import-tracker.ts';
import { trackTrace } from '../sockets/track-trace.ts';
import type { TrackedTrace } from '../sockets/tracker.ts';
import { openStore } from '../store/db.ts';
import { putSockets } from '../store/trace-store.ts';
import { serveJob } from '../lib/job.ts';
import wasmUrl from '../../../build/release/decoder.wasm?url';
import { compileDecoderFromUrl } from '../decoder/wasm.ts';

// Compiled here rather than sent by the decoder worker: Firefox cannot post a WebAssembly.Module
// through a MessagePort (the request would never arrive), and the bytes come from the cache.
let module: Promise<WebAssembly.Module> | null = null;
const decoderModule = () => (module ??= compileDecoderFromUrl(wasmUrl));

export interface SocketsRequest {
	readonly file: File;
	/**
	 * The import's buffer index (the same buffers, so the same record order); null to index the
	 * copy here (the same bytes give the same buffers).
	 */
	readonly buffers: readonly BufferEntry[] | null;
	/** The trace whose copy in the library to read instead of `file`, if it is whole. */
	readonly copyOf: number | null;
	/** The library's trace whose sockets these are. */
	readonly traceId: number;
}

/** How many sockets were stored; null when the trace had left the library meanwhile. */
export type SocketsStored = number | null;

const PROGRESS_EVERY = 8 << 20;

serveJob<SocketsRequest, SocketsStored>(async (request, progress) => {
	const tracked = await track(request, progress);
	const db = await openStore();
	try {
		return (await putSockets(db, request.traceId, tracked)) ? tracked.sockets.length : null;
	} finally {
		db.close();
	}
});

async function track(
	{ file, buffers, copyOf }: SocketsRequest,
	progress: (done: number) => void,
): Promise<TrackedTrace> {
	const copy = copyOf === null ? null : await openTraceFileSync(copyOf);
	try {
		const source = copy ?? blockCache(blobSource(file));
		const opened = await openTrace(source, await decoderModule(), file.name);
		if (!opened.ok) throw new Error(opened.error);
		// A local copy reads synchronously, header by header: its index costs little.
		const index = buffers ?? (await indexBuffers(opened.value)).buffers;
		let done = 0;
		let reported = 0;
		const options = { maxEventsPerSocket: EVENTS_KEPT_PER_SOCKET };
		const tracked = await trackTrace(opened.value, index, options, (b) => {
			done += b.entry.available;
			if (done - reported >= PROGRESS_EVERY) progress((reported = done));
		});
		progress(done);
		return tracked;
	} finally {
		copy?.close();
	}
}
