// Winsock traces written for the e2e tests with the test writer: larger ones (long enough to
// cancel or interrupt their import) and their record count. Written in streaming mode straight to
// a file under .cache/, so a fresh machine makes them in seconds and without holding them.
import {
	closeSync,
	existsSync,
	mkdirSync,
	openSync,
	readFileSync,
	renameSync,
	writeFileSync,
	writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { busyEvent } from '../builders/busy-event.ts';
import { EtlWriter } from '../builders/etl-writer.ts';
import { filetimeFromIso } from '../builders/bytes.ts';
import { projectRoot } from './server.ts';

export interface GeneratedTrace {
	readonly path: string;
	readonly records: number;
}

/** A busy verbose-level trace: sockets sending and receiving on 4 CPUs. Cached under .cache/. */
export function busyTrace(events = 120_000, name = 'busy'): GeneratedTrace {
	const dir = join(projectRoot, '.cache', 'e2e');
	const path = join(dir, `${name}-${events}.etl`);
	const meta = `${path}.json`;
	if (existsSync(path) && existsSync(meta))
		return JSON.parse(readFileSync(meta, 'utf8')) as GeneratedTrace;
	mkdirSync(dir, { recursive: true });
	const partial = `${path}.${process.pid}.partial`;
	const fd = openSync(partial, 'w');
	try {
		const w = new EtlWriter({
			cpus: 4,
			loggerName: name,
			truth: false,
			sink: (chunk) => {
				for (let done = 0; done < chunk.length;)
					done += writeSync(fd, chunk, done, chunk.length - done);
			},
		});
		let t = filetimeFromIso('2026-03-14T09:26:53.5897932Z');
		for (let n = 0; n < events; n++) {
			t += 50n + BigInt(n % 7) * 10n;
			w.addAfd(busyEvent(n, n % 4, t, 500));
			if (n % 10_000 === 9_999) w.release(t);
		}
		// In streaming mode finish() returns the header buffer, written over its placeholder.
		const header = w.finish().bytes;
		writeSync(fd, header, 0, header.length, 0);
	} finally {
		closeSync(fd);
	}
	renameSync(partial, path);
	// Every event, plus the trace header record.
	const generated = { path, records: events + 1 };
	writeFileSync(meta, JSON.stringify(generated));
	return generated;
}
