// How an import follows the sockets: beside the chunk builder in the same thread (the CLI, tests,
// a browser that cannot start the worker), or on a core of its own (the sockets worker,
// follow-replay.ts). Either way the tracker sees every record once, in time order, decoded once:
// the link sends the worker a copy of each slice as it is decoded and the order in which the
// merge hands out their records.
import type { DecodedBuffer } from '../decoder/decoded-buffer.ts';
import type { OpenTrace } from '../decoder/etl-file.ts';
import type { TraceTables } from '../ingest/trace-tables.ts';
import type { Followed, FromFollower, SocketsHome, ToFollower } from './follow-messages.ts';
import { freeBufferNow } from '../lib/free-memory.ts';
import { addNames, importTracker, type NewNames } from './import-tracker.ts';
import { SlicePool } from './slice-pool.ts';
import { packSlice, wireBytes, type WireSlice } from './slice-wire.ts';

export interface SocketFollower {
	/** Every slice the merge decodes, before its records are handed out. */
	slice(b: DecodedBuffer): void;
	/** Every record in time order, as IngestOptions.observe. */
	observe(b: DecodedBuffer, i: number, row: number): void;
	/** At the decoding's checkpoints: holds it back while the following lags too far. */
	checkpoint(): Promise<void>;
	/** Settles once every record handed out has been followed (its names learned). */
	caughtUp(): Promise<void>;
	/** For IngestOptions.beforeCommit: adds the process and host names learned so far. */
	learnNames(tables: TraceTables): void;
	/**
	 * The sockets once every record has been followed. A worker stores them itself in `home`
	 * (they are not copied back, then copied again into storage); in this thread they are handed
	 * back for the caller to store.
	 */
	finish(home: SocketsHome): Promise<Followed>;
	/** Stops following (the import stopped, or starts over). */
	stop(): void;
}

/** The link's two-way channel to the sockets worker. */
export interface FollowChannel {
	post(m: ToFollower, transfer: Transferable[]): void;
	/** `onError`: the worker failed without saying why in a message. */
	listen(onMessage: (m: FromFollower) => void, onError: (message: string) => void): void;
	/** Ends the worker and lets go of the channel. */
	close(): void;
	/**
	 * Starts the worker now if its start was put off (until the first rows are stored): called
	 * before the link waits on it, since those rows may wait on the link.
	 */
	wake?(): void;
}

/** Following in this thread. */
export function localFollower(trace: OpenTrace): SocketFollower {
	const t = importTracker(trace);
	return {
		slice: () => {},
		observe: t.observe,
		checkpoint: () => Promise.resolve(),
		caughtUp: () => Promise.resolve(),
		learnNames: t.learnNames,
		finish: () => {
			const { owners = null, ...sockets } = t.finish();
			return Promise.resolve({ owners, sockets, listed: true });
		},
		stop: () => {},
	};
}

/** How far the link lets the decoding run ahead of the worker, and how much it sends at once. */
export interface FollowLimits {
	/**
	 * Records handed out but not yet followed, at most, before the decoding waits (about 13 MB of
	 * slices at 400 bytes a record): enough that neither side waits for the other in the steady
	 * state (at 128 K records, 50 MB, a 300 MB import was no faster, and its peak memory 20-100 MB
	 * higher). Counted in records, not slices: the merge's current slices (one per CPU) are sent
	 * but not all followed, and must not hold the decoding back.
	 */
	readonly lagRows: number;
	/**
	 * Records and slice bytes gathered before they are sent (each message costs the decoding tens
	 * of microseconds, the worker a report).
	 */
	readonly sendRows: number;
	readonly sendBytes: number;
	/** Names are asked for with the records about as often as chunks are committed. */
	readonly namesRows: number;
}

const DEFAULT_LIMITS: FollowLimits = {
	lagRows: 1 << 15,
	sendRows: 1 << 13,
	sendBytes: 8 << 20,
	namesRows: 1 << 16,
};
/**
 * Spare slice memory kept at most, in bytes (given back by the worker): above what the slices in
 * flight take (bounded by lagRows: about 13 MB of a Winsock trace's slices), so that what comes
 * back serves again rather than being made anew.
 */
const SPARE_BYTES = 96 << 20;
const RUN_WORDS = 3;

export class FollowLink implements SocketFollower {
	readonly #channel: FollowChannel;
	readonly #guidsOf: (from: number) => string[];
	readonly #ids = new WeakMap<DecodedBuffer, number>();
	#nextId = 0;
	#slices: WireSlice[] = [];
	#transfer: ArrayBuffer[] = [];
	/** Runs of records (slice id, first record, count) since the last message. */
	#runs = new Uint32Array(RUN_WORDS * 4096);
	#runWords = 0;
	#last: DecodedBuffer | null = null;
	#lastId = 0;
	#nextIndex = 0;
	#guidsTold = 0;
	#sentRows = 0;
	#followedRows = 0;
	/** Rows and slice bytes gathered since the last message. */
	#rows = 0;
	#bytes = 0;
	#namesAskedAt = 0;
	readonly #spare = new SlicePool(SPARE_BYTES);
	#finishing = false;
	#names: NewNames[] = [];
	#heard: (() => void)[] = [];
	#failure: Error | null = null;
	#result: Promise<Followed>;
	#settle!: { resolve: (t: Followed) => void; reject: (e: Error) => void };

	readonly #limits: FollowLimits;

