// An in-process fuzz worker (a worker thread, one per core): compiles the release decoder once
// and judges input after input through the CLI's and the page's code, keeping one decoder
// instance (instance-cache.ts) that is recreated after a trap or exception. The page's path runs on every
// `pageEvery`-th input and on every input whose CLI outcome reaches a feature (judge.ts) this worker had not seen;
// the compare on the inputs the runner sends with a neighbour.
// The pool (pool.ts) holds the watchdog: a hang or a heap past the thread's limit ends the
// thread, and the pool starts another.
import { parentPort, workerData } from 'node:worker_threads';
import { decoderModule } from '../decoder/load.ts';
import { keepInstances, dropInstance } from './instance-cache.ts';
import { isFault, judge, type Verdict } from './judge.ts';

export interface ThreadRequest {
	readonly id: number;
	readonly bytes: Uint8Array;
	/** A corpus neighbour to compare the input with, or null. */
	readonly neighbour: Uint8Array | null;
}
export interface ThreadReply {
	readonly id: number;
	readonly verdict: Verdict;
	readonly ms: number;
}
export interface ThreadData {
	readonly pageEvery: number;
}

const { pageEvery } = workerData as ThreadData;
keepInstances();
const module = decoderModule();
const seen = new Set<string>();
let n = 0;

parentPort!.on('message', async (msg: ThreadRequest) => {
	const started = performance.now();
	n++;
	const verdict = await judge(
		module,
		msg.bytes,
		(features) => {
			const fresh = features.filter((f) => !seen.has(f));
			for (const f of fresh) seen.add(f);
			return fresh.length > 0 || n % pageEvery === 0;
		},
		msg.neighbour,
	);
	// After a compare the instance last held another trace: the next input starts on a fresh one.
	dropInstance(isFault(verdict.outcome) || verdict.compared);
	parentPort!.postMessage({
		id: msg.id,
		verdict,
		ms: performance.now() - started,
	} satisfies ThreadReply);
});
parentPort!.postMessage({ ready: true });
