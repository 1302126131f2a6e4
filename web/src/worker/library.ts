// The trace library in the worker: imports files into IndexedDB chunk by chunk, resumes and
// cancels them, and answers the page's queries over opened traces.
import type { IDBPDatabase } from 'idb';
import { BufferRecords, bufferTable, type RecordBytes } from '../decoder/buffer-records.ts';
import {
	blobSource,
	blockCache,
	switchableSource,
	withHead,
	type SwitchableSource,
} from '../decoder/source.ts';
import {
	openTrace as openEtl,
	reopenTrace,
	type BufferEntry,
	type OpenTrace,
} from '../decoder/etl-file.ts';
import { feedIndex } from '../decoder/buffer-feed.ts';
import { recordDecoder } from '../decoder/single-record.ts';
import { importTracker } from '../sockets/import-tracker.ts';
import { findingsOf, type Finding } from '../sockets/findings.ts';
import type { TrackedTrace } from '../sockets/tracker.ts';
import { ingestTrace, IngestStopped, type IngestProgress } from '../ingest/ingest.ts';
import { TraceTables } from '../ingest/trace-tables.ts';
import { fail, ok, type Result } from '../lib/result.ts';
import { Superseded, type GroupKey, type Selection, type TimeRange } from '../query/engine.ts';
import { FilterError } from '../query/filter-parser.ts';
import { openStore, type SockscopeDB, type TraceRecord } from '../store/db.ts';
import {
	addTrace,
	commitChunk,
	countChunk,
	countsOf,
	NO_CHUNKS,
	deleteTrace,
	dropChunksFrom,
	getBuffers,
	getSockets,
	getTrace,
	putBuffers,
	listTraces,
	updateTrace,
} from '../store/trace-store.ts';
import {
	copyTraceFile,
	openTraceFileSync,
	removeOrphans,
	removeTraceFile,
	traceFile,
} from '../store/trace-files.ts';
import { isQuotaError, JobFailed, laterJob, startJob, type Job } from '../lib/job.ts';
import type { SocketsRequest, SocketsStored } from './sockets.worker.ts';
import type {
	ExportFormat,
	ImportProgress,
	OpenedTrace,
	QueryAnswer,
	RecordDetails,
	TraceSummary,
} from './api.ts';
import { recordDetails } from './details.ts';
import { fingerprint } from './fingerprint.ts';
import { importShare } from './import-share.ts';
import { LiveTrace } from './live-trace.ts';
import type { ExportProgress } from './export-selection.ts';
import { trustCounters, type TrustCounter } from './trust.ts';
import { TraceInsight, type TraceStatistics, type Vocabulary } from './trace-insight.ts';

/**
 * Bumped when the decoder, the column layout, the chunk sizes or the fingerprint change what an
 * import stores (an import begun under another version is not resumed).
 */
export const DECODER_VERSION = 5;
/** Column bytes per file byte, measured on Winsock traces (~0.3), with room. */
const COLUMNS_FACTOR = 0.5;
/**
 * The start of a dropped file read apart, before the rest: opening and naming the trace read it,
 * and the index pass finds the first buffers of every CPU in it, so the first rows wait for no
 * larger read.
 */
const HEAD_BYTES = 1 << 20;
const PROGRESS_EVERY_MS = 100;
/** How often an import writes what its trace counts of the chunks stored so far. */
const COUNT_EVERY_MS = 500;

/** Rows [offset, offset + limit) of a selection's matches. */
const rowsOf = (live: LiveTrace, sel: Selection, offset: number, limit: number) =>
	live.engine.rows(live.engine.indexes(sel, offset, limit));

const NO_SOCKETS =
	'the sockets of this trace are not available: it has not been imported completely';
const mb = (n: number) => `${(n / 1e6).toFixed(n < 1e7 ? 1 : 0)} MB`;

/** Where an index pass over `file` is, started at `started` (performance.now()). */
function indexingProgress(
	traceId: number,
	file: File,
	offset: number,
	started: number,
): ImportProgress {
	const elapsedMs = performance.now() - started;
	const rate = offset / Math.max(0.001, elapsedMs / 1000);
	return {
		traceId,
		phase: 'indexing',
		fileName: file.name,
		bytesDone: offset,
		bytesTotal: file.size,
		records: 0,
		chunks: 0,
		elapsedMs,
		mbPerSecond: rate / 1e6,
		etaSeconds: rate > 0 ? (file.size - offset) / rate : null,
	};
}

