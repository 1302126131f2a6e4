// Follows an import's sockets on a core of its own, beside the decoding: the decoder worker sends
// the slices it decoded and the order of their records (follow-link.ts), this worker feeds the
// tracker and answers with its progress, the names it learned, and at the end the sockets
// (follow-replay.ts). The page starts it and hands its port to the decoder worker
// (worker/side-workers.ts).
import { serveFollower } from './follow-replay.ts';

self.onmessage = (e: MessageEvent<MessagePort>) => {
	if (e.data instanceof MessagePort) serveFollower(e.data, () => self.close());
};
