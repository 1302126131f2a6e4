// One import of a trace file into the library, from its first report to its end: the index pass
// feeding the decoding, the chunks stored and counted, the sockets followed beside the decoding,
// the copy of the file (a side job), progress, a restart when the merge meets a CPU found late,
// and cancel.
//
// How an import ends: complete (damage found is listed with it, its good records kept); cancelled
// by the user or failed with an error, when everything it stored is deleted (the page shows the
// error); or interrupted by the page going away, when the trace stays listed as importing, to be
// resumed with the same file or deleted.
import { BufferRecords, bufferTable } from '../decoder/buffer-records.ts';
import {
	blobSource,
	growingSource,
	switchableSource,
	withHead,
	type SwitchableSource,
} from '../decoder/source.ts';
import { reopenTrace, type OpenTrace } from '../decoder/etl-file.ts';
import { feedIndex, type BufferFeed } from '../decoder/buffer-feed.ts';
import type { Chunk } from '../columns/layout.ts';
import { ColumnPool } from '../columns/column-pool.ts';
import {
	ingestTrace,
	WRITES_IN_FLIGHT,
	IngestStopped,
	type ChunkAdditions,
	type IngestProgress,
	type IngestResult,
} from '../ingest/ingest.ts';
import { TraceTables } from '../ingest/trace-tables.ts';
import { english, msg } from '../i18n/render.ts';
import { fail, ok, type FailureCode, type Result } from '../lib/result.ts';
import { FollowLink, localFollower, type SocketFollower } from '../sockets/follow-link.ts';
import type { TraceRecord } from '../store/db.ts';
import type { CopySource } from '../store/trace-files.ts';
import { packOwners, unpackOwners } from '../store/owners-record.ts';
import {
	addChunkNames,
	chunkRecord,
	countChunk,
	countsOf,
	dropChunksFrom,
	NO_CHUNKS,
	putBuffers,
	putChunks,
	putSummaries,
	putSockets,
	updateTrace,
	type ChunkCounts,
} from '../store/trace-store.ts';
import type { ImportProgress, TraceSummary } from './api.ts';
import type { ActiveImport } from './catalog.ts';
import { errorCode, errorMessage, errorText, failWith } from './guard.ts';
import {
	COLUMNS_FACTOR,
	HEAD_BYTES,
	mb,
	openNewImport,
	openResumedImport,
	type ImportStart,
	type OpenDeps,
} from './import-open.ts';
import { ChunkBatches } from './chunk-batches.ts';
import { RefreshPolicy, type ImportNotices } from './import-notices.ts';
import { importingProgress, indexingProgress, storedSpan } from './import-progress.ts';
import { laterJob, type Job } from '../lib/job.ts';
import type { LiveTrace } from './live-trace.ts';
import type { SideJobs } from './side-jobs.ts';

/**
 * How often the page hears of an import's progress. Each report redraws the progress line: the
 * whole document laid out again, its root layer repainted, Svelte's updates. While an import runs
 * that held the page's thread about 7 ms a report, at ten a second 7 % of a core the decoding
 * wanted.
 */
const PROGRESS_EVERY_MS = 250;
/** How often an import looks whether its copy has begun, to read it while it is written. */
const COPY_LOOK_MS = 50;
/** How often an import writes what its trace counts of the chunks stored so far. */
const COUNT_EVERY_MS = 500;

export interface ImportDeps extends OpenDeps {
	readonly notices: ImportNotices;
	readonly side: SideJobs;
	/** Whether requests of the page wait to be answered (the decoding then lets them in). */
	readonly othersWaiting: () => boolean;
}

type OnProgress = (p: ImportProgress) => void;

export class ImportRun implements ActiveImport {
	/** Imports `file` as a new trace of the library. */
	static async start(
		deps: ImportDeps,
		file: File,
		onProgress: OnProgress,
	): Promise<Result<TraceSummary>> {
		const start = await openNewImport(deps, file);
		if (!start.ok) return start;
		return new ImportRun(deps, start.value, file, onProgress).run();
	}