export class Library {
	#db: Promise<IDBPDatabase<SockscopeDB>> | null = null;
	readonly #open = new Map<number, Promise<LiveTrace>>();
	readonly #active = new Map<number, { cancelled: boolean; pass: AbortController }>();
	#swept = false;
	readonly #insights = new WeakMap<LiveTrace, TraceInsight>();
	readonly #module: () => Promise<WebAssembly.Module>;
	readonly #othersWaiting: () => boolean;

	/** `othersWaiting`: whether requests wait to be answered (an import then lets them in). */
	constructor(
		module: () => Promise<WebAssembly.Module>,
		othersWaiting: () => boolean = () => false,
	) {
		this.#module = module;
		this.#othersWaiting = othersWaiting;
	}

	db(): Promise<IDBPDatabase<SockscopeDB>> {
		this.#db ??= openStore();
		return this.#db;
	}

	summary(t: TraceRecord): TraceSummary {
		const active = this.#active.has(t.id!);
		return { ...t, id: t.id!, active, interrupted: t.status === 'importing' && !active };
	}

	async list(): Promise<TraceSummary[]> {
		const all = await listTraces(await this.db());
		// A copy outlives its trace only when a delete could not remove it (a copy still being
		// written, a page closed mid-delete): sweeping once per session is enough.
		if (!this.#swept) {
			this.#swept = true;
			void removeOrphans(new Set(all.map((t) => t.id!))).catch(() => {});
		}
		return all.map((t) => this.summary(t)).sort((a, b) => b.importedAt - a.importedAt);
	}

	async live(id: number): Promise<LiveTrace> {
		let t = this.#open.get(id);
		if (!t) {
			t = (async () => {
				const db = await this.db();
				const record = await getTrace(db, id);
				if (!record) throw new Error(`no trace ${id} in the library`);
				const live = await LiveTrace.load(db, record, () => this.#storedRecords(id));
				// Its insight decodes records for filters on payload fields, from the first query on.
				this.#insight(live);
				return live;
			})();
			this.#open.set(id, t);
			t.catch(() => this.#open.delete(id));
		}
		return t;
	}

	/** Records read back from the library's copy of the file. */
	async #storedRecords(id: number): Promise<RecordBytes> {
		const db = await this.db();
		const record = await getTrace(db, id);
		const [file, table] = await Promise.all([traceFile(id), getBuffers(db, id)]);
		if (!record?.copied || !file || !table)
			throw new Error(
				record?.status === 'complete'
					? 'the library has no copy of this trace file: import the file again to read its events'
					: 'the library has no whole copy of this trace file: resume its import to read its events',
			);
		const opened = await openEtl(
			blockCache(blobSource(file), 1 << 20, 8),
			await this.#module(),
			record.name,
		);
		if (!opened.ok) throw new Error(`the library's copy of ${record.name}: ${opened.error}`);
		return new BufferRecords(opened.value, table);
	}

	/**
	 * Opens a dropped file and names it (its fingerprint) at once, reading its first MiB once for
	 * both: the decoding's source then holds it, for the index pass to find the first buffers in.
	 */
	async #openDropped(file: File): Promise<[Result<OpenTrace>, string]> {
		const module = await this.#module();
		const source = switchableSource(blockCache(blobSource(file), 8 << 20, 4, HEAD_BYTES));
		return Promise.all([openEtl(source, module, file.name), fingerprint(source, blobSource(file))]);
	}

