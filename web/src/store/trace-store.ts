// Trace library operations over IndexedDB: the catalog, chunk commits, loading and deleting.
import type { IDBPDatabase, IDBPObjectStore } from 'idb';
import {
	COLUMN_ALIGN,
	STORE_APART,
	STORE_ORDER,
	columnAt,
	columnFromBuffer,
	columnPieces,
	ticksSaturate,
	type Chunk,
	type ColumnName,
	type ColumnPart,
	type ReadColumns,
} from '../columns/layout.ts';
import type { ChunkAdditions } from '../ingest/ingest.ts';
import type { BufferTable } from '../decoder/buffer-records.ts';
import { ownerLookup, type OwnerLookup } from '../columns/event-owners.ts';
import type { TrackedTrace } from '../sockets/tracker.ts';
import type { ChunkSummary } from '../columns/chunk-summary.ts';
import {
	SUMMARIES,
	type ChunkOpening,
	type ChunkRecord,
	type OwnersKey,
	type SockscopeDB,
	type SummariesRecord,
	type TraceRecord,
} from './db.ts';
import { unpackOwners, type PackedOwners } from './owners-record.ts';

type DB = IDBPDatabase<SockscopeDB>;

/** Key range of everything stored for one trace in a store keyed [traceId, …]. */
const ofTrace = (id: number) => IDBKeyRange.bound([id], [id, []]);

export async function listTraces(db: DB): Promise<TraceRecord[]> {
	return db.getAll('traces');
}

export async function getTrace(db: DB, id: number): Promise<TraceRecord | undefined> {
	return db.get('traces', id);
}

export async function addTrace(db: DB, trace: TraceRecord): Promise<number> {
	return db.add('traces', trace);
}

export async function updateTrace(
	db: DB,
	id: number,
	change: Partial<TraceRecord>,
): Promise<TraceRecord> {
	const tx = db.transaction('traces', 'readwrite');
	const t = await tx.store.get(id);
	if (!t) throw new Error(`no trace ${id}`);
	const next = { ...t, ...change };
	await tx.store.put(next);
	await tx.done;
	return next;
}

/** What a trace counts of its stored chunks (the chunks 0 .. chunks-1, all whole). */
export type ChunkCounts = Pick<TraceRecord, 'records' | 'chunks' | 'storedBytes' | 'tMin' | 'tMax'>;

/** The counts of a trace with no chunk stored. */
export const NO_CHUNKS: ChunkCounts = { records: 0, chunks: 0, storedBytes: 0, tMin: 0, tMax: 0 };

/** The counts a trace record holds. */
export function countsOf(t: TraceRecord): ChunkCounts {
	const { records, chunks, storedBytes, tMin, tMax } = t;
	return { records, chunks, storedBytes, tMin, tMax };
}

/** The counts once `chunk` (`bytes` stored) has joined the chunks counted in `c`. */
export function countChunk(c: ChunkCounts, chunk: Chunk, bytes: number): ChunkCounts {
	const chunks = chunk.index + 1;
	return {
		records: c.records + chunk.rows,
		chunks,
		storedBytes: c.storedBytes + bytes,
		tMin: chunks === 1 ? chunk.tMin : Math.min(c.tMin, chunk.tMin),
		tMax: chunks === 1 ? chunk.tMax : Math.max(c.tMax, chunk.tMax),
	};
}

/** A chunk as it is stored, with the bytes of its columns and the columns left out as zeros. */
export interface StoredChunk {
	readonly record: ChunkRecord;
	readonly bytes: number;
	readonly zeros: ColumnName[];
}

/**
 * A chunk's record: its columns (one Blob) and what loading them needs, so that a stored chunk is
 * always whole (its summary is stored with the others once the trace is: putSummaries). Made at
 * once, before the next chunk is built: the pieces of narrowed columns are only valid until the
 * next chunk's.
 */
export function chunkRecord(traceId: number, chunk: Chunk, additions: ChunkAdditions): StoredChunk {
	// A column of zeros (the socket columns of a chunk without Winsock events, say) is not
	// written: the summary names it and loading makes it again. Times are rebuilt from the ticks
	// wherever those hold them.
	const stored = ticksSaturate(chunk) ? STORE_ORDER : STORE_ORDER.filter((n) => n !== 'time');
	const apart = new Set(STORE_APART.flat());
	// The first Blob holds every column not stored apart (and is made even when it holds none).
	const groups = [
		stored.filter((n) => !apart.has(n)),
		...STORE_APART.map((group) => group.filter((n) => stored.includes(n))),
	];
	const made: Blob[] = [];
	const parts: ColumnPart[] = [];
	const zeros: ColumnName[] = [];
	let bytes = 0;
	for (const [k, names] of groups.entries()) {
		// Each Blob is made of the columns themselves: their bytes are copied once, into it. It is
		// made before the next group's pieces, which may reuse the memory of narrowed columns.
		const g = columnPieces(chunk.columns, names);
		zeros.push(...g.zeros);
		if (k > 0 && g.parts.length === 0) continue;
		const blob = made.push(new Blob(g.pieces as BlobPart[])) - 1;
		for (const p of g.parts) parts.push(blob > 0 ? { ...p, blob } : p);
		bytes += g.bytes;
	}
	const [data, ...blobs] = made;
	const record: ChunkRecord = {
		traceId,
		index: chunk.index,
		rows: chunk.rows,
		tMin: chunk.tMin,
		tMax: chunk.tMax,
		bytes,
		zeros,
		additions,
		data,
		parts,
		...(blobs.length > 0 ? { blobs } : {}),
	};
	return { record, bytes, zeros };
}

