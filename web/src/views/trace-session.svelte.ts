// What the page is showing: nothing yet, a file being read, its facts, or why it could not be read.
// Reads can overlap (a second drop while the first is still decoding); a generation number makes
// the newest request win and drops late answers from older ones.
import type { TraceFacts } from '../decoder/types.ts';
import type { Result } from '../lib/result.ts';

export type SessionState =
	| { readonly kind: 'empty' }
	| { readonly kind: 'reading'; readonly fileName: string }
	| { readonly kind: 'facts'; readonly facts: TraceFacts }
	| { readonly kind: 'error'; readonly fileName: string; readonly message: string };

/** The part of the worker's Comlink proxy the page uses (`Remote<DecoderApi>` fits). */
export interface FactsReader {
	readFacts(file: File): Promise<Result<TraceFacts>>;
}

/** A started decoder worker and its Comlink proxy; created lazily, recreated after a crash. */
export interface DecoderHandle {
	readonly api: FactsReader;
	readonly worker: Worker;
}

/** Where the sample trace lives, relative to the page (public/sample.etl in the repository). */
const SAMPLE_URL = 'sample.etl';

export class TraceSession {
	// Raw: worker results are plain data; a deep $state proxy could not be cloned back by Comlink.
	state = $state.raw<SessionState>({ kind: 'empty' });

	#generation = 0;
	#decoder: DecoderHandle | null = null;
	readonly #startDecoder: () => DecoderHandle;

	constructor(startDecoder: () => DecoderHandle) {
		this.#startDecoder = startDecoder;
	}

	get busy(): boolean {
		return this.state.kind === 'reading';
	}

	/** Reads the header facts of a picked or dropped file; the File handle goes to the worker. */
	async open(file: File): Promise<void> {
		const generation = this.#begin(file.name);
		await this.#read(file, generation);
	}

	/** Fetches the bundled sample trace from the same origin and opens it like a picked file. */
	async openSample(): Promise<void> {
		const generation = this.#begin(SAMPLE_URL);
		let file: File;
		try {
			const response = await fetch(SAMPLE_URL);
			if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
			file = new File([await response.blob()], 'sample.etl', { type: 'application/octet-stream' });
		} catch (err) {
			this.#settle(generation, {
				kind: 'error',
				fileName: 'sample.etl',
				message: `the sample trace could not be loaded: ${describe(err)}`,
			});
			return;
		}
		await this.#read(file, generation);
	}

	/** Stops the worker, e.g. when the page goes away. */
	dispose(): void {
		this.#decoder?.worker.terminate();
		this.#decoder = null;
	}

	#begin(fileName: string): number {
		this.state = { kind: 'reading', fileName };
		return ++this.#generation;
	}

	async #read(file: File, generation: number): Promise<void> {
		let result: Result<TraceFacts>;
		try {
			result = await this.#connect().api.readFacts(file);
		} catch (err) {
			// Expected failures arrive as Result values; a throw means the decoder itself broke.
			console.error('decoder worker failed', err);
			result = { ok: false, error: `the decoder failed: ${describe(err)}` };
		}
		this.#settle(
			generation,
			result.ok
				? { kind: 'facts', facts: result.value }
				: { kind: 'error', fileName: file.name, message: result.error },
		);
	}

	#settle(generation: number, state: SessionState): void {
		if (generation === this.#generation) this.state = state;
	}

	#connect(): DecoderHandle {
		if (this.#decoder) return this.#decoder;
		const decoder = this.#startDecoder();
		// A worker that fails to load or throws at top level never answers Comlink calls: report it
		// instead of spinning forever, and start a fresh worker for the next file.
		const crashed = (event: Event) => {
			const detail = event instanceof ErrorEvent && event.message ? `: ${event.message}` : '';
			console.error(`decoder worker stopped${detail}`);
			if (this.#decoder === decoder) this.dispose();
			if (this.state.kind === 'reading') {
				this.#settle(this.#generation, {
					kind: 'error',
					fileName: this.state.fileName,
					message: `the decoder stopped unexpectedly${detail}`,
				});
			}
		};
		decoder.worker.addEventListener('error', crashed);
		decoder.worker.addEventListener('messageerror', crashed);
		this.#decoder = decoder;
		return decoder;
	}
}

function describe(err: unknown): string {
	return err instanceof Error ? err.message : String(err);
}