	/** Goes on with the interrupted import of trace `id`, from the same file. */
	static async resume(
		deps: ImportDeps,
		id: number,
		file: File,
		onProgress: OnProgress,
	): Promise<Result<TraceSummary>> {
		const start = await openResumedImport(deps, id, file);
		if (!start.ok) return start;
		if (!('trace' in start.value)) return ok(deps.catalog.summary(start.value));
		return new ImportRun(deps, start.value, file, onProgress).run();
	}

	readonly id: number;
	readonly ended: Promise<void>;
	readonly #end: () => void;
	readonly #deps: ImportDeps;
	readonly #trace: OpenTrace;
	readonly #record: TraceRecord;
	readonly #file: File;
	readonly #onProgress: OnProgress;
	readonly #tables: TraceTables;
	readonly #skipRows: number;
	readonly #started = performance.now();
	/** Stops the index pass, and with it whatever waits on it. */
	readonly #pass = new AbortController();
	readonly #policy = new RefreshPolicy();
	#cancelled = false;
	/** Why a side job failed: that stops the decoding too. */
	#sideError: Error | null = null;
	/** Why no copy of the file could be kept (the import goes on without one). */
	#copyProblem: string | null = null;
	#live!: LiveTrace;
	/**
	 * The sockets, followed from the records the decoding hands the chunk builder: the file is
	 * decoded once, and the records followed on another core where the page can start a worker
	 * for it (follow-link.ts).
	 */
	#sockets: SocketFollower;
	/** Events stored by an earlier, interrupted import, which this one goes on from. */
	#storedBefore: number;
	/** What the trace counts of the chunks stored, in order; written every so often. */
	#counted: ChunkCounts;
	#counting: Promise<void> = Promise.resolve();
	/** The chunks decoded, written several to a transaction. */
	#batches: ChunkBatches;
	/**
	 * The chunks' columns, given back by the live trace once its queries no longer read them: as
	 * many sets as chunks written at once.
	 */
	readonly #columns = new ColumnPool(WRITES_IN_FLIGHT);
	#countedAt = -Infinity;
	#lastReport = 0;
	/** The decoding has reported (until then, the index pass's progress is shown). */
	#decoding = false;
	#latest: IngestProgress = { bytesDone: 0, bytesTotal: 0, records: 0, chunks: 0 };
	#rowsReported = false;
	#anyStored = false;
	/** Whether a chunk of this run has joined the live trace (the first does before it is stored). */
	#anyShown = false;
	#firstStored!: () => void;
	readonly #stored = new Promise<void>((resolve) => (this.#firstStored = resolve));
	// Set up as the run begins.
	#feed: BufferFeed | null = null;
	#indexSource: SwitchableSource | null = null;
	#indexed: Promise<void> = Promise.resolve();
	#copy: Job<null> | null = null;
	/** Whether the library's copy of the file is whole (once the copy has ended). */
	#copied: Promise<boolean> = Promise.resolve(false);
	#readBack: Promise<BufferRecords> | null = null;
	#local: Promise<CopySource | null> = Promise.resolve(null);

	private constructor(deps: ImportDeps, start: ImportStart, file: File, onProgress: OnProgress) {
		this.#deps = deps;
		this.#trace = start.trace;
		this.#record = start.record;
		this.id = start.record.id!;
		this.#file = file;
		this.#onProgress = onProgress;
		this.#tables = start.tables;
		this.#skipRows = start.skipRows;
		this.#storedBefore = start.skipRows;
		this.#counted = countsOf(start.record);
		this.#sockets = this.#follower();
		this.#batches = this.#newBatches();
		let end!: () => void;
		this.ended = new Promise<void>((resolve) => (end = resolve));
		this.#end = end;
	}

	/** Stops the import; it then deletes what it stored. */
	cancel(): void {
		this.#cancelled = true;
		this.#pass.abort();
	}

