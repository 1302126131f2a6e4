// trackPackets for a reader that goes through the frames once (the CLI's `packets` and
// `pcapng`): memory stays bounded whatever the capture's size, as no frame is kept. Two passes
// over the records: the first rebuilds the sockets and learns the capture's interfaces and this
// machine's addresses (frames dissected, then dropped); the second rebuilds the frames again and
// hands each one with its owner to `each` as it is completed, in time order, which is all the
// join needs (a SYN teaches a socket its port before the frames after it).
import type { BufferEntry, OpenTrace } from '../decoder/etl-file.ts';
import { mergeRecords, type BufferSink } from '../decoder/merge.ts';
import { enrich } from '../sockets/enrich.ts';
import { PacketCapture } from './capture.ts';
import { PacketJoin, type PacketOwner } from './join.ts';
import { trackWithCapture, type TracePackets } from './track-packets.ts';
import type { Frame } from './types.ts';

/** What trackPackets answers, but the frames and owners, which went by one at a time. */
export type StreamedPackets = Omit<TracePackets, 'frames' | 'owners'> & { readonly count: number };

export interface FrameStream {
	/** After the first pass: the sockets, the interfaces (a pcapng's header needs them first). */
	begin?(p: StreamedPackets): Promise<void> | void;
	/** Each frame with its owner, in time order. */
	each(f: Frame, o: PacketOwner): void;
	/** Awaited between slices of the second pass (and once at its end): where output is written. */
	flush(): Promise<void>;
}

export async function streamPackets(
	trace: OpenTrace,
	buffers: readonly BufferEntry[],
	out: FrameStream,
	onBuffer?: BufferSink,
	onSlice?: BufferSink,
): Promise<StreamedPackets> {
	const origin = BigInt(trace.facts.startFiletime);
	// Outbound frames' sources are this machine's: learnt over every frame before any is joined.
	const learner = new PacketJoin([], origin);
	const first = new PacketCapture({
		pointerSize: trace.facts.pointerSize,
		keep: false,
		onFrame: (f) => learner.learnLocal(f),
	});
	const { tracker, feeder } = await trackWithCapture(
		trace,
		buffers,
		first,
		undefined,
		onBuffer,
		onSlice,
	);
	const tracked = enrich(tracker.snapshot(), feeder.net);
	const join = new PacketJoin(tracked.sockets, origin, [
		...first.localAddresses(),
		...learner.localAddresses(),
	]);
	const head = {
		interfaces: first.interfaces(),
		problems: first.problems,
		tracked,
		captureEvents: first.events,
	};
	await out.begin?.({ ...head, wire: [], count: 0 });
	let count = 0;
	if (first.events > 0) {
		const second = new PacketCapture({
			pointerSize: trace.facts.pointerSize,
			keep: false,
			onFrame: (f) => {
				count++;
				out.each(f, join.owner(f));
			},
		});
		let index = 0;
		await mergeRecords(
			trace,
			buffers,
			(b, i) => second.feed(b, i, index++),
			undefined,
			() => out.flush(),
		);
		second.finish();
	}
	await out.flush();
	return { ...head, wire: join.wireFacts(), count };
}
