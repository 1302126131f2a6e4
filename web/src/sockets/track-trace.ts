// Reconstructs the sockets of an opened trace in one pass over its records (CLI and worker).
import type { BufferEntry, OpenTrace } from '../decoder/etl-file.ts';
import { mergeRecords, type BufferSink } from '../decoder/merge.ts';
import { ProviderTable } from '../decoder/record-json.ts';
import { BufferFeeder } from './buffer-view.ts';
import { dnsOf, enrichDrained, enrichEach, type NetCollector } from './enrich.ts';
import { withOwners } from './owners.ts';
import type { SocketSummary } from './socket.ts';
import { SocketTracker, type TrackedTrace, type TrackerOptions } from './tracker.ts';

/**
 * Feeds every record of the buffers, in time order (record index = position in that order,
 * header record 0), to a tracker whose tick 0 is the trace's StartTime.
 */
export async function trackTrace(
	trace: OpenTrace,
	buffers: readonly BufferEntry[],
	options: Omit<TrackerOptions, 'origin'> = {},
	onBuffer?: BufferSink,
	onSlice?: BufferSink,
): Promise<TrackedTrace> {
	const { tracker, net } = await follow(trace, buffers, options, onBuffer, onSlice);
	return finishTracking(tracker, net);
}

/**
 * A tracker that has seen every record, as a tracked trace: named by DNS, told TCP outcomes,
 * with the owners table. It lets each socket's state go as its summary is made (the states of
 * every socket and their summaries together were a large import's peak of memory), and follows
 * nothing after.
 */
export function finishTracking(tracker: SocketTracker, net: NetCollector): TrackedTrace {
	return withOwners(enrichDrained(tracker.overview(), tracker.drain(), net), net);
}

/** A tracked trace whose sockets are summed up one at a time, as they are read. */
export interface TrackedStream extends Omit<TrackedTrace, 'sockets'> {
	readonly socketCount: number;
	/** Each socket, named and told its TCP outcome, in order of its first event (once only). */
	readonly sockets: Iterable<SocketSummary>;
}

/**
 * trackTrace for a reader that goes through the sockets once (the CLI): each summary is made
 * when it is read, so only the tracker's own per-socket state is held, never every summary.
 */
export async function trackTraceStream(
	trace: OpenTrace,
	buffers: readonly BufferEntry[],
	options: Omit<TrackerOptions, 'origin'> = {},
	onBuffer?: BufferSink,
	onSlice?: BufferSink,
): Promise<TrackedStream> {
	const { tracker, net } = await follow(trace, buffers, options, onBuffer, onSlice);
	const overview = tracker.overview();
	// The stream's sockets go by once: its lookups name no sockets.
	const dns = dnsOf(net, [], overview.processes);
	return {
		...overview,
		...(dns ? { dns } : {}),
		socketCount: tracker.socketCount,
		sockets: enrichEach(tracker.summaries(), net, overview.processes),
	};
}

async function follow(
	trace: OpenTrace,
	buffers: readonly BufferEntry[],
	options: Omit<TrackerOptions, 'origin'>,
	onBuffer?: BufferSink,
	onSlice?: BufferSink,
): Promise<{ tracker: SocketTracker; net: NetCollector }> {
	const origin = BigInt(trace.facts.startFiletime);
	const tracker = new SocketTracker({ ...options, origin });
	const providers = new ProviderTable(trace);
	const feeder = new BufferFeeder(tracker, origin, (p) => providers.guid(p));
	let index = 0;
	await mergeRecords(
		trace,
		buffers,
		(b, i) => feeder.feed(b, i, index++),
		onBuffer,
		undefined,
		onSlice,
	);
	return { tracker, net: feeder.net };
}
