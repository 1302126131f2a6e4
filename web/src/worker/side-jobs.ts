// The work an import hands to workers of their own, beside the decoding: copying the file into
// the library and rebuilding its sockets. Given to each import, so tests can stand them in. In
// the browser the page starts those workers (side-workers.ts) and this worker talks to them
// through the ports it hands over.
import type { ByteSource } from '../decoder/source.ts';
import { copyRequest, openTraceFileSync } from '../store/trace-files.ts';
import { laterJob, portChannel, startJob, type Job, type JobPorts } from '../lib/job.ts';
import type { SideWorker } from './side-workers.ts';
import type { SocketsRequest, SocketsStored } from './sockets.worker.ts';

export interface SideJobs {
	/** Copies `file` into the library as the copy of trace `id`. */
	copy(file: File, id: number): Job<null>;
	/** Rebuilds the sockets of a trace and stores them. */
	sockets(request: SocketsRequest): Job<SocketsStored>;
	/** The library's copy of trace `id` for synchronous reads, or null when it cannot be opened. */
	openCopy(id: number): Promise<(ByteSource & { close(): void }) | null>;
}

/** How this worker gets a side worker from the page (a Comlink proxy of startSideWorker). */
export type SideWorkerStarter = (kind: SideWorker) => Promise<JobPorts> | JobPorts;

let starter: SideWorkerStarter | null = null;

/** The page says how it starts side workers, before its first import (decoder-api.ts). */
export function useSideWorkers(start: SideWorkerStarter): void {
	starter = start;
}

function sideJob<R>(kind: SideWorker, what: string, request: unknown): Job<R> {
	const start = starter;
	const ports = start
		? Promise.resolve(start(kind))
		: Promise.reject(new Error(`${what}: the page started no worker for it`));
	return laterJob(ports.then((p) => startJob<R>(portChannel(p), what, request)));
}

// The jobs' names (i18n: data) only ever stand in the text of a browser's or a bug's error.
export const browserSideJobs: SideJobs = {
	// i18n: data
	copy: (file, id) => sideJob('copy', 'copying the file into the library', copyRequest(file, id)),
	// i18n: data
	sockets: (request) => sideJob('sockets', 'rebuilding the sockets', request),
	openCopy: openTraceFileSync,
};