/**
 * Stores chunk records in one transaction (each transaction is a round trip to the browser's
 * storage, however few its puts). The trace's counts are the caller's to write (`updateTrace`),
 * after its chunks are stored: a trace counts only chunks stored, and one stored beyond its count
 * (an import interrupted before counting it) is dropped when the import resumes.
 */
export async function putChunks(db: DB, records: readonly ChunkRecord[]): Promise<void> {
	const tx = db.transaction('chunks', 'readwrite', { durability: 'relaxed' });
	const puts = records.map((r) => tx.store.put(r));
	// Nothing more to ask: the commit need not wait for this worker to turn its event loop (a
	// decoding holds it for tens of milliseconds at a time).
	tx.commit();
	await Promise.all(puts);
	await tx.done;
}

/**
 * Adds names learned after a chunk was stored (its trace's last) to the additions it carries:
 * opening the trace again replays them with the chunk's.
 */
export async function addChunkNames(
	db: DB,
	traceId: number,
	index: number,
	names: Pick<ChunkAdditions, 'processNames' | 'hostNames'>,
): Promise<void> {
	const tx = db.transaction('chunks', 'readwrite');
	const r = await tx.store.get([traceId, index]);
	if (isChunk(r)) {
		const a = r.additions;
		r.additions = {
			...a,
			processNames: [...a.processNames, ...names.processNames],
			hostNames: [...(a.hostNames ?? []), ...(names.hostNames ?? [])],
		};
		await tx.store.put(r);
	}
	await tx.done;
}

/** A trace's numbered chunk records, without its SummariesRecord (whose index is a string). */
const chunksOf = (id: number) => IDBKeyRange.bound([id, -Infinity], [id, Infinity]);

const isChunk = (r: ChunkRecord | SummariesRecord | undefined): r is ChunkRecord =>
	typeof r?.index === 'number';

/** A trace's chunk records as stored (summaries apart): where each chunk's columns are. */
export async function chunkRecords(db: DB, traceId: number): Promise<ChunkRecord[]> {
	return (await db.getAll('chunks', chunksOf(traceId))).filter(isChunk);
}

/** A chunk as opening its trace reads it: with its summary, and where its columns are if read. */
export interface OpenedChunk extends ChunkOpening {
	summary?: ChunkSummary | null;
	/** Absent: not read (the trace's SummariesRecord holds the rest); chunkColumns reads it. */
	columns?: ChunkColumns;
}

/**
 * A trace's chunks as opening it reads them: from its SummariesRecord alone where that holds
 * them, else from the chunk records, each with its summary (its own, as an earlier version
 * stored them, or the one the SummariesRecord holds).
 */
export async function chunkSummaries(db: DB, traceId: number): Promise<OpenedChunk[]> {
	const found = await db.get('chunks', [traceId, SUMMARIES]);
	const kept = found && !isChunk(found) ? found : null;
	if (kept?.chunks) return kept.chunks.map((c) => ({ ...c, summary: kept.summaries[c.index] }));
	return (await chunkRecords(db, traceId)).map(({ data, parts, blobs, traceId: _, ...c }) => ({
		...c,
		summary: c.summary === undefined ? kept?.summaries[c.index] : c.summary,
		columns: { data, parts, blobs },
	}));
}

/**
 * Stores every chunk's summary of a trace whose chunks are all stored (by chunk index), with the
 * rest of each chunk's record but its columns (SummariesRecord), unless the trace has left the
 * library meanwhile: one transaction, so a deletion comes wholly before or after.
 */
export async function putSummaries(
	db: DB,
	traceId: number,
	summaries: (ChunkSummary | null)[],
): Promise<void> {
	const tx = db.transaction(['traces', 'chunks'], 'readwrite');
	if ((await tx.objectStore('traces').count(traceId)) > 0) {
		const store = tx.objectStore('chunks');
		const chunks = (await store.getAll(chunksOf(traceId)))
			.filter(isChunk)
			.sort((a, b) => a.index - b.index)
			.map(({ traceId: _, data: _d, parts: _p, blobs: _b, summary: _s, ...c }): ChunkOpening => c);
		await store.put({ traceId, index: SUMMARIES, summaries, chunks });
	}
	await tx.done;
}

