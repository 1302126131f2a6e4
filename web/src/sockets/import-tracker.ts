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
	const guids = new ProviderTable(trace);
	return followRecords(BigInt(trace.facts.startFiletime), (p) => guids.guid(p), sockets);
}

/** Names learned since the last time they were asked for (NamesLearned.take). */
export interface NewNames {
	readonly processNames: [number, string][];
	readonly hostNames: [string, string[]][];
}

/**
 * The tracker over records from `origin` (the trace's StartTime FILETIME), `guidOf` naming the
 * decoder's provider indexes.
 */
export function followRecords(
	origin: bigint,
	guidOf: (providerIndex: number) => string | null,
	sockets = true,
): ImportTracker & { readonly names: NamesLearned } {
	const tracker = new SocketTracker({ origin, maxEventsPerSocket: EVENTS_KEPT_PER_SOCKET });
	const feeder = new BufferFeeder(tracker, origin, guidOf, sockets);
	const names = new NamesLearned(tracker, feeder);
	return {
		tracker,
		names,
		observe: (b, i, index) => feeder.feed(b, i, index),
		finish: () => finishTracking(tracker, feeder.net),
		learnNames: (tables) => addNames(tables, names.take()),
	};
}

/** Adds names to the tables, the first one learned for each process winning. */
export function addNames(tables: TraceTables, names: NewNames): void {
	for (const [pid, name] of names.processNames)
		if (!tables.processNames.has(pid)) tables.processNames.set(pid, name);
	for (const [address, list] of names.hostNames) tables.hostNames.set(address, list);
}

/** What the tracker has learned of process and host names since it was last asked. */
export class NamesLearned {
	readonly #tracker: SocketTracker;
	readonly #feeder: BufferFeeder;
	readonly #processes = new Set<number>();
	/** Per address, the names told (joined). */
	readonly #hosts = new Map<string, string>();
	#answers = 0;

	constructor(tracker: SocketTracker, feeder: BufferFeeder) {
		this.#tracker = tracker;
		this.#feeder = feeder;
	}

	take(): NewNames {
		const processNames: [number, string][] = [];
		for (const p of this.#tracker.processes.list())
			if (p.name && !this.#processes.has(p.pid)) {
				this.#processes.add(p.pid);
				processNames.push([p.pid, p.name]);
			}
		const hostNames: [string, string[]][] = [];
		const names = this.#feeder.net.names;
		if (names.answers !== this.#answers) {
			this.#answers = names.answers;
			for (const [address, list] of names.allNames()) {
				const told = list.join('\n');
				if (this.#hosts.get(address) === told) continue;
				this.#hosts.set(address, told);
				hostNames.push([address, list]);
			}
		}
		return { processNames, hostNames };
	}
}