	async run(): Promise<Result<TraceSummary>> {
		const { catalog } = this.#deps;
		catalog.begin(this.id, this);
		let outcome: Result<void>;
		try {
			outcome = ok(await this.#importAll());
		} catch (caught) {
			outcome = this.#failure(caught);
		}
		await this.#release();
		if (!outcome.ok) {
			// Nothing of a cancelled or failed import is kept. Should the deletion fail too, the
			// trace stays listed as interrupted, for the user to delete.
			await catalog.removeStored(this.id).catch(() => {});
			catalog.end(this.id, this);
			this.#end();
			return outcome;
		}
		catalog.end(this.id, this);
		this.#end();
		// The view asks once more: its answer is whole now.
		this.#tell(true);
		return ok(catalog.summary(this.#live.record));
	}

	async #importAll(): Promise<void> {
		const db = await this.#deps.catalog.db();
		this.#live = await this.#deps.traces.live(this.id);
		this.#live.record = this.#record;
		this.#live.pool = this.#columns;
		// The page shows the trace at once, building its view while the first rows are decoded
		// (its first query waits for them).
		this.#onProgress({
			...indexingProgress(this.id, this.#file, 0, this.#started),
			records: this.#storedBefore,
			trace: this.#deps.catalog.summary(this.#record),
		});
		this.#startPass();
		this.#startSideJobs();
		const result = await this.#decode();
		// No more chunks: the column sets kept for them go before the sockets' end, which is when
		// an import holds the most memory.
		this.#live.pool = null;
		this.#columns.clear();
		// So do the blocks of the dropped file kept for the decoding (read again if details ask).
		this.#trace.source.forget?.();
		// A trace with no events stores no chunk: the copy starts now.
		this.#firstStored();
		this.#saveCounts();
		if (this.#policy.flush()) this.#tell(false);
		await this.#indexed;
		await this.#storeSockets();
		await this.#awaitSideJobs();
		await this.#counting;
		const { storedBytes } = this.#counted;
		if (this.#copy && (await this.#copied))
			this.#live.record = await updateTrace(db, this.id, {
				copied: true,
				storedBytes: storedBytes + this.#file.size,
			});
		else if (this.#copy) {
			const copyLost = msg('library.copy-lost', { problem: this.#copyProblem ?? '' });
			this.#live.record = await updateTrace(db, this.id, {
				error: english(copyLost),
				errorText: copyLost,
			});
		}
		this.#report(this.#latestAtEnd(), true);
		// Before the trace counts as complete: opened later, it reads every summary at once.
		await putSummaries(db, this.id, this.#live.summaries());
		this.#live.record = await updateTrace(db, this.id, {
			status: 'complete',
			damage: result.damage,
			importMs: this.#record.importMs + (performance.now() - this.#started),
		});
		// For the first filters, which read columns the import did not keep at hand.
		void this.#live.readStoredChunks();
	}

