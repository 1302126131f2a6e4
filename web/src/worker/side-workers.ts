// The page's half of the side jobs (copying a file): the page starts their workers and hands the
// decoder worker a port to each. Workers started by the decoder worker
// itself could stall it for good in Firefox under load (a nested worker's start waits on the
// main thread); started here, each talks to the decoder worker directly over its port.
import { transfer } from 'comlink';
import { STOP_WORKER, type JobPorts } from '../lib/job.ts';

export type SideWorker = 'copy' | 'sockets';

// Written out per kind: the `new Worker(new URL(…))` shape is what Vite bundles.
function create(kind: SideWorker): Worker {
	switch (kind) {
		case 'copy':
			return new Worker(new URL('../store/copy.worker.ts', import.meta.url), {
				type: 'module',
				name: 'trace-copy',
			});
		case 'sockets':
			return new Worker(new URL('./sockets.worker.ts', import.meta.url), {
				type: 'module',
				name: 'trace-sockets',
			});
	}
}

/** Starts a side worker; its ports, transferred to the decoder worker that asked for it. */
export function startSideWorker(kind: SideWorker): JobPorts {
	const worker = create(kind);
	const job = new MessageChannel();
	const control = new MessageChannel();
	worker.postMessage(job.port2, [job.port2]);
	worker.onerror = (e) => {
		control.port1.postMessage(e.message);
		worker.terminate();
	};
	control.port1.onmessage = (e: MessageEvent<string>) => {
		if (e.data === STOP_WORKER) worker.terminate();
	};
	const ports: JobPorts = { job: job.port1, control: control.port2 };
	return transfer(ports, [job.port1, control.port2]);
}