	async import(file: File, onProgress: (p: ImportProgress) => void): Promise<Result<TraceSummary>> {
		// Opening, naming and the storage estimate, at once.
		const [[opened, print], room] = await Promise.all([
			this.#openDropped(file),
			this.#checkRoom(file.size * (1 + COLUMNS_FACTOR)),
		]);
		if (!opened.ok) return fail(opened.error);
		const trace = opened.value;
		if (room) return fail(room);
		const db = await this.db();
		const record: TraceRecord = {
			name: file.name,
			size: file.size,
			lastModified: file.lastModified,
			fingerprint: print,
			facts: trace.facts,
			decoderVersion: DECODER_VERSION,
			status: 'importing',
			records: 0,
			chunks: 0,
			storedBytes: 0,
			copied: false,
			tMin: 0,
			tMax: 0,
			importedAt: Date.now(),
			importMs: 0,
			damage: [],
			error: null,
		};
		const id = await addTrace(db, record);
		record.id = id;
		return this.#run(trace, record, new TraceTables(), 0, file, onProgress);
	}

	async resume(
		id: number,
		file: File,
		onProgress: (p: ImportProgress) => void,
	): Promise<Result<TraceSummary>> {
		if (this.#active.has(id)) return fail('this trace is being imported already');
		const db = await this.db();
		const record = await getTrace(db, id);
		if (!record) return fail(`no trace ${id} in the library`);
		if (record.status === 'complete') return ok(this.summary(record));
		// Another version may name, decode or cut the trace into chunks otherwise.
		if (record.decoderVersion !== DECODER_VERSION)
			return fail(
				`${record.name} was imported by another version of Sockscope, which cannot be resumed: delete it and import the file again`,
			);
		const [opened, print] = await this.#openDropped(file);
		if (!opened.ok) return fail(opened.error);
		if (print !== record.fingerprint)
			return fail(
				`${file.name} is not the file this trace was imported from (${record.name}): pick that file to resume`,
			);
		const columns = record.storedBytes - (record.copied ? record.size : 0);
		const room = await this.#checkRoom(
			Math.max(0, file.size * COLUMNS_FACTOR - columns) + (record.copied ? 0 : file.size),
		);
		if (room) return fail(room);
		await dropChunksFrom(db, id, record.chunks);
		this.#open.delete(id);
		const live = await this.live(id);
		const updated = await updateTrace(db, id, { status: 'importing', error: null });
		return this.#run(opened.value, updated, live.tables, record.records, file, onProgress);
	}

