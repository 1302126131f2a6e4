// Decoding a whole trace into column chunks, in time order, handing each full chunk to a sink
// (IndexedDB in the browser, a filter in the CLI). Pure: no DOM, no storage.
import type { DecodedBuffer } from '../decoder/decoded-buffer.ts';
import { BufferFeed } from '../decoder/buffer-feed.ts';
import { indexBuffers, type BufferIndex, type OpenTrace } from '../decoder/etl-file.ts';
import { mergeFound, mergeRecords, OutOfOrder } from '../decoder/merge.ts';
import { TraceChecks } from '../decoder/trace-checks.ts';
import { ProviderTable } from '../decoder/record-json.ts';
import { chunkStartingAt, type Chunk, type EventType } from '../columns/layout.ts';
import { ChunkBuilder, newBuilderCaches, type BuilderCaches } from './chunk-builder.ts';
import { TraceTables } from './trace-tables.ts';
import type { ColumnPool } from '../columns/column-pool.ts';
import type { Message } from '../lib/message.ts';

export interface ChunkAdditions {
	readonly strings: string[];
	readonly eventTypes: EventType[];
	readonly processes: [string, number][];
	readonly processNames: [number, string][];
	readonly hostNames?: [string, string[]][];
}

export interface IngestProgress {
	readonly bytesDone: number;
	readonly bytesTotal: number;
	readonly records: number;
	readonly chunks: number;
}

export interface IngestDamage {
	readonly offset: number;
	readonly message: string;
	/** The same as a message, for the page to say in the reader's language (decoder/messages.ts). */
	readonly text?: Message;
}

export interface IngestResult {
	readonly records: number;
	readonly chunks: number;
	readonly buffers: number;
	readonly damage: IngestDamage[];
}

export interface IngestOptions {
	/** Rows already stored by an earlier, interrupted import: decoded again but not emitted. */
	readonly skipRows?: number;
	/** Tables as the stored chunks left them (for a resumed import). */
	readonly tables?: TraceTables;
	readonly onProgress?: (p: IngestProgress) => void;
	/** Asked between buffers; true stops the import (cancel). */
	readonly shouldStop?: () => boolean;
	readonly index?: BufferIndex;
	/**
	 * Buffers as an index pass finds them (instead of `index`): the first chunks are stored before
	 * the pass ends. Should the file turn out to hold a CPU found late with earlier records,
	 * `restart` is called once (it drops what was committed and gives empty tables) and the whole
	 * trace is merged again from the complete index.
	 */
	readonly found?: { readonly feed: BufferFeed; readonly restart: () => Promise<TraceTables> };
	/** Sees every record in time order, skipped ones included (socket reconstruction). */
	readonly observe?: (b: DecodedBuffer, i: number, index: number) => void;
	/**
	 * An observer on another core (sockets/follow-link.ts): shown every slice as it is decoded,
	 * before its records; asked at each checkpoint (it holds the decoding back while it lags too
	 * far); caught up with before the last chunks are committed, so that they carry every name it
	 * learned.
	 */
	readonly follower?: {
		slice(b: DecodedBuffer): void;
		checkpoint(): Promise<void>;
		caughtUp(): Promise<void>;
	};
	/**
	 * Names learned after the last chunk was committed (the follower's last ones, when no rows
	 * were left to commit): for the caller to store with that chunk.
	 */
	readonly lateAdditions?: (additions: ChunkAdditions) => Promise<void>;
	/** Called before each chunk's additions are taken (to add names learned meanwhile). */
	readonly beforeCommit?: (tables: TraceTables) => void;
	/**
	 * Asked between buffers: true lets other work in at once rather than at the end of the time
	 * slice (a request of the page waiting in the same worker, which needs a few turns).
	 */
	readonly othersWaiting?: () => boolean;
	/**
	 * Asked when the decoding ends, stops or starts over and waits for its writes: a sink that
	 * holds chunks back, to write several at once, writes them now.
	 */
	readonly drain?: () => void;
	/**
	 * Where chunk builders take their columns: a committed chunk's columns are the caller's, who
	 * may give them back there once nothing reads them.
	 */
	readonly columns?: ColumnPool;
}

/** How long the decode may run before it lets other work in (messages, queries, cancel). */
const SLICE_MS = 40;
/**
 * Chunks being written (or held to be written with others) while the next ones are decoded.
 * Writes finish in the order they were started (IndexedDB runs overlapping transactions in
 * order), so counts still only grow with whole, stored chunks.
 */
export const WRITES_IN_FLIGHT = 8;

const yielded: (() => void)[] = [];
let yieldChannel: MessageChannel | null = null;

/**
 * Yields to the event loop (a task, not a microtask, so queued messages and storage callbacks
 * get handled): through a message channel in a browser, which a timer's 4 ms clamp would slow
 * when yields are frequent; setImmediate in Node.
 */
function yieldToEventLoop(): Promise<void> {
	if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
	if (!yieldChannel) {
		yieldChannel = new MessageChannel();
		yieldChannel.port1.onmessage = () => yielded.shift()?.();
	}
	const channel = yieldChannel;
	return new Promise((resolve) => {
		yielded.push(resolve);
		channel.port2.postMessage(null);
	});
}

export class IngestStopped extends Error {
	constructor() {
		// i18n: data (the page says failure.cancelled)
		super('import cancelled');
	}
}

