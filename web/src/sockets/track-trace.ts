// Reconstructs the sockets of an opened trace in one pass over its records (CLI and worker).
import type { BufferEntry, OpenTrace } from '../decoder/etl-file.ts';
import { mergeRecords, type BufferSink } from '../decoder/merge.ts';
import { ProviderTable } from '../decoder/record-json.ts';
import { BufferFeeder } from './buffer-view.ts';
import { enrich } from './enrich.ts';
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
	return enrich(tracker.snapshot(), feeder.net);
}
