// Follows an import's sockets on a core of its own, beside the decoding: the decoder worker sends
// the slices it decoded and the order of their records (sockets/follow-link.ts), this worker
// feeds the tracker and answers with its progress, the names it learned, and at the end the
// owners table (sockets/follow-replay.ts). It stores the sockets itself: copied back to the
// decoder worker and then again into storage, a 25 M-event trace's took seconds of its end.
// The page starts it and hands its port to the decoder worker (side-workers.ts).
import { serveFollower } from '../sockets/follow-replay.ts';
import { openStore } from '../store/db.ts';
import { putTracked } from '../store/trace-store.ts';

self.onmessage = (e: MessageEvent<MessagePort>) => {
	if (!(e.data instanceof MessagePort)) return;
	serveFollower(
		e.data,
		() => self.close(),
		async ({ db: name, traceId }, sockets) => {
			const db = await openStore(name);
			try {
				return await putTracked(db, traceId, sockets);
			} finally {
				db.close();
			}
		},
	);
};
