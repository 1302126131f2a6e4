// Test helpers: a trace's sockets through both of the tracker's inputs (the decoder's tables and
// RecordJson objects), and its decoded records for following links back to events.
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { ProviderTable, recordJson, type RecordJson } from '../../web/src/decoder/record-json.ts';
import { feedRecordJson } from '../../web/src/sockets/record-json-view.ts';
import { trackTrace } from '../../web/src/sockets/track-trace.ts';
import { enrich, NetCollector } from '../../web/src/sockets/enrich.ts';
import { withOwners } from '../../web/src/sockets/owners.ts';
import {
	SocketTracker,
	type TrackedTrace,
	type TrackerOptions,
} from '../../web/src/sockets/tracker.ts';
import { open } from '../decoder/load.ts';

export interface Tracked {
	/** Through the decoder's tables (buffer-view.ts), as the CLI and the worker read them. */
	tracked: TrackedTrace;
	/** Through RecordJson objects (record-json-view.ts). */
	viaJson: TrackedTrace;
	/** Every record, in the order whose positions are the record indexes. */
	records: RecordJson[];
}

export async function trackBytes(
	bytes: Uint8Array,
	options: Omit<TrackerOptions, 'origin'> = {},
): Promise<Tracked> {
	const trace = await open(bytes);
	const index = await indexBuffers(trace);
	const tracked = await trackTrace(trace, index.buffers, options);
	const origin = BigInt(trace.facts.startFiletime);
	const tracker = new SocketTracker({ ...options, origin });
	const providers = new ProviderTable(trace);
	const records: RecordJson[] = [];
	const net = new NetCollector();
	await mergeRecords(trace, index.buffers, (b, i) => {
		const r = recordJson(b, i, trace, providers);
		feedRecordJson(tracker, r, records.length, origin, trace.facts.pointerSize === 4 ? 4 : 8);
		net.record(r, records.length, origin);
		records.push(r);
	});
	return { tracked, viaJson: withOwners(enrich(tracker.snapshot(), net), net), records };
}

/** The pointer fields of a record that name sockets. */
export function endpointsOf(r: RecordJson): string[] {
	return ['Endpoint', 'AcceptEndpoint', 'Listen Endpoint']
		.map((k) => r.fields[k])
		.filter((v): v is string => typeof v === 'string');
}
