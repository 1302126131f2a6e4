// The trace library as a list: the database handle, the traces in it and which of them this worker
// is importing now, renaming and deleting them, and sweeping copies of files left without their
// trace. Opened traces and imports keep their own state (open-traces.ts, import-run.ts).
import type { IDBPDatabase } from 'idb';
import { msg } from '../i18n/render.ts';
import { ok, type Result } from '../lib/result.ts';
import { failWith } from './guard.ts';
import { openStore, type SockscopeDB, type TraceRecord } from '../store/db.ts';
import { deleteTrace, getTrace, listTraces, updateTrace } from '../store/trace-store.ts';
import { removeOrphans, removeTraceFile, traceFile } from '../store/trace-files.ts';
import type { TraceSummary } from './api.ts';

export type LibraryDB = IDBPDatabase<SockscopeDB>;

/** Where the library's copies of trace files live (the origin private file system, by default). */
export interface TraceFiles {
	/** The copy of trace `id`, or null when there is none. */
	file(id: number): Promise<File | null>;
	/** Removes the copy of trace `id` (quietly, when it cannot). */
	remove(id: number): Promise<void>;
	/** Removes copies whose trace is not among `known`. */
	removeOrphans(known: ReadonlySet<number>): Promise<void>;
}

export const browserTraceFiles: TraceFiles = {
	file: traceFile,
	remove: removeTraceFile,
	removeOrphans,
};

/** An import under way in this worker, as the catalogue sees it. */
export interface ActiveImport {
	cancel(): void;
	/** Settles once the import has ended and has removed what it would not keep. */
	readonly ended: Promise<unknown>;
}

/**
 * Tries to remove a copy still held by a worker being stopped, for about 15 s, then leaves it to
 * the next sweep. The page stops that worker when asked (side-workers.ts), so the lock goes only
 * once the page's thread gets to it: over a second under load (a CI run kept the copy after five
 * tries in one second).
 */
const COPY_REMOVE_TRIES = 20;
const COPY_REMOVE_PAUSE_MS = 100;
const COPY_REMOVE_PAUSE_MAX_MS = 1_000;

export class Catalog {
	#db: Promise<LibraryDB> | null = null;
	readonly #openDb: () => Promise<LibraryDB>;
	readonly #active = new Map<number, ActiveImport>();
	#swept = false;
	readonly files: TraceFiles;
	/** Called when a trace leaves the library or changes under an opened view of it. */
	readonly #changed: ((id: number, record: TraceRecord | null) => void)[] = [];

	constructor(openDb: () => Promise<LibraryDB> = () => openStore(), files = browserTraceFiles) {
		this.#openDb = openDb;
		this.files = files;
	}

	db(): Promise<LibraryDB> {
		this.#db ??= this.#openDb();
		return this.#db;
	}

	/** `f` hears of every rename (with the new record) and removal (null) of a trace. */
	onChange(f: (id: number, record: TraceRecord | null) => void): void {
		this.#changed.push(f);
	}

	importing(id: number): boolean {
		return this.#active.has(id);
	}

	/** Marks trace `id` as being imported by `run` until `run.ended` settles. */
	begin(id: number, run: ActiveImport): void {
		this.#active.set(id, run);
		void run.ended.finally(() => {
			if (this.#active.get(id) === run) this.#active.delete(id);
		});
	}

	/** Ends the mark of `begin` early (the run has stored its last word). */
	end(id: number, run: ActiveImport): void {
		if (this.#active.get(id) === run) this.#active.delete(id);
	}

	summary(t: TraceRecord): TraceSummary {
		const active = this.#active.has(t.id!);
		return { ...t, id: t.id!, active, interrupted: t.status === 'importing' && !active };
	}

	async get(id: number): Promise<TraceRecord | undefined> {
		return getTrace(await this.db(), id);
	}

	async list(): Promise<TraceSummary[]> {
		const all = await listTraces(await this.db());
		// A copy outlives its trace only when a delete could not remove it (a copy still being
		// written, a page closed mid-delete): sweeping once per session is enough.
		if (!this.#swept) {
			this.#swept = true;
			void this.files.removeOrphans(new Set(all.map((t) => t.id!))).catch(() => {});
		}
		return all.map((t) => this.summary(t)).sort((a, b) => b.importedAt - a.importedAt);
	}

	async rename(id: number, name: string): Promise<Result<TraceSummary>> {
		const clean = name.trim();
		if (!clean) return failWith('invalid', msg('failure.no-name'));
		if (!(await this.get(id))) return failWith('not-found', msg('failure.no-trace', { id }));
		const record = await updateTrace(await this.db(), id, { name: clean });
		for (const f of this.#changed) f(id, record);
		return ok(this.summary(record));
	}

	/** Stops the import of trace `id`, if this worker runs one (it then deletes what it stored). */
	cancel(id: number): void {
		this.#active.get(id)?.cancel();
	}

	/** Deletes a trace, stopping its import first (which removes what it stored itself). */
	async remove(id: number): Promise<Result<void>> {
		const run = this.#active.get(id);
		if (run) {
			run.cancel();
			await run.ended.catch(() => {});
		}
		await this.removeStored(id);
		return ok(undefined);
	}

	/** Everything stored for trace `id`: its record, chunks, columns, buffers, sockets and copy. */
	async removeStored(id: number): Promise<void> {
		for (const f of this.#changed) f(id, null);
		await deleteTrace(await this.db(), id);
		// A copy whose writer has just been stopped may be held a moment longer.
		for (let k = 0; k < COPY_REMOVE_TRIES; k++) {
			await this.files.remove(id);
			if (!(await this.files.file(id))) return;
			const pause = Math.min(COPY_REMOVE_PAUSE_MS * (k + 1), COPY_REMOVE_PAUSE_MAX_MS);
			await new Promise((resolve) => setTimeout(resolve, pause));
		}
	}
}
