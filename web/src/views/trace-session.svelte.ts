// What the page is showing: nothing yet, a file being imported, a trace from the library, or why
// a file could not be read. The decoder worker owns the library (IndexedDB); this class keeps
// the page's view of it. Opens can overlap (a second drop while the first is still importing);
// a generation number makes the newest request win and drops late answers from older ones.
import { proxy, type Remote } from 'comlink';
import type { TraceFacts } from '../decoder/types.ts';
import { english, failureText, msg, type Text } from '../i18n/render.ts';
import type { FailureCode, Result } from '../lib/result.ts';
import type { DecoderApi, ImportProgress, TraceSummary } from '../worker/api.ts';
import { MARK_OPEN } from './marks.ts';

export type SessionState =
	| { readonly kind: 'empty' }
	| { readonly kind: 'reading'; readonly fileName: string }
	| {
			readonly kind: 'trace';
			readonly trace: TraceSummary;
			readonly facts: TraceFacts;
			/** Set while this trace is being imported. */
			readonly progress: ImportProgress | null;
	  }
	| {
			readonly kind: 'error';
			readonly fileName: string;
			/** Why, to say in the reader's language (the worker's English text as data when it has no message). */
			readonly message: Text;
			readonly code: FailureCode;
	  };

/** A started decoder worker and its Comlink proxy; recreated after a crash. */
export interface DecoderHandle {
	readonly api: Remote<DecoderApi> | DecoderApi;
	readonly worker: Worker;
	/**
	 * Settles with the worker's first error or undeliverable message: listened to from its start,
	 * so that a worker that failed before the session first used it is not kept.
	 */
	readonly stopped: Promise<Event>;
}

/** Where the sample trace lives, relative to the page (public/sample.etl in the repository). */
const SAMPLE_URL = 'sample.etl';

export class TraceSession {
	// Raw: worker results are plain data; a deep $state proxy could not be cloned back by Comlink.
	state = $state.raw<SessionState>({ kind: 'empty' });
	/** The trace library, newest first. */
	library = $state.raw<readonly TraceSummary[]>([]);
	/** Progress of the import running now, whichever trace is shown. */
	importing = $state.raw<ImportProgress | null>(null);

	#generation = 0;
	#decoder: DecoderHandle | null = null;
	readonly #startDecoder: () => DecoderHandle;

	constructor(startDecoder: () => DecoderHandle) {
		this.#startDecoder = startDecoder;
	}

	get busy(): boolean {
		return this.state.kind === 'reading';
	}

	/** Whether a file is being read or imported now. */
	running(): boolean {
		return this.busy || this.importing !== null;
	}

	/** Settles once no file is being read or imported (at once when none is). */
	settled(): Promise<void> {
		if (!this.running()) return Promise.resolve();
		return new Promise((resolve) => {
			const stop = $effect.root(() => {
				$effect(() => {
					if (this.running()) return;
					resolve();
					// Not from inside the effect's own run.
					queueMicrotask(stop);
				});
			});
		});
	}

	/** The worker's API, starting the worker on first use. */
	get api(): Remote<DecoderApi> | DecoderApi {
		return this.#connect().api;
	}

	async refreshLibrary(): Promise<void> {
		try {
			const r = await this.api.listTraces();
			if (r.ok) this.library = r.value;
			else console.error(r.error);
		} catch (err) {
			console.error('cannot list the trace library', err);
		}
	}

	/**
	 * The library's complete trace of the same content as `file` (by fingerprint), or null. Only
	 * traces of the same size are candidates: most files need no read at all.
	 */
	async duplicateOf(file: File): Promise<TraceSummary | null> {
		const same = this.library.filter(
			(t) => t.size === file.size && t.status === 'complete' && !t.active && !t.interrupted,
		);
		if (same.length === 0) return null;
		const print = await this.api.fingerprintOf(file);
		if (!print.ok) return null;
		return same.find((t) => t.fingerprint === print.value) ?? null;
	}

