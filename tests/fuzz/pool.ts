// The in-process workers and their watchdog: one worker thread per core, each with a V8 heap
// limit, sent one input at a time. An input that runs past KILL_AFTER_MS ends its thread
// (terminate stops JavaScript and WASM alike); a thread that runs out of heap or dies otherwise
// is reported for the input it held. Either way a fresh thread takes its place.
import { Worker } from 'node:worker_threads';
import type { ThreadData, ThreadReply, ThreadRequest } from './thread.ts';

/** Per input, generous: a hang, not a slow or shared machine. */
export const KILL_AFTER_MS = 20_000;
export const HEAP_LIMIT_MB = 256;

export type PoolResult =
	| { readonly ok: true; readonly reply: ThreadReply }
	| {
			readonly ok: false;
			readonly outcome: 'timeout' | 'memory' | 'crash';
			readonly detail: string;
	  };

class Slot {
	#worker: Worker | null = null;
	#ready: Promise<void> | null = null;
	#pending: ((r: PoolResult) => void) | null = null;
	readonly #data: ThreadData;
	readonly #killAfterMs: number;
	restarts = 0;

	constructor(data: ThreadData, killAfterMs: number) {
		this.#data = data;
		this.#killAfterMs = killAfterMs;
	}

	#start(): Promise<void> {
		const worker = new Worker(new URL('./thread-entry.mjs', import.meta.url), {
			workerData: this.#data,
			resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB },
			stderr: false,
		});
		this.#worker = worker;
		this.#ready = new Promise((resolve, reject) => {
			worker.once('message', () => {
				worker.on('message', (m: ThreadReply) => this.#settle({ ok: true, reply: m }));
				resolve();
			});
			worker.once('error', reject);
		});
		worker.on('error', (e: Error & { code?: string }) => {
			if (this.#worker !== worker) return;
			this.#worker = null;
			const memory = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
			this.#settle({
				ok: false,
				outcome: memory ? 'memory' : 'crash',
				detail: memory
					? `the thread ran out of its ${HEAP_LIMIT_MB} MB heap`
					: (e.stack ?? String(e)),
			});
		});
		worker.on('exit', (code) => {
			if (this.#worker !== worker) return;
			this.#worker = null;
			this.#settle({ ok: false, outcome: 'crash', detail: `the thread exited with code ${code}` });
		});
		return this.#ready;
	}

	#settle(r: PoolResult): void {
		const p = this.#pending;
		this.#pending = null;
		p?.(r);
	}

	async run(
		id: number,
		bytes: Uint8Array,
		neighbour: Uint8Array | null = null,
	): Promise<PoolResult> {
		try {
			if (!this.#worker) {
				this.restarts++;
				await this.#start();
			}
			await this.#ready;
		} catch (e) {
			this.#worker = null;
			return { ok: false, outcome: 'crash', detail: `the thread did not start: ${String(e)}` };
		}
		const worker = this.#worker;
		if (!worker) return { ok: false, outcome: 'crash', detail: 'the thread ended as it started' };
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.#pending = null;
				this.#worker = null;
				void worker.terminate();
				resolve({ ok: false, outcome: 'timeout', detail: `killed after ${this.#killAfterMs} ms` });
			}, this.#killAfterMs);
			this.#pending = (r) => {
				clearTimeout(timer);
				resolve(r);
			};
			worker.postMessage({ id, bytes, neighbour } satisfies ThreadRequest);
		});
	}

	async stop(): Promise<void> {
		const w = this.#worker;
		this.#worker = null;
		await w?.terminate();
	}
}

export class Pool {
	readonly slots: Slot[];
	constructor(size: number, data: ThreadData, killAfterMs = KILL_AFTER_MS) {
		this.slots = Array.from({ length: size }, () => new Slot(data, killAfterMs));
	}
	get restarts(): number {
		return this.slots.reduce((n, s) => n + Math.max(0, s.restarts - 1), 0);
	}
	async stop(): Promise<void> {
		await Promise.all(this.slots.map((s) => s.stop()));
	}
}
