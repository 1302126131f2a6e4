// What the decoder worker and the sockets worker say to each other while an import follows the
// sockets on a core of its own (follow-link.ts on one side, follow-replay.ts on the other).
import type { NewNames } from './import-tracker.ts';
import type { TrackedTrace } from './tracker.ts';
import type { WireSlice } from './slice-wire.ts';

export type ToFollower =
	/** `origin`: the trace's StartTime FILETIME (decimal text). */
	| { readonly kind: 'start'; readonly origin: string }
	/**
	 * Slices decoded since the last message, and the records handed out meanwhile, in time order,
	 * as runs (slice id, first record, count); `guids`: the provider GUIDs the decoder learned
	 * since, by index after those already told; `names`: the report after it tells the names
	 * learned (asked for every so often, and when the decoding catches up).
	 */
	| {
			readonly kind: 'records';
			readonly slices: WireSlice[];
			readonly runs: Uint32Array;
			readonly guids: string[];
			readonly names: boolean;
	  }
	| { readonly kind: 'finish' };

export type FromFollower =
	/**
	 * `rows`: records followed so far; `spare`: the memory of slices followed, for the next ones;
	 * with the names learned since the last report.
	 */
	| ({ readonly kind: 'progress'; readonly rows: number; readonly spare: ArrayBuffer[] } & NewNames)
	| { readonly kind: 'done'; readonly result: TrackedTrace }
	| { readonly kind: 'error'; readonly message: string };