	/** Imports a picked or dropped file into the library and shows it; the File goes to the worker. */
	async open(file: File): Promise<void> {
		const generation = this.#begin(file.name);
		await this.#import(generation, file.name, (onProgress) =>
			this.api.importFile(file, onProgress),
		);
	}

	/** Continues an interrupted import with the same file. */
	async resume(id: number, file: File): Promise<void> {
		const generation = this.#begin(file.name);
		await this.#import(generation, file.name, (onProgress) =>
			this.api.resumeImport(id, file, onProgress),
		);
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
				message: msg('failure.sample', { detail: describe(err) }),
				code: 'io',
			});
			return;
		}
		await this.#import(generation, file.name, (onProgress) =>
			this.api.importFile(file, onProgress),
		);
	}

	/** Shows a trace of the library. */
	async openStored(id: number): Promise<void> {
		const known = this.library.find((t) => t.id === id);
		const generation = this.#begin(known?.name ?? `trace ${id}`);
		const opened = await this.api.openTrace(id);
		if (!opened.ok) {
			this.#settle(generation, {
				kind: 'error',
				fileName: known?.name ?? '',
				message: failureText(opened),
				code: opened.code,
			});
			return;
		}
		const trace = opened.value.trace;
		this.#settle(generation, {
			kind: 'trace',
			trace,
			facts: trace.facts,
			progress: this.importing?.traceId === id ? this.importing : null,
		});
	}

	async cancelImport(): Promise<void> {
		const p = this.importing;
		if (p) await this.api.cancelImport(p.traceId);
	}

	async rename(id: number, name: string): Promise<Result<TraceSummary>> {
		const r = await this.api.renameTrace(id, name);
		if (r.ok && this.state.kind === 'trace' && this.state.trace.id === id)
			this.state = { ...this.state, trace: r.value };
		await this.refreshLibrary();
		return r;
	}

	async remove(id: number): Promise<void> {
		await this.api.deleteTrace(id);
		if (this.state.kind === 'trace' && this.state.trace.id === id) this.state = { kind: 'empty' };
		await this.refreshLibrary();
	}

	/** Back to the start page (the library). */
	home(): void {
		++this.#generation;
		this.state = { kind: 'empty' };
		void this.refreshLibrary();
	}

	/** Stops the worker, e.g. when the page goes away. */
	dispose(): void {
		this.#decoder?.worker.terminate();
		this.#decoder = null;
	}

	#begin(fileName: string): number {
		performance.mark(MARK_OPEN, { detail: fileName });
		this.state = { kind: 'reading', fileName };
		return ++this.#generation;
	}

	async #import(
		generation: number,
		fileName: string,
		run: (onProgress: (p: ImportProgress) => void) => Promise<Result<TraceSummary>>,
	): Promise<void> {
		// The trace is shown at the import's first report, which carries it: the view is built
		// while the first rows are decoded, and the import goes on behind it. Progress arrives
		// over its own message channel and can land after the import returned.
		let finished = false;
		const onProgress = (p: ImportProgress) => {
			if (finished) return;
			this.importing = p;
			if (generation !== this.#generation) return;
			if (p.trace && this.state.kind === 'reading')
				this.state = { kind: 'trace', trace: p.trace, facts: p.trace.facts, progress: p };
			else if (this.state.kind === 'trace' && this.state.trace.id === p.traceId) {
				// The timeline spans the events stored so far, growing as they come.
				const trace = this.state.trace;
				const grown =
					p.span && (p.span.tMin !== trace.tMin || p.span.tMax !== trace.tMax)
						? { ...trace, tMin: p.span.tMin, tMax: p.span.tMax }
						: trace;
				this.state = { ...this.state, trace: grown, progress: p };
			}
		};
		let result: Result<TraceSummary>;
		try {
			result = await run(proxy(onProgress));
		} catch (err) {
			// Expected failures arrive as Result values; a throw means the decoder itself broke.
			console.error('decoder worker failed', err);
			const message = msg('failure.decoder', { detail: describe(err) });
			result = { ok: false, code: 'internal', error: english(message), message };
		}
		finished = true;
		this.importing = null;
		void this.refreshLibrary();
		// Cancelled: nothing of it was kept, so back to the library.
		if (!result.ok && result.code === 'cancelled')
			return this.#settle(generation, { kind: 'empty' });
		this.#settle(
			generation,
			result.ok
				? { kind: 'trace', trace: result.value, facts: result.value.facts, progress: null }
				: { kind: 'error', fileName, message: failureText(result), code: result.code },
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
					message: detail
						? msg('failure.decoder-stopped-because', { detail: detail.slice(2) })
						: msg('failure.decoder-stopped'),
					code: 'internal',
				});
			}
		};
		void decoder.stopped.then(crashed);
		this.#decoder = decoder;
		return decoder;
	}
}

function describe(err: unknown): string {
	return err instanceof Error ? err.message : String(err);
}
