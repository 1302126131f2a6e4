// The page's side of an import's notices: the worker tells the view of a trace being imported
// when to ask again (worker/import-notices.ts holds the policy); this only passes them on.
import { proxy, type Remote } from 'comlink';
import type { ChunksCommitted, DecoderApi } from '../../worker/api.ts';

/** Calls `onCommitted` whenever the worker says; returns what stops it. */
export function followImport(
	api: Remote<DecoderApi> | DecoderApi,
	traceId: number,
	onCommitted: (c: ChunksCommitted) => void,
): () => void {
	const following = api.followImport(traceId, proxy(onCommitted));
	return () =>
		void following.then((r) => {
			if (r.ok) void api.unfollowImport(r.value);
		});
}
