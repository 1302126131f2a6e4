// The worker's library run in Node: fake-indexeddb for IndexedDB, a Map for the copies of trace
// files, and the side job run in-process (the copy into the Map), controllable so a test can hold
// or fail it.
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../web/src/store/db.ts';
import type { ImportProgress } from '../../web/src/worker/api.ts';
import type { LibraryDB, TraceFiles } from '../../web/src/worker/catalog.ts';
import { decoderApi, type Decoder } from '../../web/src/worker/decoder-api.ts';
import type { StorageEstimate } from '../../web/src/worker/import-open.ts';
import { JobFailed, type Job } from '../../web/src/lib/job.ts';
import type { SideJobs } from '../../web/src/worker/side-jobs.ts';
import type { SampleTruth } from '../builders/sample.ts';
import { decoderModule } from '../decoder/load.ts';

const root = join(import.meta.dirname, '../..');
export const sampleBytes = readFileSync(join(root, 'public/sample.etl'));
export const sampleTruth = JSON.parse(
	readFileSync(join(root, 'tests/fixtures/sample/sample.truth.json'), 'utf8'),
) as SampleTruth;

export const sampleFile = () => new File([sampleBytes], 'sample.etl');

/** A job settled by the test (or at once, when `run` is given). */
export class HeldJob<R> implements Job<R> {
	readonly done: Promise<R>;
	resolve!: (r: R) => void;
	reject!: (e: Error) => void;
	cancelled = false;
	constructor(run?: () => Promise<R>) {
		this.done = new Promise<R>((resolve, reject) => {
			this.resolve = resolve;
			this.reject = reject;
		});
		this.done.catch(() => {});
		if (run) run().then(this.resolve, this.reject);
	}
	progress = () => null;
	cancel() {
		this.cancelled = true;
		this.reject(new JobFailed('cancelled'));
	}
}

/** What the side job does; it returns the job, so a test can hold or fail it. */
export interface SideControl {
	copy?: (file: File, id: number) => Job<null>;
}

let databases = 0;

export interface Library extends Decoder {
	readonly files: Map<number, File>;
	readonly db: () => Promise<LibraryDB>;
	readonly dbName: string;
}

/** A library over its own database (or `dbName`'s, as another page of the same origin would). */
export function library(
	options: {
		side?: SideControl;
		estimate?: StorageEstimate;
		dbName?: string;
		files?: Map<number, File>;
	} = {},
): Library {
	const dbName = options.dbName ?? `library-${++databases}`;
	const files = options.files ?? new Map<number, File>();
	const traceFiles: TraceFiles = {
		file: async (id) => files.get(id) ?? null,
		remove: async (id) => void files.delete(id),
		removeOrphans: async (known) => {
			for (const id of [...files.keys()]) if (!known.has(id)) files.delete(id);
		},
	};
	let db: Promise<LibraryDB> | null = null;
	const openDb = () => (db ??= openStore(dbName));
	const side: SideJobs = {
		copy:
			options.side?.copy ??
			((file, id) =>
				new HeldJob(async () => {
					files.set(id, file);
					return null;
				})),
		openCopy: async () => null,
	};
	const decoder = decoderApi({
		module: async () => decoderModule(),
		openDb,
		files: traceFiles,
		side,
		estimate: options.estimate ?? (async () => null),
	});
	return { ...decoder, files, db: openDb, dbName };
}

const STORES = ['traces', 'chunks', 'columns', 'buffers', 'sockets'] as const;

/** Records in each object store of the library's database. */
export async function storedCounts(lib: Library): Promise<Record<(typeof STORES)[number], number>> {
	const db = await lib.db();
	const out = {} as Record<(typeof STORES)[number], number>;
	for (const name of STORES) out[name] = await db.count(name);
	return out;
}

/** Progress reports, kept. */
export function progressLog(): {
	reports: ImportProgress[];
	onProgress: (p: ImportProgress) => void;
} {
	const reports: ImportProgress[] = [];
	return { reports, onProgress: (p) => void reports.push(p) };
}
