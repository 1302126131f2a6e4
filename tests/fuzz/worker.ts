// The child process that confirms a finding of the in-process workers: judges the input it is
// sent exactly as a worker thread does (judge.ts, the page's path included) and answers with the
// verdict and its own resident memory. Run with a V8 heap limit; the parent holds a kill timer,
// so a hang or an exhausted heap shows as that input's outcome.
import { decoderModule } from '../decoder/load.ts';
import { judge, type Verdict } from './judge.ts';

export interface FuzzRequest {
	readonly id: number;
	readonly bytes: Uint8Array;
	/** A corpus neighbour to compare the input with, or null. */
	readonly neighbour: Uint8Array | null;
}

export interface FuzzReply {
	readonly id: number;
	readonly verdict: Verdict;
	readonly rss: number;
}

const module = decoderModule();

process.on('message', async (msg: FuzzRequest) => {
	const neighbour = msg.neighbour ? new Uint8Array(msg.neighbour) : null;
	const verdict = await judge(module, new Uint8Array(msg.bytes), () => true, neighbour);
	process.send!({ id: msg.id, verdict, rss: process.memoryUsage().rss } satisfies FuzzReply);
});
process.send!({ ready: true });