export async function ingestTrace(
	trace: OpenTrace,
	commit: (chunk: Chunk, additions: ChunkAdditions) => Promise<void>,
	options: IngestOptions = {},
): Promise<IngestResult> {
	const feed = options.found?.feed ?? BufferFeed.of(options.index ?? (await indexBuffers(trace)));
	const providers = new ProviderTable(trace);
	const start = BigInt(trace.facts.startFiletime);
	/** The bytes to decode: the file's until the index says how many its buffers hold. */
	let indexedBytes: number | null = null;
	const bytesTotal = () =>
		feed.index
			? (indexedBytes ??= feed.index.buffers.reduce((n, b) => n + b.available, 0))
			: trace.source.size;
	let tables!: TraceTables;
	let skip = 0;
	let checks!: TraceChecks;
	let chunkIndex = 0;
	let caches!: BuilderCaches;
	let builder!: ChunkBuilder;
	let row = 0;
	let bytesDone = 0;
	let pending: Chunk[] = [];
	/** (Re)starts the decoding: with these tables, `skipRows` rows being stored already. */
	const begin = (t: TraceTables, skipRows: number) => {
		tables = t;
		skip = skipRows;
		checks = new TraceChecks(trace);
		chunkIndex = chunkStartingAt(skip);
		caches = newBuilderCaches(options.columns);
		builder = new ChunkBuilder(chunkIndex, tables, start, providers, caches);
		row = 0;
		bytesDone = 0;
		pending = [];
	};
	begin(options.tables ?? new TraceTables(), options.skipRows ?? 0);
	const observe = options.observe;
	// A full chunk asks for a checkpoint at once: it is committed there (the first rows shown
	// sooner, by tens of milliseconds of decoding).
	const onRecord = (b: DecodedBuffer, i: number): boolean => {
		if (observe) observe(b, i, row);
		if (row++ < skip) return false;
		builder.add(b, i);
		if (!builder.full) return false;
		pending.push(builder.finish());
		builder = new ChunkBuilder(++chunkIndex, tables, start, providers, caches);
		return true;
	};
	const onBuffer = (b: DecodedBuffer) => {
		bytesDone += b.entry.available;
		checks.buffer(b);
	};
	const follower = options.follower;
	const onSlice = (b: DecodedBuffer) => {
		checks.slice(b);
		follower?.slice(b);
	};
	// Records arrive synchronously; full chunks are committed at the next checkpoint, before the
	// merge decodes another buffer. A few writes run beside the decoding; waiting for the oldest
	// keeps memory bounded and surfaces a failed write (storage full) promptly.
	let sliceStart = Date.now();
	const writing: Promise<void>[] = [];
	let commits = 0;
	const flush = async () => {
		if (follower) await follower.checkpoint();
		for (let chunk = pending.shift(); chunk; chunk = pending.shift()) {
			commits++;
			options.beforeCommit?.(tables);
			const write = commit(chunk, tables.takeAdditions());
			// Awaited below, in order; until then a failure must not count as unhandled.
			write.catch(() => {});
			writing.push(write);
			while (writing.length >= WRITES_IN_FLIGHT) await writing.shift();
		}
		if (Date.now() - sliceStart > SLICE_MS || options.othersWaiting?.()) {
			await yieldToEventLoop();
			sliceStart = Date.now();
		}
		options.onProgress?.({
			bytesDone,
			bytesTotal: bytesTotal(),
			records: Math.max(0, row - skip),
			chunks: chunkIndex,
		});
		if (options.shouldStop?.()) throw new IngestStopped();
	};
	try {
		try {
			await mergeFound(trace, feed, onRecord, onBuffer, flush, onSlice);
		} catch (e) {
			if (!(e instanceof OutOfOrder) || !options.found) throw e;
			// What was handed out so far is not the trace's order: all of it again, from the whole index.
			feed.release();
			options.drain?.();
			await Promise.allSettled(writing.splice(0));
			const index = await feed.complete;
			begin(await options.found.restart(), 0);
			await mergeRecords(trace, index.buffers, onRecord, onBuffer, flush, onSlice);
		}
		if (follower) await follower.caughtUp();
		const committed = commits;
		await flush();
		if (builder.rows > 0) {
			options.beforeCommit?.(tables);
			writing.push(commit(builder.finish(), tables.takeAdditions()));
		} else if (follower && commits === committed && options.lateAdditions) {
			options.beforeCommit?.(tables);
			const late = tables.takeAdditions();
			if (late.processNames.length > 0 || (late.hostNames?.length ?? 0) > 0)
				// After the writes before it: the last chunk is stored by then.
				writing.push(Promise.allSettled(writing).then(() => options.lateAdditions!(late)));
		}
		options.drain?.();
		for (let w = writing.shift(); w; w = writing.shift()) await w;
	} finally {
		// Stopped or failed: let the writes already started settle before the caller records it.
		options.drain?.();
		await Promise.allSettled(writing);
	}
	const index = await feed.complete;
	checks.finish(index);
	const total = bytesTotal();
	options.onProgress?.({
		bytesDone: total,
		bytesTotal: total,
		records: row - skip,
		chunks: chunkIndex + (builder.rows > 0 ? 1 : 0),
	});
	return {
		records: row,
		chunks: chunkIndex + (builder.rows > 0 ? 1 : 0),
		buffers: index.buffers.length,
		damage: checks.entries,
	};
}
