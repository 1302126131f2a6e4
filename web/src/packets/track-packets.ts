// One pass over a trace's records that rebuilds its sockets and its frames together (the CLI's
// `packets` and `pcapng`; a worker can run the same), then joins them.
import type { BufferEntry, OpenTrace } from '../decoder/etl-file.ts';
import { mergeRecords, type BufferSink } from '../decoder/merge.ts';
import { ProviderTable } from '../decoder/record-json.ts';
import { BufferFeeder } from '../sockets/buffer-view.ts';
import { enrich } from '../sockets/enrich.ts';
import { withOwners } from '../sockets/owners.ts';
import { SocketTracker, type TrackedTrace, type TrackerOptions } from '../sockets/tracker.ts';
import { PacketCapture, type CaptureProblem } from './capture.ts';
import { joinFrames, type PacketOwner, type WireFacts } from './join.ts';
import type { CaptureInterface, Frame } from './types.ts';

export interface TracePackets {
	readonly frames: readonly Frame[];
	/** owners[k] is the owner of frames[k]. */
	readonly owners: readonly PacketOwner[];
	readonly interfaces: readonly CaptureInterface[];
	readonly problems: readonly CaptureProblem[];
	readonly wire: readonly WireFacts[];
	readonly tracked: TrackedTrace;
	/** Packet-provider events seen (0: the trace has no capture). */
	readonly captureEvents: number;
}

export interface TrackPacketsOptions {
	/** The tracker's options (no socket keeps its events unless asked). */
	readonly tracker?: Omit<TrackerOptions, 'origin'>;
	/** Join every event to its socket's owner too (an export's events table needs it). */
	readonly eventOwners?: boolean;
}

/**
 * The records of `buffers` in time order, fed to a socket tracker and to `capture` together: the
 * pass both `trackPackets` and `streamPackets` make. Returns what the tracker and its feeder hold.
 */
export async function trackWithCapture(
	trace: OpenTrace,
	buffers: readonly BufferEntry[],
	capture: PacketCapture,
	tracker: Omit<TrackerOptions, 'origin'> | undefined,
	onBuffer?: BufferSink,
	onSlice?: BufferSink,
): Promise<{ tracker: SocketTracker; feeder: BufferFeeder }> {
	const origin = BigInt(trace.facts.startFiletime);
	const sockets = new SocketTracker({ maxEventsPerSocket: 0, ...tracker, origin });
	const providers = new ProviderTable(trace);
	const feeder = new BufferFeeder(sockets, origin, (p) => providers.guid(p));
	let index = 0;
	await mergeRecords(
		trace,
		buffers,
		(b, i) => {
			feeder.feed(b, i, index);
			capture.feed(b, i, index);
			index++;
		},
		onBuffer,
		undefined,
		onSlice,
	);
	capture.finish();
	return { tracker: sockets, feeder };
}

export async function trackPackets(
	trace: OpenTrace,
	buffers: readonly BufferEntry[],
	onBuffer?: BufferSink,
	onSlice?: BufferSink,
	options: TrackPacketsOptions = {},
): Promise<TracePackets> {
	const origin = BigInt(trace.facts.startFiletime);
	const capture = new PacketCapture({ pointerSize: trace.facts.pointerSize });
	const { tracker, feeder } = await trackWithCapture(
		trace,
		buffers,
		capture,
		options.tracker,
		onBuffer,
		onSlice,
	);
	const enriched = enrich(tracker.snapshot(), feeder.net);
	const tracked = options.eventOwners ? withOwners(enriched, feeder.net) : enriched;
	const interfaces = capture.interfaces();
	const local = capture.localAddresses();
	const { owners, wire } = joinFrames(capture.frames, tracked.sockets, origin, local);
	return {
		frames: capture.frames,
		owners,
		interfaces,
		problems: capture.problems,
		wire,
		tracked,
		captureEvents: capture.events,
	};
}
