// The IndexedDB schema. Each version's upgrade step is numbered and kept: a browser that still
// holds version N runs steps N+1.. in order. Events are stored as column chunks, never one record
// per event (that is about a thousand times slower to write).
import {
	openDB,
	type DBSchema,
	type IDBPDatabase,
	type IDBPTransaction,
	type StoreNames,
} from 'idb';
import type { BufferTable } from '../decoder/buffer-records.ts';
import type { TraceFacts } from '../decoder/types.ts';
import type { ColumnPart } from '../columns/layout.ts';
import type { ChunkSummary } from '../columns/chunk-summary.ts';
import type { ChunkAdditions, IngestDamage } from '../ingest/ingest.ts';
import type { TrackedTrace } from '../sockets/tracker.ts';
import type { StoredOwners } from './owners-record.ts';
import type { Message } from '../lib/message.ts';

export const DB_NAME = 'sockscope';
export const DB_VERSION = 3;

export type TraceStatus = 'importing' | 'complete' | 'failed' | 'cancelled';

export interface TraceRecord {
	id?: number;
	name: string;
	/** Bytes of the original file. */
	size: number;
	lastModified: number;
	/** SHA-256 (hex) of the file's size, its header buffer, every buffer header and its last 64 KiB. */
	fingerprint: string;
	facts: TraceFacts;
	decoderVersion: number;
	status: TraceStatus;
	/** Rows and chunks committed so far. */
	records: number;
	chunks: number;
	/** Bytes of columns stored (the copy of the file comes on top: `size`). */
	storedBytes: number;
	/** Whether the library's copy of the file (which details and exports read) is whole. */
	copied: boolean;
	/** Time range covered (ticks since StartTime). */
	tMin: number;
	tMax: number;
	importedAt: number;
	importMs: number;
	damage: IngestDamage[];
	error: string | null;
	/**
	 * The same note as a message, for the page to say in the reader's language (absent in traces
	 * stored by an earlier version, which show `error` as it was written).
	 */
	errorText?: Message | null;
}

export interface ChunkRecord {
	traceId: number;
	index: number;
	rows: number;
	tMin: number;
	tMax: number;
	bytes: number;
	/** Columns of zeros, not stored. */
	zeros: string[];
	additions: ChunkAdditions;
	/**
	 * The chunk's stored columns, one after another in one Blob (far cheaper to write than a
	 * record per column), and where each sits. Absent in chunks stored before: their columns are
	 * records of the `columns` store.
	 */
	data?: Blob;
	parts?: ColumnPart[];
	/**
	 * Columns stored apart (STORE_APART), a Blob per group that has any; a part's `blob` says
	 * which. Absent in chunks stored before: `data` holds every column.
	 */
	blobs?: Blob[];
	/**
	 * Its rows' combinations of event type, process, status and the like, which answer counts
	 * without reading the columns (columns/chunk-summary.ts); null when the chunk has too many.
	 * Chunks stored now hold none: a complete trace keeps every chunk's in one record
	 * (SummariesRecord). Absent in both, as in chunks stored by an earlier version: queries scan.
	 */
	summary?: ChunkSummary | null;
}

/**
 * Every chunk's summary of a complete trace, by chunk index, in one record of the chunks store
 * (its `index` a string, outside the chunks' numbers). One record: a trace's hundreds of chunk
 * records each holding its summary took three to six times as long to read as the same values
 * in one, and a large trace's opening waited for them.
 */
export interface SummariesRecord {
	traceId: number;
	index: typeof SUMMARIES;
	summaries: (ChunkSummary | null)[];
	/**
	 * Every chunk's record but for where its columns are (and its summary, above), by chunk index:
	 * opening the trace reads this record alone. Reading the chunk records took three times as
	 * long, for the Blob each holds. Absent (stored by an earlier version): they are read.
	 */
	chunks?: ChunkOpening[];
}

/** A chunk's record as opening its trace reads it: without its columns or its summary. */
export type ChunkOpening = Omit<ChunkRecord, 'traceId' | 'data' | 'parts' | 'blobs' | 'summary'>;

/** The `index` of a trace's SummariesRecord. */
export const SUMMARIES = 'summaries';

/** One column of a chunk, as chunks were stored before their columns went into one Blob. */
export interface ColumnRecord {
	traceId: number;
	chunk: number;
	name: string;
	data: ArrayBuffer;
	/** The narrower type `data` holds, when every value of the column fits it. */
	stored?: 'u8' | 'u16';
}

/** Where each buffer of a trace's file is, for reading records back from the library's copy. */
export interface BuffersRecord {
	traceId: number;
	table: BufferTable;
}

/**
 * The sockets rebuilt from a trace's Winsock events, stored when its import completes: under the
 * trace's id, without their owners table; the owners apart, under [id, 'owners'] (a trace's first
 * query reads them, and must not wait on reading every socket). Sockets stored before carry
 * their owners with them, and have no record of owners.
 */
export type SocketsRecord =
	{ traceId: number; tracked: TrackedTrace } | { traceId: OwnersKey; owners: StoredOwners };

export type OwnersKey = [number, 'owners'];

export interface SockscopeDB extends DBSchema {
	traces: { key: number; value: TraceRecord };
	sockets: { key: number | OwnersKey; value: SocketsRecord };
	buffers: { key: number; value: BuffersRecord };
	chunks: { key: [number, number | typeof SUMMARIES]; value: ChunkRecord | SummariesRecord };
	columns: { key: [number, number, string]; value: ColumnRecord };
}

type Upgrade = (
	db: IDBPDatabase<SockscopeDB>,
	tx: IDBPTransaction<SockscopeDB, StoreNames<SockscopeDB>[], 'versionchange'>,
) => void;

const UPGRADES: Upgrade[] = [
	// 1: traces, chunk summaries, and one record per (chunk, column).
	(db) => {
		db.createObjectStore('traces', { keyPath: 'id', autoIncrement: true });
		db.createObjectStore('chunks', { keyPath: ['traceId', 'index'] });
		db.createObjectStore('columns', { keyPath: ['traceId', 'chunk', 'name'] });
	},
	// 2: the socket reconstruction of each complete trace.
	(db) => {
		db.createObjectStore('sockets', { keyPath: 'traceId' });
	},
	// (Chunk summaries, ChunkRecord.summary, came later without a new version: a value of the
	// chunks store may gain an optional property without an upgrade, and a chunk stored before
	// has none, so queries scan it as they always did. A version for them would only make an older
	// page still open in another tab fail to open the database.)
	// 3: record bytes move out of the column chunks into a copy of the file beside the database
	// (store/trace-files.ts), found through each trace's buffer table. Chunks stored before carry
	// no buffer column, so earlier imports are dropped: their files must be imported again.
	(db, tx) => {
		db.createObjectStore('buffers', { keyPath: 'traceId' });
		for (const name of ['traces', 'chunks', 'columns', 'sockets'] as const)
			void tx.objectStore(name).clear();
	},
];

export function openStore(name = DB_NAME): Promise<IDBPDatabase<SockscopeDB>> {
	return openDB<SockscopeDB>(name, DB_VERSION, {
		upgrade(db, oldVersion, _newVersion, tx) {
			for (let v = oldVersion; v < UPGRADES.length; v++) UPGRADES[v]!(db, tx);
		},
	});
}
