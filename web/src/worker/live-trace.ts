// A library trace opened in the worker: its tables, its chunk list and a query engine over
// IndexedDB. While an import runs, committed chunks join it as they are written, so the
// page can show rows before the import ends.
import type { IDBPDatabase } from 'idb';
import type { RecordBytes } from '../decoder/buffer-records.ts';
import {
	narrowColumn,
	ticksSaturate,
	zeroColumn,
	type Chunk,
	type ColumnName,
	type ReadColumns,
} from '../columns/layout.ts';
import type { ChunkAdditions } from '../ingest/ingest.ts';
import type { ChunkSummary } from '../columns/chunk-summary.ts';
import type { OwnerLookup } from '../columns/event-owners.ts';
import type { ColumnPool } from '../columns/column-pool.ts';
import { TraceTables } from '../ingest/trace-tables.ts';
import { QueryEngine } from '../query/engine.ts';
import type { ChunkInfo, ChunkSource } from '../query/column-cache.ts';
import type { Selection } from '../query/protocol.ts';
import type { FilterContext } from '../query/filter-compile.ts';
import type { SockscopeDB, TraceRecord } from '../store/db.ts';
import type { TrackedTrace } from '../sockets/tracker.ts';
import {
	chunkColumns,
	chunkRecords,
	chunkSummaries,
	columnsOf,
	loadColumn,
	loadColumns,
	type ChunkColumns,
} from '../store/trace-store.ts';

/**
 * The query cache's bound while an import adds chunks: the newest chunks' timeline and filter
 * columns stay at hand (about 9 M events), without the import holding a full cache (192 MiB at
 * 25 M events) on top of its own memory. The cache grows back once the import ends.
 */
const IMPORT_CACHE_BYTES = 64 << 20;

export class LiveTrace implements ChunkSource {
	readonly id: number;
	record: TraceRecord;
	readonly tables = new TraceTables();
	readonly engine: QueryEngine;
	selection: Selection | null = null;
	readonly #chunks: ChunkInfo[] = [];
	/** Per chunk, the columns of zeros that were not stored. */
	readonly #zeros: Set<string>[] = [];
	/** Per chunk, where its columns are (read with the chunk's summary, once needed). */
	readonly #stored: (Promise<ChunkColumns> | undefined)[] = [];
	/** Where every stored chunk's columns are, read in one request (see `readStoredChunks`). */
	#allStored: Promise<void> | null = null;
	/**
	 * Opened without where its chunks' columns are (a complete trace's summaries record holds the
	 * rest): the first chunk asked for is read alone, the others together when another is asked for.
	 */
	#unlocated = false;
	readonly #db: IDBPDatabase<SockscopeDB>;
	/** The last chunks committed by an import in this worker, served without a read back. */
	readonly #recent = new Map<number, Chunk>();
	/**
	 * Per recent chunk, the columns handed out as they are (to a query, to the cache): those stay
	 * the reader's; the others go back to `pool` when the chunk leaves the recent ones.
	 */
	readonly #lent = new Map<number, Set<ColumnName>>();
	/** Where the import in this worker takes its chunks' columns (none: they are left to the GC). */
	pool: ColumnPool | null = null;
	/** Chunks added before they were stored (their write still runs). */
	readonly #unstored = new Set<number>();
	#records: Promise<RecordBytes> | null = null;
	/** Opens the records of the library's copy of the file (when no import gives them). */
	readonly #openRecords: () => Promise<RecordBytes>;
	#firstChunk!: Promise<void>;
	#noMoreWaiting!: () => void;
	/**
	 * The sockets as stored, held weakly: read from storage once rather than per request (a large
	 * trace's take seconds to read), yet let go when memory is wanted (they are read again then).
	 */
	#tracked: WeakRef<TrackedTrace> | null = null;
	/** Undefined: not known here (read from storage). */
	#owners: OwnerLookup | null | undefined = undefined;
	#reading: Promise<TrackedTrace | undefined> | null = null;

	private constructor(
		db: IDBPDatabase<SockscopeDB>,
		record: TraceRecord,
		openRecords: () => Promise<RecordBytes>,
	) {
		this.#db = db;
		this.#openRecords = openRecords;
		this.id = record.id!;
		this.record = record;
		this.engine = new QueryEngine(this, () => this.context());
		this.#firstChunk = new Promise((resolve) => (this.#noMoreWaiting = resolve));
	}

