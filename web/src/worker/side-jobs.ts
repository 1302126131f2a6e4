// The work an import hands to a worker of its own, beside the decoding: copying the file into
// the library. Given to each import, so tests can stand it in. In the browser the page starts
// that worker (side-workers.ts) and this worker talks to it through the ports it hands over.
// The sockets are followed in a worker of their own too, from the slices the decoding sends it
// (the file is decoded once).
import { copyRequest, openTraceFileSync, type CopySource } from '../store/trace-files.ts';
import {
	laterJob,
	portChannel,
	startJob,
	type Job,
	type JobChannel,
	type JobPorts,
} from '../lib/job.ts';
import type { FollowChannel } from '../sockets/follow-link.ts';
import type { FromFollower, ToFollower } from '../sockets/follow-messages.ts';
import type { SideWorker } from './side-workers.ts';

export interface SideJobs {
	/** Copies `file` into the library as the copy of trace `id`. */
	copy(file: File, id: number): Job<null>;
	/**
	 * The library's copy of trace `id` for synchronous reads, or null when it cannot be opened;
	 * `whole`: its size once written, for a copy still being written (opened beside its writer).
	 */
	openCopy(id: number, whole?: number): Promise<CopySource | null>;
	/**
	 * A channel to a worker that follows the sockets, started once `after` settles (what is sent
	 * meanwhile waits for it); absent: they are followed in this one.
	 */
	follow?(after: Promise<void>): FollowChannel | undefined;
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

/**
 * The channel to a sockets worker, whose ports come from the page a moment later; `wake` asks
 * for them now when their start was put off.
 */
function followChannel(ports: Promise<JobPorts>, wake: () => void): FollowChannel {
	let got: JobChannel<FromFollower> | null = null;
	let closed = false;
	let queued: [ToFollower, Transferable[]][] = [];
	let onMessage: (m: FromFollower) => void = () => {};
	let onError: (message: string) => void = () => {};
	ports.then(
		(p) => {
			const channel = portChannel<FromFollower>(p);
			if (closed) return channel.stop();
			got = channel;
			channel.listen(
				(m) => onMessage(m),
				(message) => onError(message),
			);
			for (const [m, transfer] of queued) channel.send(m, transfer);
			queued = [];
		},
		(e: Error) => onError(e.message),
	);
	return {
		post(m, transfer) {
			if (got) got.send(m, transfer);
			else if (!closed) queued.push([m, transfer]);
		},
		listen(message, error) {
			onMessage = message;
			onError = error;
		},
		close() {
			if (closed) return;
			closed = true;
			queued = [];
			got?.stop();
		},
		wake,
	};
}

function startFollower(after: Promise<void>): FollowChannel | undefined {
	const start = starter;
	if (!start) return undefined;
	let begin!: () => void;
	const begun = new Promise<void>((resolve) => (begin = resolve));
	void after.then(begin);
	return followChannel(
		begun.then(() => start('sockets')),
		() => begin(),
	);
}

// The jobs' names (i18n: data) only ever stand in the text of a browser's or a bug's error.
export const browserSideJobs: SideJobs = {
	// i18n: data
	copy: (file, id) => sideJob('copy', 'copying the file into the library', copyRequest(file, id)),
	openCopy: (id, whole) =>
		openTraceFileSync(id, whole === undefined ? 'read-only' : 'readwrite-unsafe', whole),
	follow: startFollower,
};
