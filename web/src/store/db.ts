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
import type { TraceFacts } from '../decoder/types.ts';
import type { ChunkAdditions, IngestDamage } from '../ingest/ingest.ts';
import type { TrackedTrace } from '../sockets/tracker.ts';

export const DB_NAME = 'sockscope';
export const DB_VERSION = 2;

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
	/** Bytes of columns and record data stored. */
	storedBytes: number;
	/** Time range covered (ticks since StartTime). */
	tMin: number;
	tMax: number;
	importedAt: number;
	importMs: number;
	damage: IngestDamage[];
	error: string | null;
}

export interface ChunkRecord {
	traceId: number;
	index: number;
	rows: number;
	tMin: number;
	tMax: number;
	bytes: number;
	additions: ChunkAdditions;
}

export interface ColumnRecord {
	traceId: number;
	chunk: number;
	name: string;
	data: ArrayBuffer;
}

/** The sockets rebuilt from a trace's Winsock events, stored when its import completes. */
export interface SocketsRecord {
	traceId: number;
	tracked: TrackedTrace;
}

export interface SockscopeDB extends DBSchema {
	traces: { key: number; value: TraceRecord };
	sockets: { key: number; value: SocketsRecord };
	chunks: { key: [number, number]; value: ChunkRecord };
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
];

export function openStore(name = DB_NAME): Promise<IDBPDatabase<SockscopeDB>> {
	return openDB<SockscopeDB>(name, DB_VERSION, {
		upgrade(db, oldVersion, _newVersion, tx) {
			for (let v = oldVersion; v < UPGRADES.length; v++) UPGRADES[v]!(db, tx);
		},
	});
}
