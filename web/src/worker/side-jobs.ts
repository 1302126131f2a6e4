// The work an import hands to workers of their own, beside the decoding: copying the file into
// the library and rebuilding its sockets. Given to each import, so tests can stand them in.
import type { ByteSource } from '../decoder/source.ts';
import { copyTraceFile, openTraceFileSync } from '../store/trace-files.ts';
import { startJob, type Job } from '../lib/job.ts';
import type { SocketsRequest, SocketsStored } from './sockets.worker.ts';

export interface SideJobs {
	/** Copies `file` into the library as the copy of trace `id`. */
	copy(file: File, id: number): Job<null>;
	/** Rebuilds the sockets of a trace and stores them. */
	sockets(request: SocketsRequest): Job<SocketsStored>;
	/** The library's copy of trace `id` for synchronous reads, or null when it cannot be opened. */
	openCopy(id: number): Promise<(ByteSource & { close(): void }) | null>;
}

export const browserSideJobs: SideJobs = {
	copy: copyTraceFile,
	sockets(request) {
		const worker = new Worker(new URL('./sockets.worker.ts', import.meta.url), {
			type: 'module',
			name: 'sockets',
		});
		return startJob<SocketsStored>(worker, 'rebuilding the sockets', request);
	},
	openCopy: openTraceFileSync,
};
