// What the decoder worker and the sockets worker say to each other while an import follows the
// sockets on a core of its own (follow-link.ts on one side, follow-replay.ts on the other).
import type { EventOwners } from '../columns/event-owners.ts';
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
	/** `home`: where the worker stores the sockets itself (null: it hands them over). */
	| { readonly kind: 'finish'; readonly home: SocketsHome | null };

/** Where an import's sockets are stored: the library's database, by name, and their trace. */
export interface SocketsHome {
	readonly db: string;
	readonly traceId: number;
}

/**
 * What following ends with: the owners table (the decoder worker packs it against the trace's
 * strings), and the sockets, unless the worker stored them itself (null). `listed`: false when
 * the trace had left the library before they could be stored.
 */
export interface Followed {
	readonly owners: EventOwners | null;
	readonly sockets: Omit<TrackedTrace, 'owners'> | null;
	readonly listed: boolean;
}

export type FromFollower =
	/**
	 * `rows`: records followed so far; `spare`: the memory of slices followed, for the next ones;
	 * with the names learned since the last report.
	 */
	| ({ readonly kind: 'progress'; readonly rows: number; readonly spare: ArrayBuffer[] } & NewNames)
	| { readonly kind: 'done'; readonly result: Followed }
	| { readonly kind: 'error'; readonly message: string };