	/** Drops every stored chunk of a trace being imported, and its counts with them. */
	async #dropChunks(id: number): Promise<TraceRecord> {
		const db = await this.db();
		await dropChunksFrom(db, id, 0);
		this.#open.delete(id);
		return updateTrace(db, id, NO_CHUNKS);
	}

	async #checkRoom(bytes: number): Promise<string | null> {
		if (!navigator.storage?.estimate) return null;
		const { usage = 0, quota = 0 } = await navigator.storage.estimate();
		const need = bytes;
		if (quota > 0 && quota - usage < need)
			return `not enough storage for this trace: it needs about ${mb(need)}, and ${mb(Math.max(0, quota - usage))} of the browser's ${mb(quota)} are free. Delete traces from the library or free disk space.`;
		return null;
	}

	async #run(
		trace: OpenTrace,
		record: TraceRecord,
		tables: TraceTables,
		skipRows: number,
		file: File,
		onProgress: (p: ImportProgress) => void,
	): Promise<Result<TraceSummary>> {
		const db = await this.db();
		const id = record.id!;
		// The decoding starts with the first buffers the index pass finds.
		const pass = new AbortController();
		const job = { cancelled: false, pass };
		this.#active.set(id, job);
		let live = await this.live(id);
		live.record = record;
		let names = importTracker(trace, false);
		const started = performance.now();
		let lastReport = 0;
		let bytesTotal = 0;
		let records = 0;
		let chunks = 0;
		let decoding = false;
		/** Events stored by an earlier, interrupted import, which this one goes on from. */
		let storedBefore = skipRows;
		// The page shows the trace at once, building its view while the first rows are decoded
		// (its first query waits for them).
		onProgress({
			...indexingProgress(id, file, 0, started),
			records: storedBefore,
			trace: this.summary(record),
		});
		// The trace counts its chunks as they are stored, in order, writing the counts every so
		// often (a write per chunk would wait on the decoding's time slices): an import interrupted
		// meanwhile resumes from the last chunk counted, dropping any stored beyond it.
		let counted = countsOf(record);
		let counting: Promise<void> = Promise.resolve();
		let countedAt = -Infinity;
		const saveCounts = () => {
			const c = counted;
			counting = counting
				.catch(() => {})
				.then(() => updateTrace(db, id, c))
				.then((r) => void (live.record = r));
			// A failed write shows where the counts are next written (at the end, at the latest).
			counting.catch(() => {});
		};
		// The pass reads every byte (headers sit every 64 KiB or so) in large blocks, a few at a
		// time, a bounded lead ahead of the decoding (buffer-feed.ts); until the decoding reports,
		// its progress is shown. Once the library's copy is whole, the pass reads on from it
		// (synchronously, header by header) rather than read the rest of the File.
		// Its first block is the decoding's, read already.
		const indexSource = switchableSource(withHead(blobSource(file), trace.source, HEAD_BYTES));
		const feed = feedIndex(trace, {
			source: indexSource,
			signal: pass.signal,
			onProgress: (offset) => {
				const now = performance.now();
				if (decoding || now - lastReport < PROGRESS_EVERY_MS) return;
				lastReport = now;
				onProgress(indexingProgress(id, file, offset, started));
			},
		});
		// Where each buffer is: stored for details and exports after a reload, used until then.
		const table = feed.complete.then((whole) => bufferTable(whole.buffers));
		const indexed = table.then((t) => putBuffers(db, id, t));
		indexed.catch(() => {});
		// Beside the decoding, each on a core of its own: the file is copied into the library
		// (details and exports read it after a reload; until then they read the dropped file), and
		// the sockets are rebuilt. Only process names are followed here, for the Process column.
		// The copy starts once the first rows are stored: on few cores it would hold them back.
		let firstStored!: () => void;
		const stored = new Promise<void>((resolve) => (firstStored = resolve));
		const copy: Job<null> | null = record.copied
			? null
			: laterJob(stored.then(() => copyTraceFile(file, id)));
		// The sockets are part of the trace: if they fail, the import fails. The copy only serves
		// details and exports after a reload: where it cannot be kept (a browser without a private
		// file system) the import goes on and says so; storage running out stops it, as any write.
		let sideError: Error | null = null;
		let copyProblem: string | null = null;
		/** Whether the library's copy of the file is whole (once the copy has ended). */
		const copied: Promise<boolean> = copy
			? copy.done.then(
					() => true,
					(e: Error) => {
						if (e instanceof JobFailed && e.quota) sideError ??= e;
						else copyProblem = e.message;
						return false;
					},
				)
			: Promise.resolve(record.copied);
		// The sockets read the copy once it is whole (far cheaper than the File a second time),
		// finding its buffers themselves: they need not wait for the index pass, which keeps pace
		// with the decoding. Where there is no copy, they read the File through the pass's index.
		const module = trace.decoder.module;
		const rebuild = laterJob(
			copied.then(async (whole) =>
				whole
					? this.#rebuildSockets(id, file, null, module, id)
					: this.#rebuildSockets(id, file, (await feed.complete).buffers, module, null),
			),
		);
		rebuild.done.catch((e: Error) => (sideError ??= e));
		const sideJobs: Job<unknown>[] = copy ? [copy, rebuild] : [rebuild];
		const readBack = Promise.all([reopenTrace(trace), table]).then(
			([t, buffers]) => new BufferRecords(t, buffers),
		);
		// Its failure (the index pass failed or was stopped) is met where records are read.
		readBack.catch(() => {});
		live.useRecords(readBack);
		// Once the copy is whole, the decoding reads it too (synchronously, locally) instead of
		// the dropped File; the File again once the import ends and the copy is let go.
		const dropped = trace.source;
		const switchable = 'use' in dropped ? (dropped as SwitchableSource) : null;
		const local = copied.then((whole) => (whole && switchable ? openTraceFileSync(id) : null));
		void local.then((l) => {
			if (!l) return;
			switchable?.use(l);
			indexSource.use(l);
		});
		let rowsReported = false;
		let anyStored = false;
		let latest: IngestProgress | null = null;
		const report = (p: IngestProgress, force = false) => {
			({ bytesTotal, records, chunks } = p);
			latest = p;
			decoding = true;
			const now = performance.now();
			// The first rows decoded, and the first stored, are reported at once.
			if (!rowsReported && p.records > 0) rowsReported = force = true;
			if (!force && now - lastReport < PROGRESS_EVERY_MS) return;
			lastReport = now;
			// Done means decoded, copied and followed (a side job not started yet has done nothing).
			const part = importShare(
				p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : 1,
				p.bytesTotal > 0 ? (rebuild.progress() ?? 0) / p.bytesTotal : 1,
				copy ? (copy.progress() ?? 0) / file.size : null,
			);
			const bytesDone = part * p.bytesTotal;
			const elapsedMs = now - started;
			const rate = bytesDone / Math.max(1, elapsedMs / 1000);
			onProgress({
				traceId: id,
				phase: 'importing',
				fileName: record.name,
				bytesDone,
				bytesTotal: p.bytesTotal,
				records: storedBefore + p.records,
				chunks: p.chunks,
				elapsedMs,
				mbPerSecond: rate / 1e6,
				// Not in the first second: the parts start one after another, and so too slowly.
				etaSeconds: rate > 0 && elapsedMs >= 1000 ? (p.bytesTotal - bytesDone) / rate : null,
			});
		};
		try {
			const result = await ingestTrace(
				trace,
				async (chunk, additions) => {
					const { bytes, zeros } = await commitChunk(db, id, chunk, additions);
					// One whose predecessor failed is not counted: that failure stops the import.
					if (chunk.index !== counted.chunks) return;
					counted = countChunk(counted, chunk, bytes);
					live.added(chunk, additions, zeros);
					firstStored();
					if (!anyStored && latest) report(latest, true);
					anyStored = true;
					const now = performance.now();
					if (now - countedAt >= COUNT_EVERY_MS) {
						countedAt = now;
						saveCounts();
					}
				},
				{
					found: {
						feed,
						// The merge met a CPU found late with earlier records: what was stored goes.
						restart: async () => {
							await counting.catch(() => {});
							live.noMoreChunks();
							live.record = await this.#dropChunks(id);
							counted = countsOf(live.record);
							storedBefore = 0;
							live = await this.live(id);
							live.useRecords(readBack);
							names = importTracker(trace, false);
							return new TraceTables();
						},
					},
					tables,
					skipRows,
					onProgress: (p) => report(p),
					shouldStop: () => job.cancelled || sideError !== null,
					othersWaiting: this.#othersWaiting,
					observe: (b, i, row) => names.observe(b, i, row),
					beforeCommit: (t) => names.learnNames(t),
				},
			);
			// A trace with no events stores no chunk: the copy starts now.
			firstStored();
			saveCounts();
			await indexed;
			// The side jobs usually end first; wait for them, still reporting and cancellable.
			const sides = Promise.all([copied, rebuild.done]);
			for (let finished = false; !finished;) {
				finished = await Promise.race([
					sides.then(() => true),
					new Promise<boolean>((r) => setTimeout(() => r(false), PROGRESS_EVERY_MS)),
				]);
				if (job.cancelled || sideError) throw new IngestStopped();
				report({ bytesDone: bytesTotal, bytesTotal, records, chunks });
			}
			// Stored by the sockets worker, unless the trace was deleted meanwhile (and so cancelled).
			if ((await rebuild.done) === null) throw new IngestStopped();
			await counting;
			if (copy && (await copied))
				live.record = await updateTrace(db, id, {
					copied: true,
					storedBytes: counted.storedBytes + file.size,
				});
			else if (copy)
				live.record = await updateTrace(db, id, {
					error: `no copy of the file could be kept (${copyProblem}): after a reload, the details and exports of its events need the file imported again`,
				});
			report({ bytesDone: bytesTotal, bytesTotal, records, chunks }, true);
			live.record = await updateTrace(db, id, {
				status: 'complete',
				damage: result.damage,
				importMs: record.importMs + (performance.now() - started),
			});
			// For the first filters, which read columns the import did not keep at hand.
			void live.readStoredChunks();
			return ok(this.summary(live.record));
		} catch (caught) {
			// A failed side job stops the decoding too: report why it failed.
			const e = caught instanceof IngestStopped && sideError ? sideError : caught;
			// Cancel also stops the index pass, and with it whatever waits on it (the decoding, the
			// sockets): what they throw then is the cancel.
			const stopped = e instanceof IngestStopped || job.cancelled;
			const message = stopped
				? null
				: isQuotaError(e) || (e instanceof JobFailed && e.quota)
					? `storage is full after ${counted.records.toLocaleString('en-US')} events: about ${mb(Math.max(0, trace.source.size * (1 + COLUMNS_FACTOR) - counted.storedBytes))} more are needed. What was stored is kept; free space, then resume.`
					: `import failed: ${e instanceof Error ? e.message : String(e)}`;
			// What was stored and counted by then (the writes have settled).
			await counting.catch(() => {});
			live.record = await updateTrace(db, id, {
				...counted,
				status: stopped ? 'cancelled' : 'failed',
				error: message,
				importMs: record.importMs + (performance.now() - started),
			});
			return stopped ? ok(this.summary(live.record)) : fail(message!);
		} finally {
			feed.release();
			pass.abort();
			for (const j of sideJobs) j.cancel();
			live.noMoreChunks();
			void local.then((l) => {
				if (!l) return;
				switchable!.reset();
				indexSource.reset();
				l.close();
			});
			this.#active.delete(id);
		}
	}

	/** The sockets of the file, rebuilt in a worker of their own. */
	#rebuildSockets(
		traceId: number,
		file: File,
		buffers: readonly BufferEntry[] | null,
		module: WebAssembly.Module,
		copyOf: number | null,
	): Job<SocketsStored> {
		const worker = new Worker(new URL('./sockets.worker.ts', import.meta.url), {
			type: 'module',
			name: 'sockets',
		});
		const request: SocketsRequest = { file, module, buffers, copyOf, traceId };
		return startJob<SocketsStored>(worker, 'rebuilding the sockets', request);
	}

	cancel(id: number): void {
		const job = this.#active.get(id);
		if (job) {
			job.cancelled = true;
			job.pass.abort();
		}
	}

	async rename(id: number, name: string): Promise<Result<TraceSummary>> {
		const clean = name.trim();
		if (!clean) return fail('a trace needs a name');
		const record = await updateTrace(await this.db(), id, { name: clean });
		const live = this.#open.get(id);
		if (live) (await live).record = record;
		return ok(this.summary(record));
	}

	async remove(id: number): Promise<Result<void>> {
		this.cancel(id);
		this.#open.delete(id);
		await deleteTrace(await this.db(), id);
		await removeTraceFile(id);
		return ok(undefined);
	}

	async opened(id: number): Promise<Result<OpenedTrace>> {
		try {
			const live = await this.live(id);
			const record = (await getTrace(await this.db(), id)) ?? live.record;
			live.record = record;
			return ok({
				trace: this.summary(record),
				eventTypes: live.tables.eventTypes,
				processes: [...live.tables.processNames],
			});
		} catch (e) {
			return fail(e instanceof Error ? e.message : String(e));
		}
	}

	async query(
		id: number,
		filter: string,
		range: TimeRange | null,
		head = 0,
	): Promise<Result<QueryAnswer>> {
		const live = await this.live(id);
		const generation = live.engine.begin();
		// An import stores its first rows within milliseconds of showing the trace: its first
		// answer waits for them, rather than come back empty and be asked for again.
		if (this.#active.has(id)) await live.firstChunk();
		const t0 = performance.now();
		try {
			const sel = await live.engine.select(filter, range, generation);
			live.selection = sel;
			const ms = performance.now() - t0;
			const first = head > 0 ? await rowsOf(live, sel, 0, head) : undefined;
			return ok({
				total: sel.total,
				matched: sel.matched,
				partial: this.#active.has(id),
				ms,
				...(first ? { head: first } : {}),
			});
		} catch (e) {
			if (e instanceof FilterError || e instanceof Superseded) return fail(e.message);
			throw e;
		}
	}

	async rows(id: number, offset: number, limit: number) {
		const live = await this.live(id);
		return live.selection ? rowsOf(live, live.selection, offset, limit) : [];
	}

	async histogram(id: number, from: number, to: number, bins: number) {
		const live = await this.live(id);
		if (!live.selection) return fail<never>('no query yet');
		return ok(await live.engine.histogram(live.selection, from, to, bins));
	}

	async groupBy(id: number, key: GroupKey, limit: number) {
		const live = await this.live(id);
		if (!live.selection) return fail<never>('no query yet');
		return ok(await live.engine.groupBy(live.selection, key, limit));
	}

	/** The sockets rebuilt when the trace's import completed. */
	async sockets(id: number): Promise<Result<TrackedTrace>> {
		const tracked = await this.#trackedOf(id);
		return tracked ? ok(tracked) : fail(NO_SOCKETS);
	}

	async findings(id: number): Promise<Result<Finding[]>> {
		const tracked = await this.#trackedOf(id);
		return tracked ? ok(findingsOf(tracked)) : fail(NO_SOCKETS);
	}

	/**
	 * A complete trace's sockets. They are stored as soon as they are rebuilt, which may be before
	 * an import that then stops: they are of the whole file, the events shown are not.
	 */
	async #trackedOf(id: number): Promise<TrackedTrace | undefined> {
		const db = await this.db();
		const [record, tracked] = await Promise.all([getTrace(db, id), getSockets(db, id)]);
		return record?.status === 'complete' ? tracked : undefined;
	}

	async details(id: number, index: number): Promise<Result<RecordDetails>> {
		const live = await this.live(id);
		const at = live.locate(index);
		if (!at) return fail(`no event ${index}`);
		const [buffer, recOffset, cpu, time] = await Promise.all([
			live.engine.column(at.chunk, 'buffer'),
			live.engine.column(at.chunk, 'recOffset'),
			live.engine.column(at.chunk, 'cpu'),
			live.engine.column(at.chunk, 'time'),
		]);
		let bytes: Uint8Array;
		try {
			bytes = await live.records.bytes(buffer[at.row]!, recOffset[at.row]!);
		} catch (e) {
			return fail(`event ${index}: ${e instanceof Error ? e.message : String(e)}`);
		}
		const decoder = recordDecoder(await this.#module(), live.record.facts);
		const filetime = BigInt(live.record.facts.startFiletime) + BigInt(time[at.row]!);
		const d = await recordDetails(decoder, index, bytes.slice(), cpu[at.row]!, filetime);
		return d ? ok(d) : fail(`event ${index} could not be decoded again`);
	}

	#insight(live: LiveTrace): TraceInsight {
		let insight = this.#insights.get(live);
		if (!insight) this.#insights.set(live, (insight = new TraceInsight(live, this.#module)));
		return insight;
	}

	async positionOf(id: number, index: number): Promise<number> {
		const live = await this.live(id);
		return live.selection ? live.engine.positionOf(live.selection, index) : -1;
	}

	async vocabulary(id: number): Promise<Result<Vocabulary>> {
		const live = await this.live(id);
		return ok(await this.#insight(live).vocabulary(this.#active.has(id)));
	}

	/** The trust counters of Trace facts: losses, damage, records read without a schema. */
	async trust(id: number): Promise<Result<TrustCounter[]>> {
		const live = await this.live(id);
		// The stored record: its damage is complete once the import is.
		const record = (await getTrace(await this.db(), id)) ?? live.record;
		const types = await this.#insight(live).typeCounts();
		return ok(trustCounters(record.facts, record.damage.length, types));
	}

	async statistics(id: number): Promise<Result<TraceStatistics>> {
		const live = await this.live(id);
		if (!live.selection) return fail('no query yet');
		return ok(await this.#insight(live).statistics(live.selection, this.#active.has(id)));
	}

	async exportRows(
		id: number,
		format: ExportFormat,
		write: (piece: string | Uint8Array, progress: ExportProgress) => Promise<boolean> | boolean,
	): Promise<Result<{ rows: number; complete: boolean }>> {
		const live = await this.live(id);
		if (!live.selection) return fail('no query yet');
		return ok(await this.#insight(live).export(live.selection, format, write));
	}
}
