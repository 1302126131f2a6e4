// The work an import hands to a worker of its own, beside the decoding: copying the file into
// the library. Given to each import, so tests can stand it in. In the browser the page starts
// that worker (side-workers.ts) and this worker talks to it through the ports it hands over.
// (The sockets are followed by the decoding itself: the file is decoded once.)
import type { ByteSource } from '../decoder/source.ts';
import { copyRequest, openTraceFileSync } from '../store/trace-files.ts';
import { laterJob, portChannel, startJob, type Job, type JobPorts } from '../lib/job.ts';
import type { SideWorker } from './side-workers.ts';

export interface SideJobs {
	/** Copies `file` into the library as the copy of trace `id`. */
	copy(file: File, id: number): Job<null>;
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
	openCopy: openTraceFileSync,
};
