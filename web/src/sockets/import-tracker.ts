// The socket tracker as an import runs it: fed every record in time order, and asked before each
// chunk is stored for the process names it has learned (for the Process column and `process:`).
import type { DecodedBuffer } from '../decoder/decoded-buffer.ts';
import type { OpenTrace } from '../decoder/etl-file.ts';
import { ProviderTable } from '../decoder/record-json.ts';
import type { TraceTables } from '../ingest/trace-tables.ts';
import { BufferFeeder } from './buffer-view.ts';
import { finishTracking } from './track-trace.ts';
import { SocketTracker, type TrackedTrace } from './tracker.ts';

/**
 * A socket's events are found again by filtering on its endpoint; the few indexes kept per socket
 * (first and last) keep the tracker's memory bounded by sockets, not by events.
 */
export const EVENTS_KEPT_PER_SOCKET = 256;

export interface ImportTracker {
	readonly tracker: SocketTracker;
	/** For IngestOptions.observe. */
	observe(b: DecodedBuffer, i: number, index: number): void;
	/** For IngestOptions.beforeCommit: adds the process and host names learned so far. */
	learnNames(tables: TraceTables): void;
	/** The sockets once every record has been fed, as trackTrace gives them (finishTracking). */
	finish(): TrackedTrace;
}

/**
 * With `sockets` false only process events are followed: the names, without the cost of the
 * sockets (which the web import rebuilds in a worker of their own).
 */
export function importTracker(trace: OpenTrace, sockets = true): ImportTracker {
	const origin = BigInt(trace.facts.startFiletime);
	const tracker = new SocketTracker({ origin, maxEventsPerSocket: EVENTS_KEPT_PER_SOCKET });
	const guids = new ProviderTable(trace);
	const feeder = new BufferFeeder(tracker, origin, (p) => guids.guid(p), sockets);
	let learnedAnswers = 0;
	return {
		tracker,
		observe: (b, i, index) => feeder.feed(b, i, index),
		finish: () => finishTracking(tracker, feeder.net),
		learnNames(tables) {
			for (const p of tracker.processes.list())
				if (p.name && !tables.processNames.has(p.pid)) tables.processNames.set(p.pid, p.name);
			const names = feeder.net.names;
			if (names.answers !== learnedAnswers) {
				learnedAnswers = names.answers;
				for (const [address, list] of names.allNames()) tables.hostNames.set(address, list);
			}
		},
	};
}
