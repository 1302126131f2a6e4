// The sockets worker's side of following an import (follow-link.ts is the decoder's): the slices
// it is sent, made DecodedBuffers again, and the records of the runs fed to the tracker in the
// order the decoding handed them out, as if it had followed them itself.
import type { DecodedBuffer } from '../decoder/decoded-buffer.ts';
import type { Followed, FromFollower, SocketsHome, ToFollower } from './follow-messages.ts';
import { followRecords, type NewNames } from './import-tracker.ts';
import { unpackSlice } from './slice-wire.ts';
import type { TrackedTrace } from './tracker.ts';

/**
 * Stores an import's sockets where `home` says (in the sockets worker: the decoder worker then
 * never holds them, nor copies them again into storage); false when the trace has left the
 * library.
 */
export type StoreSockets = (
	home: SocketsHome,
	sockets: Omit<TrackedTrace, 'owners'>,
) => Promise<boolean>;

const NO_NAMES: NewNames = { processNames: [], hostNames: [] };

interface Held {
	readonly buffer: DecodedBuffer;
	readonly memory: ArrayBuffer;
	/** Its records not followed yet. */
	left: number;
}

export class FollowReplay {
	readonly #guids: string[] = [];
	readonly #follow: ReturnType<typeof followRecords>;
	readonly #held = new Map<number, Held>();
	#rows = 0;
	#spare: ArrayBuffer[] = [];

	constructor(origin: bigint) {
		this.#follow = followRecords(origin, (p) => (p === 0xffff ? null : (this.#guids[p] ?? null)));
	}

	/** Follows the records of one message. */
	records(m: Extract<ToFollower, { kind: 'records' }>): void {
		this.#guids.push(...m.guids);
		for (const w of m.slices) {
			if (w.count === 0) this.#spare.push(w.memory);
			else this.#held.set(w.id, { buffer: unpackSlice(w), memory: w.memory, left: w.count });
		}
		const runs = m.runs;
		const observe = this.#follow.observe;
		for (let k = 0; k + 2 < runs.length; k += 3) {
			const held = this.#held.get(runs[k]!);
			// i18n: data (a bug: the decoder sends every slice before its records)
			if (!held) throw new Error(`records of slice ${runs[k]} came before the slice`);
			const b = held.buffer;
			const end = runs[k + 1]! + runs[k + 2]!;
			for (let i = runs[k + 1]!; i < end; i++) observe(b, i, this.#rows++);
			held.left -= runs[k + 2]!;
			if (held.left <= 0) {
				this.#held.delete(runs[k]!);
				this.#spare.push(held.memory);
			}
		}
	}

	/** What the decoder is told after a message: how far the following is, and the names asked. */
	progress(names: boolean): Extract<FromFollower, { kind: 'progress' }> {
		const spare = this.#spare;
		this.#spare = [];
		const learned = names ? this.#follow.names.take() : NO_NAMES;
		return { kind: 'progress', rows: this.#rows, spare, ...learned };
	}

	/**
	 * The sockets, stored by `store` when the link names their home: the owners table goes back to
	 * the link either way (the decoder worker packs it against the trace's strings).
	 */
	async finish(home: SocketsHome | null, store?: StoreSockets): Promise<Followed> {
		this.#held.clear();
		const { owners = null, ...sockets } = this.#follow.finish();
		if (!home || !store) return { owners, sockets, listed: true };
		return { owners, sockets: null, listed: await store(home, sockets) };
	}
}

/** Port-like: a MessagePort in the worker, either end of a MessageChannel in tests. */
export interface FollowerPort {
	onmessage: ((e: MessageEvent<ToFollower>) => void) | null;
	postMessage(m: FromFollower, transfer: Transferable[]): void;
}

/**
 * Answers the link's messages on `port`; `end` is called once the answer is final. `store`: how
 * this worker stores the sockets when the link names their home (absent: they go back).
 */
export function serveFollower(port: FollowerPort, end: () => void, store?: StoreSockets): void {
	let replay: FollowReplay | null = null;
	const post = (m: FromFollower, transfer: Transferable[] = []) => port.postMessage(m, transfer);
	const fail = (err: unknown) => {
		post({ kind: 'error', message: err instanceof Error ? err.message : String(err) });
		end();
	};
	port.onmessage = (e) => {
		const m = e.data;
		try {
			// i18n: data (a bug in the link)
			if (m.kind === 'start') replay = new FollowReplay(BigInt(m.origin));
			else if (!replay) throw new Error(`${m.kind} before start`);
			else if (m.kind === 'records') {
				replay.records(m);
				const progress = replay.progress(m.names);
				post(progress, progress.spare);
			} else
				replay.finish(m.home, store).then((result) => {
					post({ kind: 'done', result });
					end();
				}, fail);
		} catch (err) {
			fail(err);
		}
	};
}
