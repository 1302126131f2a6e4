// Traces for the merge tests: CPUs busy throughout, or one CPU that logs a single early event
// (its only buffer is flushed at the session stop, so it is the last buffer of the file).
import { filetimeFromIso } from '../builders/bytes.ts';
import { busyEvent } from '../builders/busy-event.ts';
import { EtlWriter } from '../builders/etl-writer.ts';
import { BufferFeed } from '../../web/src/decoder/buffer-feed.ts';
import type { BufferIndex } from '../../web/src/decoder/etl-file.ts';
import { TRACE_LOGFILE_HEADER } from '../../web/src/generated/layouts.ts';

/** With `claimCpus`, the header says that many processors (fewer than the 4 that log). */
export function cpuTrace(events: number, idleCpu: boolean, claimCpus?: number): Uint8Array {
	const w = new EtlWriter({ cpus: 4, bufferSize: 4096 });
	let t = filetimeFromIso('2026-03-14T09:26:53.5897932Z');
	const cpus = idleCpu ? 3 : 4;
	for (let n = 0; n < events; n++) {
		t += 50n + BigInt(n % 7) * 10n;
		if (idleCpu && n === 5) w.addAfd(busyEvent(n, 3, t, 50));
		w.addAfd(busyEvent(n, n % cpus, t, 50));
	}
	const bytes = w.finish().bytes;
	if (claimCpus !== undefined)
		new DataView(bytes.buffer, bytes.byteOffset).setUint32(
			LOGFILE_HEADER_AT +
				TRACE_LOGFILE_HEADER.fields.find((f) => f.name === 'NumberOfProcessors')!.offset,
			claimCpus,
			true,
		);
	return bytes;
}

/** TRACE_LOGFILE_HEADER: the payload of buffer 0's first record (0x48 + a 0x20-byte header). */
const LOGFILE_HEADER_AT = 0x48 + 0x20;

/**
 * A feed over a complete index that finds `step` more buffers each time the merge waits for one,
 * as an index pass running beside the merge would.
 */
export function lazyFeed(index: BufferIndex, step: number): BufferFeed {
	const feed = new BufferFeed();
	let found = Math.min(step, index.buffers.length);
	feed.update(index.buffers.slice(0, found));
	const next = feed.next.bind(feed);
	feed.next = () => {
		const waited = next();
		found += step;
		if (found >= index.buffers.length) feed.finish(index);
		else feed.update(index.buffers.slice(0, found));
		return waited;
	};
	return feed;
}