	static async load(
		db: IDBPDatabase<SockscopeDB>,
		record: TraceRecord,
		openRecords: () => Promise<RecordBytes>,
	): Promise<LiveTrace> {
		const t = new LiveTrace(db, record, openRecords);
		const summaries = await chunkSummaries(db, record.id!);
		summaries.sort((a, b) => a.index - b.index);
		// Only chunks the trace counts are whole; anything past them is left from an interruption.
		for (const s of summaries.slice(0, record.chunks)) {
			t.tables.apply(s.additions);
			t.#chunks.push({
				index: s.index,
				rows: s.rows,
				tMin: s.tMin,
				tMax: s.tMax,
				// Chunks stored by an earlier version have none: they are scanned.
				summary: s.summary?.rows === s.rows ? s.summary : null,
			});
			t.#zeros.push(new Set(s.zeros));
			t.#stored.push(s.columns && Promise.resolve(s.columns));
			if (!s.columns) t.#unlocated = true;
		}
		return t;
	}

	#marked: ReadonlySet<number> = new Set();
	/** Bumped when names or marks change what a filter finds in the chunks stored already. */
	#revision = 0;

	/** The page's marks of this trace (event indexes), as its latest query that reads them sent. */
	get marked(): ReadonlySet<number> {
		return this.#marked;
	}

	set marked(marks: ReadonlySet<number>) {
		const same = marks.size === this.#marked.size && [...marks].every((m) => this.#marked.has(m));
		if (!same) this.#revision++;
		this.#marked = marks;
	}

	context(): FilterContext {
		return {
			revision: this.#revision,
			marked: this.marked,
			strings: this.tables.strings,
			eventTypes: this.tables.eventTypes,
			startFiletime: BigInt(this.record.facts.startFiletime),
			processNames: this.tables.processNames,
			hostNames: this.tables.hostNames,
		};
	}

	/** Names an import learned after its last chunk was committed (stored with that chunk). */
	addedNames(additions: ChunkAdditions): void {
		this.tables.apply(additions);
		this.#revision++;
	}

	/**
	 * A chunk an import in this worker has just committed (`zeros`: its columns not stored), or is
	 * storing (`stored` settles once it is): served from memory until it is stored.
	 */
	added(
		chunk: Chunk,
		additions: ChunkAdditions,
		zeros: readonly ColumnName[],
		stored?: Promise<void>,
	): void {
		this.tables.apply(additions);
		// A name learned now may name rows stored before (a process's, a remote host's).
		if (additions.processNames.length > 0 || (additions.hostNames?.length ?? 0) > 0)
			this.#revision++;
		this.#chunks.push({
			index: chunk.index,
			rows: chunk.rows,
			tMin: chunk.tMin,
			tMax: chunk.tMax,
			summary: chunk.summary ?? null,
		});
		this.#zeros.push(new Set(zeros));
		this.#stored.push(undefined);
		this.#recent.set(chunk.index, chunk);
		const lent = new Set<ColumnName>();
		this.#lent.set(chunk.index, lent);
		if (stored) {
			this.#unstored.add(chunk.index);
			const done = () => void this.#unstored.delete(chunk.index);
			stored.then(done, done);
		}
		this.#noMoreWaiting();
		this.engine.limitCache(IMPORT_CACHE_BYTES);
		// The timeline's columns stay at hand (it is redrawn over every chunk while importing), and
		// those most filters read (event types, status flags): 7 bytes per event or less, narrowed
		// as they are stored.
		for (const name of ['tick', 'cat', 'etype', 'flags'] as const) {
			const narrowed = narrowColumn(name, chunk.columns[name]);
			if (narrowed === chunk.columns[name]) lent.add(name);
			this.engine.prime(chunk.index, name, narrowed);
		}
		// The last two, and any not stored yet.
		for (const [index, { columns }] of this.#recent) {
			if (this.#recent.size <= 2) break;
			if (this.#unstored.has(index)) continue;
			this.#recent.delete(index);
			const kept = this.#lent.get(index)!;
			this.#lent.delete(index);
			this.pool?.give(
				Object.fromEntries(Object.entries(columns).filter(([n]) => !kept.has(n as ColumnName))),
			);
		}
	}

	/** The trace's stored sockets: those kept, else `read` (one read at a time). */
	async tracked(read: () => Promise<TrackedTrace | undefined>): Promise<TrackedTrace | undefined> {
		const kept = this.#tracked?.deref();
		if (kept) return kept;
		if (!this.#reading) {
			const reading = read().then((t) => {
				if (t) this.keepTracked(t);
				return t;
			});
			this.#reading = reading;
			// Read again at the next request, kept or not (a failed read too).
			void reading.then(
				() => (this.#reading = null),
				() => (this.#reading = null),
			);
		}
		return this.#reading;
	}

	/** The sockets, if they are held (read back, or stored by the import in this worker). */
	heldTracked(): TrackedTrace | undefined {
		return this.#tracked?.deref();
	}

	/** The sockets just stored (by the import in this worker, or read back). */
	keepTracked(t: TrackedTrace): void {
		this.#tracked = new WeakRef(t);
	}

	/** The owners table the import in this worker just stored (null: the trace has none). */
	heldOwners(): OwnerLookup | null | undefined {
		return this.#owners;
	}

	/** Keeps the owners table just stored, for the query engine to join without reading it back. */
	keepOwners(owners: OwnerLookup | null): void {
		this.#owners = owners;
	}

	/** Settles once the trace has a chunk, or once `noMoreChunks` says none will be added. */
	firstChunk(): Promise<void> {
		return this.#chunks.length > 0 ? Promise.resolve() : this.#firstChunk;
	}

	/** The import adding chunks has ended (or started over in another LiveTrace). */
	noMoreChunks(): void {
		this.#noMoreWaiting();
		// The import's columns are left to the collector from now on, and the pool's sets with them.
		this.pool = null;
		this.engine.limitCache(null);
	}

	chunks(): readonly ChunkInfo[] {
		return this.#chunks;
	}

	/** Each chunk's summary, by chunk index (null: it has none, and is scanned). */
	summaries(): (ChunkSummary | null)[] {
		return this.#chunks.map((c) => c.summary ?? null);
	}

	async column<K extends ColumnName>(chunk: number, name: K): Promise<ReadColumns[K]> {
		const recent = this.#recent.get(chunk);
		if (recent) {
			this.#lent.get(chunk)!.add(name);
			return recent.columns[name];
		}
		const info = this.#chunks[chunk];
		if (info && this.#zeros[chunk]!.has(name)) return zeroColumn(name, info.rows);
		if (name === 'time' && info && !ticksSaturate(info)) {
			const tick = await this.column(chunk, 'tick');
			const time = new Float64Array(tick.length);
			for (let i = 0; i < tick.length; i++) time[i] = info.tMin + tick[i]!;
			return time as ReadColumns[K];
		}
		return loadColumn(this.#db, this.id, chunk, name, await this.#where(chunk));
	}

	/** Several columns of a chunk: those read from storage in as few reads as their places allow. */
	async columns<K extends ColumnName>(
		chunk: number,
		names: readonly K[],
	): Promise<ReadColumns[K][]> {
		const info = this.#chunks[chunk];
		// Made or held here rather than read: columns of zeros, times from ticks, recent chunks.
		const made = (name: K) =>
			this.#recent.has(chunk) ||
			(info !== undefined &&
				(this.#zeros[chunk]!.has(name) || (name === 'time' && !ticksSaturate(info))));
		const read = names.filter((n) => !made(n));
		if (read.length < 2) return Promise.all(names.map((n) => this.column(chunk, n)));
		const loaded = await loadColumns(this.#db, this.id, chunk, read, await this.#where(chunk));
		return Promise.all(
			names.map((n) => {
				const at = read.indexOf(n);
				return at >= 0 ? loaded[at]! : this.column(chunk, n);
			}),
		);
	}

	/** Where a stored chunk's columns are (read with its summary once needed). */
	async #where(chunk: number): Promise<ChunkColumns> {
		if (!this.#stored[chunk]) {
			if (this.#allStored) await this.#allStored;
			// The first chunk asked for was read alone (the first rows wait for it: a read of every
			// chunk beside it held up its read and its columns' too); the others are read together.
			else if (this.#unlocated && this.#stored.some((w) => w !== undefined))
				await this.readStoredChunks();
		}
		let where = this.#stored[chunk];
		if (!where) {
			const reading = chunkColumns(this.#db, this.id, chunk);
			// A failed read is tried again at the next call.
			reading.catch(() => {
				if (this.#stored[chunk] === reading) this.#stored[chunk] = undefined;
			});
			where = this.#stored[chunk] = reading;
		}
		return where;
	}

	/**
	 * Reads where every stored chunk's columns are, in one request: a trace just imported knows its
	 * chunks but not where storage put them, and a first query over a large one asked chunk by
	 * chunk (most of its time). Not while an import writes: the read would hold up its writes.
	 */
	readStoredChunks(): Promise<void> {
		this.#allStored ??= chunkRecords(this.#db, this.id).then(
			(summaries) => {
				for (const s of summaries)
					if (s.index < this.#chunks.length && !this.#stored[s.index])
						this.#stored[s.index] = Promise.resolve(columnsOf(s));
			},
			// Chunk by chunk, then.
			() => {},
		);
		return this.#allStored;
	}

	/** Record bytes, from the dropped file while it is being imported, else from the library's copy. */
	readonly records: RecordBytes = {
		bytes: async (buffer, offset) => {
			if (!this.#records) {
				// Opened once; a failure (no copy yet) is tried again at the next call.
				const opening = this.#openRecords();
				opening.catch(() => {
					if (this.#records === opening) this.#records = null;
				});
				this.#records = opening;
			}
			return (await this.#records).bytes(buffer, offset);
		},
	};

	/** Records come from `records` (an import's file) until the trace is opened again. */
	useRecords(records: Promise<RecordBytes>): void {
		this.#records = records;
	}

	/** The chunk and local row of a global row index. */
	locate(index: number): { chunk: number; row: number } | null {
		let base = 0;
		for (const c of this.#chunks) {
			if (index < base + c.rows) return { chunk: c.index, row: index - base };
			base += c.rows;
		}
		return null;
	}
}