	/**
	 * `guidsOf(from)`: the decoder's provider GUIDs from index `from` (WasmDecoder.providers).
	 * `limits`: smaller than the defaults in tests, to exercise many messages.
	 */
	constructor(
		channel: FollowChannel,
		origin: string,
		guidsOf: (from: number) => string[],
		limits: FollowLimits = DEFAULT_LIMITS,
	) {
		this.#channel = channel;
		this.#guidsOf = guidsOf;
		this.#limits = limits;
		this.#result = new Promise((resolve, reject) => (this.#settle = { resolve, reject }));
		// Awaited by finish; until then a failure must not count as unhandled.
		this.#result.catch(() => {});
		channel.listen(
			(m) => this.#hear(m),
			// i18n: data (the import's failure says it)
			(message) => this.#fail(new Error(`following the sockets stopped: ${message}`)),
		);
		channel.post({ kind: 'start', origin }, []);
	}

	slice(b: DecodedBuffer): void {
		const id = this.#nextId++;
		this.#ids.set(b, id);
		const w = packSlice(id, b, this.#spare.take(wireBytes(b)));
		this.#slices.push(w);
		this.#transfer.push(w.memory);
		this.#bytes += w.memory.byteLength;
	}

	observe(b: DecodedBuffer, i: number): void {
		if (b === this.#last && i === this.#nextIndex && this.#runWords > 0) {
			this.#runs[this.#runWords - 1]!++;
			this.#nextIndex++;
			return;
		}
		this.#startRun(b, i);
	}

	async checkpoint(): Promise<void> {
		const { sendRows, sendBytes } = this.#limits;
		if (this.#rows + this.#pendingRows() >= sendRows || this.#bytes >= sendBytes) this.#send(false);
		while (!this.#failure && this.#sentRows - this.#followedRows > this.#limits.lagRows)
			await this.#hearNext();
		if (this.#failure) throw this.#failure;
	}

	async caughtUp(): Promise<void> {
		this.#send(true);
		while (!this.#failure && this.#followedRows < this.#sentRows) await this.#hearNext();
		if (this.#failure) throw this.#failure;
	}

	learnNames(tables: TraceTables): void {
		for (const names of this.#names.splice(0)) addNames(tables, names);
	}

	async finish(home: SocketsHome): Promise<Followed> {
		this.#send(true);
		// Nothing more is sent: the spares can go (freed at once, as the import's end holds the
		// most memory), and those the worker gives back from now on.
		this.#spare.clear();
		this.#finishing = true;
		if (!this.#failure) this.#channel.post({ kind: 'finish', home }, []);
		this.#channel.wake?.();
		return this.#result;
	}

	stop(): void {
		// i18n: data (never shown: the import has stopped already)
		this.#fail(new Error('following the sockets stopped'));
	}

	#startRun(b: DecodedBuffer, i: number): void {
		let id = b === this.#last ? this.#lastId : this.#ids.get(b);
		if (id === undefined) {
			// A slice not seen as decoded (never, as the merge goes): sent now, before its records.
			this.slice(b);
			id = this.#nextId - 1;
		}
		this.#rows += this.#pendingRows();
		if (this.#runWords + RUN_WORDS > this.#runs.length) {
			const grown = new Uint32Array(this.#runs.length * 2);
			grown.set(this.#runs);
			this.#runs = grown;
		}
		const runs = this.#runs;
		runs[this.#runWords++] = id;
		runs[this.#runWords++] = i;
		runs[this.#runWords++] = 1;
		this.#last = b;
		this.#lastId = id;
		this.#nextIndex = i + 1;
	}

	/** The records of the current run (its count is only added up when it ends). */
	#pendingRows(): number {
		return this.#runWords > 0 ? this.#runs[this.#runWords - 1]! : 0;
	}

	/** Sends what was gathered; `names`: the worker then tells every name it learned. */
	#send(names: boolean): void {
		if (this.#failure || (this.#slices.length === 0 && this.#runWords === 0)) return;
		const runs = this.#runs.slice(0, this.#runWords);
		this.#sentRows += this.#rows + this.#pendingRows();
		if (this.#sentRows - this.#namesAskedAt >= this.#limits.namesRows) names = true;
		if (names) this.#namesAskedAt = this.#sentRows;
		const guids = this.#guidsOf(this.#guidsTold);
		this.#guidsTold += guids.length;
		const m: ToFollower = { kind: 'records', slices: this.#slices, runs, guids, names };
		this.#channel.post(m, [...this.#transfer, runs.buffer]);
		this.#slices = [];
		this.#transfer = [];
		this.#runWords = 0;
		this.#rows = 0;
		this.#bytes = 0;
	}

	#hear(m: FromFollower): void {
		if (m.kind === 'progress') {
			this.#followedRows = m.rows;
			for (const s of m.spare)
				if (this.#finishing) freeBufferNow(s);
				else this.#spare.give(s);
			if (m.processNames.length > 0 || m.hostNames.length > 0) this.#names.push(m);
		} else if (m.kind === 'done') {
			this.#settle.resolve(m.result);
			this.#channel.close();
		} else this.#fail(new Error(m.message));
		for (const wake of this.#heard.splice(0)) wake();
	}

	#hearNext(): Promise<void> {
		this.#channel.wake?.();
		return new Promise((resolve) => this.#heard.push(resolve));
	}

	#fail(e: Error): void {
		if (this.#failure) return;
		this.#failure = e;
		this.#channel.close();
		this.#settle.reject(e);
		for (const wake of this.#heard.splice(0)) wake();
	}
}