	/**
	 * The index pass reads every byte (headers sit every 64 KiB or so) in large blocks, a few at a
	 * time, a bounded lead ahead of the decoding (buffer-feed.ts); until the decoding reports, its
	 * progress is shown. Once the library's copy is whole, the pass reads on from it
	 * (synchronously, header by header) rather than read the rest of the File. Its first block
	 * is the decoding's, read already.
	 */
	#startPass(): void {
		const trace = this.#trace;
		this.#indexSource = switchableSource(
			withHead(blobSource(this.#file), trace.source, HEAD_BYTES),
		);
		const feed = (this.#feed = feedIndex(trace, {
			source: this.#indexSource,
			signal: this.#pass.signal,
			onProgress: (offset) => {
				const now = performance.now();
				if (this.#decoding || now - this.#lastReport < PROGRESS_EVERY_MS) return;
				this.#lastReport = now;
				this.#onProgress(indexingProgress(this.id, this.#file, offset, this.#started));
			},
		}));
		// Where each buffer is: stored for details and exports after a reload, used until then.
		const table = feed.complete.then((whole) => bufferTable(whole.buffers));
		this.#indexed = table.then(async (t) => putBuffers(await this.#deps.catalog.db(), this.id, t));
		this.#indexed.catch(() => {});
		this.#readBack = Promise.all([reopenTrace(trace), table]).then(
			([t, buffers]) => new BufferRecords(t, buffers),
		);
		// Its failure (the index pass failed or was stopped) is met where records are read.
		this.#readBack.catch(() => {});
		this.#live.useRecords(this.#readBack);
	}

	/**
	 * Beside the decoding, on a core of its own: the file is copied into the library (details and
	 * exports read it after a reload; until then they read the dropped file). The copy starts once
	 * the first rows are stored: on few cores it would hold them back. It only serves details and
	 * exports after a reload: where it cannot be kept (a browser without a private file system)
	 * the import goes on and says so; storage running out stops it.
	 */
	#startSideJobs(): void {
		const { side } = this.#deps;
		const file = this.#file;
		const id = this.id;
		const copy = this.#record.copied
			? null
			: laterJob(this.#stored.then(() => side.copy(file, id)));
		this.#copy = copy;
		this.#copied = copy
			? copy.done.then(
					() => true,
					(e: Error) => {
						if (errorCode(e) === 'quota') this.#sideError ??= e;
						else this.#copyProblem = e.message;
						return false;
					},
				)
			: Promise.resolve(this.#record.copied);
		const dropped = this.#trace.source;
		const switchable = 'use' in dropped ? (dropped as SwitchableSource) : null;
		this.#local = switchable ? this.#readCopy(copy, switchable) : Promise.resolve(null);
		this.#local.catch(() => {});
	}

	/**
	 * The decoding and the index pass read the copy instead of the dropped File: synchronously,
	 * locally, which costs far less than a File's reads cost the browser's own threads. While it
	 * is written, what it holds already (opened beside its writer once it has written some);
	 * where the browser cannot share it with its writer, all of it once whole.
	 */
	async #readCopy(
		copy: Job<null> | null,
		switchable: SwitchableSource,
	): Promise<CopySource | null> {
		const { side } = this.#deps;
		const id = this.id;
		const size = this.#file.size;
		let ended = false;
		let whole = false;
		void this.#copied.then((w) => {
			ended = true;
			whole = w;
		});
		// A copy kept by an earlier import is whole already.
		const growing = await new Promise<CopySource | null>((resolve) => {
			const look = () => {
				if (ended || !copy) resolve(null);
				else if ((copy.progress() ?? 0) > 0) resolve(side.openCopy(id, size));
				else setTimeout(look, COPY_LOOK_MS);
			};
			look();
		});
		const index = this.#indexSource!;
		if (growing && copy) {
			const written = () => (whole ? size : (copy.progress() ?? 0));
			switchable.use(growingSource(growing, switchable.initial, written));
			index.use(growingSource(growing, index.initial, written));
			// The blocks of the File read so far are behind the decoding (32 MB held to its end).
			switchable.initial.forget?.();
			return growing;
		}
		const local = (await this.#copied) ? await side.openCopy(id) : null;
		if (local) {
			switchable.use(local);
			index.use(local);
		}
		return local;
	}

	#decode(): Promise<IngestResult> {
		return ingestTrace(this.#trace, (chunk, additions) => this.#commit(chunk, additions), {
			found: { feed: this.#feed!, restart: () => this.#restart() },
			tables: this.#tables,
			skipRows: this.#skipRows,
			onProgress: (p) => this.#report(p),
			shouldStop: () => this.#cancelled || this.#sideError !== null,
			othersWaiting: this.#deps.othersWaiting,
			observe: (b, i, row) => this.#sockets.observe(b, i, row),
			follower: {
				slice: (b) => this.#sockets.slice(b),
				checkpoint: () => this.#sockets.checkpoint(),
				caughtUp: () => this.#sockets.caughtUp(),
			},
			lateAdditions: (names) => this.#lateNames(names),
			beforeCommit: (t) => this.#sockets.learnNames(t),
			drain: () => this.#batches.flush(),
			columns: this.#columns,
		});
	}

	/**
	 * Who follows the sockets: a worker of their own when the page can start one, once the first
	 * rows are stored (its start would compete with them for a core). A resumed import starts it
	 * at once: the rows stored before are followed again first, and the decoding waits on them.
	 */
	#follower(): SocketFollower {
		const trace = this.#trace;
		const after = this.#skipRows > 0 ? Promise.resolve() : this.#stored;
		const channel = this.#deps.side.follow?.(after);
		return channel
			? new FollowLink(channel, trace.facts.startFiletime, (from) => trace.decoder.providers(from))
			: localFollower(trace);
	}

	/** Names the sockets taught after the last chunk was stored: kept with it. */
	async #lateNames(names: ChunkAdditions): Promise<void> {
		const last = this.#counted.chunks - 1;
		if (last < 0) return;
		await addChunkNames(await this.#deps.catalog.db(), this.id, last, names);
		this.#live.addedNames(names);
	}

	#newBatches(): ChunkBatches {
		return new ChunkBatches(async (records) => putChunks(await this.#deps.catalog.db(), records));
	}

	/**
	 * Stores a chunk (with others: chunk-batches.ts); the trace counts its chunks as they are
	 * stored, in order, writing the counts every so often (a write per chunk would wait on the
	 * decoding's time slices): an import interrupted meanwhile resumes from the last chunk
	 * counted, dropping any beyond it.
	 */
	async #commit(chunk: Chunk, additions: ChunkAdditions): Promise<void> {
		const { record, bytes, zeros } = chunkRecord(this.id, chunk, additions);
		const stored = this.#batches.add(record, bytes);
		// The first rows are shown while they are written (the page's first answer waits for them,
		// and the write took a fifth of that wait); counted, as every chunk, once stored.
		const early = !this.#anyShown && chunk.index === this.#counted.chunks;
		if (early) {
			this.#anyShown = true;
			this.#live.added(chunk, additions, zeros, stored);
		}
		await stored;
		// One whose predecessor failed is not counted: that failure stops the import.
		if (chunk.index !== this.#counted.chunks) return;
		this.#counted = countChunk(this.#counted, chunk, bytes);
		if (!early) this.#live.added(chunk, additions, zeros);
		this.#firstStored();
		if (!this.#anyStored && this.#decoding) this.#report(this.#latest, true);
		this.#anyStored = true;
		const now = performance.now();
		if (now - this.#countedAt >= COUNT_EVERY_MS) {
			this.#countedAt = now;
			this.#saveCounts();
		}
		if (this.#policy.committed(now - this.#started)) this.#tell(false);
	}

	#saveCounts(): void {
		const c = this.#counted;
		const db = this.#deps.catalog.db();
		this.#counting = this.#counting
			.catch(() => {})
			.then(async () => updateTrace(await db, this.id, c))
			.then((r) => void (this.#live.record = r));
		// A failed write shows where the counts are next written (at the end, at the latest).
		this.#counting.catch(() => {});
	}

	/** The merge met a CPU found late with earlier records: what was stored goes. */
	async #restart(): Promise<TraceTables> {
		const db = await this.#deps.catalog.db();
		await this.#counting.catch(() => {});
		this.#live.noMoreChunks();
		await dropChunksFrom(db, this.id, 0);
		this.#deps.traces.forget(this.id);
		const record = await updateTrace(db, this.id, NO_CHUNKS);
		this.#counted = countsOf(record);
		this.#storedBefore = 0;
		this.#live = await this.#deps.traces.live(this.id);
		this.#live.record = record;
		this.#live.pool = this.#columns;
		this.#live.useRecords(this.#readBack!);
		this.#sockets.stop();
		this.#sockets = this.#follower();
		// The new first chunk goes alone again.
		this.#batches = this.#newBatches();
		this.#policy.restarted();
		this.#tell(false);
		return new TraceTables();
	}

	#report(p: IngestProgress, force = false): void {
		this.#latest = p;
		this.#decoding = true;
		const now = performance.now();
		if (this.#policy.due(now - this.#started)) this.#tell(false);
		// The first rows decoded, and the first stored, are reported at once.
		if (!this.#rowsReported && p.records > 0) this.#rowsReported = force = true;
		if (!force && now - this.#lastReport < PROGRESS_EVERY_MS) return;
		this.#lastReport = now;
		const progress = importingProgress(
			this.id,
			this.#record.name,
			{
				decoded: p,
				copied: this.#copy ? (this.#copy.progress() ?? 0) : null,
				fileSize: this.#file.size,
			},
			this.#storedBefore,
			now - this.#started,
		);
		const span = storedSpan(this.#live.chunks());
		this.#onProgress(span ? { ...progress, span } : progress);
	}

	#latestAtEnd(): IngestProgress {
		const { bytesTotal, records, chunks } = this.#latest;
		return { bytesDone: bytesTotal, bytesTotal, records, chunks };
	}

	/**
	 * The sockets followed over the whole trace, stored as part of it (while the copy may still
	 * run), unless the trace was deleted meanwhile (and so cancelled). If they fail, the import
	 * fails.
	 */
	async #storeSockets(): Promise<void> {
		if (this.#cancelled || this.#sideError) throw new IngestStopped();
		const db = await this.#deps.catalog.db();
		// A sockets worker stores them itself; followed here, they come back to be stored.
		const { owners, sockets, listed } = await this.#sockets.finish({
			db: db.name,
			traceId: this.id,
		});
		const packed = owners ? packOwners(owners, this.#live.tables) : null;
		if (!listed || !(await putSockets(db, this.id, sockets, packed))) throw new IngestStopped();
		// The page's first requests once the import is done ask for them: not read back when they
		// are at hand. The owners are joined as stored (typed arrays), not as the tracker's map of
		// every endpoint.
		if (sockets) this.#live.keepTracked(sockets);
		this.#live.keepOwners(packed && unpackOwners(packed));
	}

	/** The copy usually ends first; waits for it, still reporting and cancellable. */
	async #awaitSideJobs(): Promise<void> {
		const sides = this.#copied;
		for (let finished = false; !finished;) {
			finished = await Promise.race([
				sides.then(() => true),
				new Promise<boolean>((r) => setTimeout(() => r(false), PROGRESS_EVERY_MS)),
			]);
			if (this.#cancelled || this.#sideError) throw new IngestStopped();
			this.#report(this.#latestAtEnd());
		}
	}

	/** Why the import stopped, as the page is told. */
	#failure(caught: unknown): Result<never> {
		// A failed side job stops the decoding too: report why it failed.
		const e = caught instanceof IngestStopped && this.#sideError ? this.#sideError : caught;
		// Cancel also stops the index pass, and with it whatever waits on it (the decoding, the
		// sockets): what they throw then is the cancel.
		if (e instanceof IngestStopped || this.#cancelled)
			return failWith('cancelled', msg('failure.cancelled'));
		const code: FailureCode = errorCode(e);
		if (code === 'quota') {
			const need = this.#trace.source.size * (1 + COLUMNS_FACTOR) - this.#counted.storedBytes;
			return failWith(
				'quota',
				msg('failure.quota-import', {
					events: this.#counted.records.toLocaleString('en-US'),
					need: mb(Math.max(0, need)),
				}),
			);
		}
		return fail(
			code === 'internal' ? 'internal' : code,
			// i18n: data (the page says failure.import)
			`import failed: ${errorMessage(e)}`,
			msg('failure.import', { detail: errorText(e) }),
		);
	}

	/** Stops what still runs, lets this worker's writes settle, and lets go of the copy. */
	async #release(): Promise<void> {
		this.#sockets.stop();
		this.#feed?.release();
		this.#pass.abort();
		this.#copy?.cancel();
		this.#live?.noMoreChunks();
		// Not awaited: a copy never started never settles.
		void this.#local.then((local) => {
			if (!local) return;
			(this.#trace.source as SwitchableSource).reset();
			this.#indexSource?.reset();
			local.close();
		});
		await Promise.allSettled([this.#counting, this.#indexed]);
	}

	#tell(final: boolean): void {
		const c = this.#counted;
		this.#deps.notices.tell({ traceId: this.id, records: c.records, chunks: c.chunks, final });
	}
}