/**
 * Where a chunk's columns are: its Blobs, or (chunks stored before) a record each.
 */
export type ChunkColumns = Pick<ChunkRecord, 'data' | 'parts' | 'blobs'>;

/** The columns of a chunk, from its summary (which holds no column data until it is read). */
export async function chunkColumns(db: DB, traceId: number, chunk: number): Promise<ChunkColumns> {
	const r = await db.get('chunks', [traceId, chunk]);
	if (!isChunk(r)) throw new Error(`trace ${traceId} has no chunk ${chunk}`);
	return columnsOf(r);
}

/** Where a chunk's columns are, from its record. */
export function columnsOf(r: ChunkRecord): ChunkColumns {
	return { data: r.data, parts: r.parts, blobs: r.blobs };
}

export async function loadColumn<K extends ColumnName>(
	db: DB,
	traceId: number,
	chunk: number,
	name: K,
	where: ChunkColumns,
): Promise<ReadColumns[K]> {
	if (where.data && where.parts) return (await loadColumns(db, traceId, chunk, [name], where))[0]!;
	const r = await db.get('columns', [traceId, chunk, name]);
	if (!r) throw new Error(`trace ${traceId}: chunk ${chunk} has no column ${name}`);
	return columnFromBuffer(name, r.data, r.stored);
}

/**
 * Gaps in a chunk's stored bytes read through rather than around: each read from storage costs
 * about as much before its first byte as 400 KiB of data (Chromium, IndexedDB Blobs).
 */
const READ_THROUGH = 256 << 10;

/**
 * Several columns of a chunk: those stored close together come in one read (`READ_THROUGH`).
 * Columns stored side by side are views of their read; those a gap was read through with are
 * copied out of it, so that a column kept in the query cache holds no bytes it does not count.
 */
export async function loadColumns<K extends ColumnName>(
	db: DB,
	traceId: number,
	chunk: number,
	names: readonly K[],
	where: ChunkColumns,
): Promise<ReadColumns[K][]> {
	const { data, parts: stored } = where;
	if (!data || !stored)
		return Promise.all(names.map((n) => loadColumn(db, traceId, chunk, n, where)));
	const parts = names.map((name) => {
		const part = stored.find((p) => p.name === name);
		if (!part) throw new Error(`trace ${traceId}: chunk ${chunk} has no column ${name}`);
		return part;
	});
	const blobOf = (m: number) => parts[m]!.blob ?? 0;
	const blobs = [data, ...(where.blobs ?? [])];
	const order = [...parts.keys()].sort(
		(a, b) => blobOf(a) - blobOf(b) || parts[a]!.offset - parts[b]!.offset,
	);
	const out: ReadColumns[K][] = new Array(names.length);
	const reads: Promise<void>[] = [];
	for (let k = 0; k < order.length;) {
		const blob = blobs[blobOf(order[k]!)];
		if (!blob)
			throw new Error(`trace ${traceId}: chunk ${chunk} lacks the Blob of ${names[order[k]!]}`);
		const start = parts[order[k]!]!.offset;
		let end = start + parts[order[k]!]!.length;
		let last = k;
		while (
			last + 1 < order.length &&
			blobOf(order[last + 1]!) === blobOf(order[k]!) &&
			parts[order[last + 1]!]!.offset - end <= READ_THROUGH
		) {
			const p = parts[order[++last]!]!;
			end = Math.max(end, p.offset + p.length);
		}
		const members = order.slice(k, last + 1);
		// A Blob read whole needs no slice (each costs the reading thread as much as a read).
		const whole = start === 0 && end === blob.size;
		reads.push(
			(whole ? blob : blob.slice(start, end)).arrayBuffer().then((bytes) => {
				if (bytes.byteLength !== end - start)
					throw new Error(
						members.length === 1
							? `trace ${traceId}: column ${names[members[0]!]} of chunk ${chunk} is cut short`
							: `trace ${traceId}: the columns of chunk ${chunk} are cut short`,
					);
				// Side by side: apart by no more than the padding that aligns each column.
				const gapless =
					end - start - members.reduce((n, m) => n + parts[m]!.length, 0) <=
					(COLUMN_ALIGN - 1) * members.length;
				for (const m of members) {
					const p = parts[m]!;
					out[m] = gapless
						? columnAt(names[m]!, bytes, p.offset - start, p.length, p.stored)
						: columnFromBuffer(
								names[m]!,
								bytes.slice(p.offset - start, p.offset - start + p.length),
								p.stored,
							);
				}
			}),
		);
		k = last + 1;
	}
	await Promise.all(reads);
	return out;
}

export async function putBuffers(db: DB, traceId: number, table: BufferTable): Promise<void> {
	await db.put('buffers', { traceId, table });
}

export async function getBuffers(db: DB, traceId: number): Promise<BufferTable | undefined> {
	return (await db.get('buffers', traceId))?.table;
}

/** Removes chunks from `fromChunk` on (a resumed import rewrites them). */
export async function dropChunksFrom(db: DB, traceId: number, fromChunk: number): Promise<void> {
	const tx = db.transaction(['chunks', 'columns'], 'readwrite');
	await tx
		.objectStore('chunks')
		.delete(IDBKeyRange.bound([traceId, fromChunk], [traceId, Infinity]));
	// Summaries are kept of complete traces only: a resumed import stores them anew at its end.
	await tx.objectStore('chunks').delete([traceId, SUMMARIES]);
	await tx
		.objectStore('columns')
		.delete(IDBKeyRange.bound([traceId, fromChunk], [traceId, Infinity, []]));
	await tx.done;
}

/**
 * Stores a trace's sockets and their owners table (packOwners; null: none), unless the trace has
 * left the library meanwhile (deleted while they were being rebuilt): one transaction, so a
 * deletion comes wholly before or after. `sockets` null: stored already (putTracked, by the
 * sockets worker), only the owners are written.
 */
export async function putSockets(
	db: DB,
	traceId: number,
	sockets: Omit<TrackedTrace, 'owners'> | null,
	owners: PackedOwners | null,
): Promise<boolean> {
	return whileListed(db, traceId, (store) => [
		...(sockets ? [putTrackedIn(store, traceId, sockets)] : []),
		owners ? store.put({ traceId: ownersKey(traceId), owners }) : store.delete(ownersKey(traceId)),
	]);
}

/** Stores a trace's sockets without their owners (the sockets worker's part of putSockets). */
export async function putTracked(
	db: DB,
	traceId: number,
	sockets: Omit<TrackedTrace, 'owners'>,
): Promise<boolean> {
	return whileListed(db, traceId, (store) => [putTrackedIn(store, traceId, sockets)]);
}

type SocketsStore = IDBPObjectStore<SockscopeDB, ['traces', 'sockets'], 'sockets', 'readwrite'>;

/** Runs the writes in one transaction with the check that the trace is still listed. */
async function whileListed(
	db: DB,
	traceId: number,
	writes: (store: SocketsStore) => Promise<unknown>[],
): Promise<boolean> {
	const tx = db.transaction(['traces', 'sockets'], 'readwrite');
	const listed = (await tx.objectStore('traces').count(traceId)) > 0;
	if (listed) await Promise.all(writes(tx.objectStore('sockets')));
	await tx.done;
	return listed;
}

function putTrackedIn(
	store: SocketsStore,
	traceId: number,
	sockets: Omit<TrackedTrace, 'owners'>,
): Promise<unknown> {
	// Never inside the sockets as well, should the object handed over still carry them.
	const { owners: _inside, ...tracked } = sockets as TrackedTrace;
	return store.put({ traceId, tracked });
}

const ownersKey = (traceId: number): OwnersKey => [traceId, 'owners'];

/**
 * A trace's sockets; without their owners table (getOwners reads it), unless they were stored
 * with it inside, before it was stored apart.
 */
export async function getSockets(db: DB, traceId: number): Promise<TrackedTrace | undefined> {
	const record = await db.get('sockets', traceId);
	return record && 'tracked' in record ? record.tracked : undefined;
}

/**
 * Only the owners table of a trace's sockets (undefined when it has none): read apart from the
 * sockets, unless they were stored before it was (then with them).
 */
export async function getOwners(db: DB, traceId: number): Promise<OwnerLookup | undefined> {
	const owners = await db.get('sockets', ownersKey(traceId));
	if (owners && 'owners' in owners) return unpackOwners(owners.owners);
	const inside = (await getSockets(db, traceId))?.owners;
	return inside && ownerLookup(inside);
}

export async function deleteTrace(db: DB, traceId: number): Promise<void> {
	const tx = db.transaction(['traces', 'chunks', 'columns', 'sockets', 'buffers'], 'readwrite');
	await Promise.all([
		tx.objectStore('sockets').delete(traceId),
		tx.objectStore('sockets').delete(ownersKey(traceId)),
		tx.objectStore('buffers').delete(traceId),
		tx.objectStore('columns').delete(ofTrace(traceId)),
		tx.objectStore('chunks').delete(ofTrace(traceId)),
		tx.objectStore('traces').delete(traceId),
	]);
	await tx.done;
}
