// The library's traces opened in this worker: one LiveTrace each (its tables, chunk list and
// query engine), shared by the queries of the page and by an import adding chunks to it, and the
// insight (names, statistics, exports) built over it.
import { BufferRecords, type RecordBytes } from '../decoder/buffer-records.ts';
import { blobSource, blockCache } from '../decoder/source.ts';
import { openTrace as openEtl } from '../decoder/etl-file.ts';
import { failureText, msg } from '../i18n/render.ts';
import { codedError } from './guard.ts';
import { getBuffers, getTrace } from '../store/trace-store.ts';
import type { Catalog } from './catalog.ts';
import { LiveTrace } from './live-trace.ts';
import { TraceInsight } from './trace-insight.ts';

export class OpenTraces {
	readonly #catalog: Catalog;
	readonly #module: () => Promise<WebAssembly.Module>;
	readonly #open = new Map<number, Promise<LiveTrace>>();
	readonly #insights = new WeakMap<LiveTrace, TraceInsight>();
	/** Called when an opened trace is let go (deleted, or started over by its import). */
	readonly #forgotten: ((id: number) => void)[] = [];

	constructor(catalog: Catalog, module: () => Promise<WebAssembly.Module>) {
		this.#catalog = catalog;
		this.#module = module;
		catalog.onChange((id, record) => {
			if (!record) return this.forget(id);
			void this.#open.get(id)?.then(
				(live) => void (live.record = record),
				() => {},
			);
		});
	}

	module(): Promise<WebAssembly.Module> {
		return this.#module();
	}

	/** `f` hears of every trace let go. */
	onForget(f: (id: number) => void): void {
		this.#forgotten.push(f);
	}

	live(id: number): Promise<LiveTrace> {
		let t = this.#open.get(id);
		if (!t) {
			t = (async () => {
				const db = await this.#catalog.db();
				const record = await getTrace(db, id);
				if (!record) throw codedError('not-found', msg('failure.no-trace', { id }));
				const live = await LiveTrace.load(db, record, () => this.#storedRecords(id));
				// Its insight decodes records for filters on payload fields, from the first query on.
				this.insight(live);
				return live;
			})();
			this.#open.set(id, t);
			t.catch(() => {
				if (this.#open.get(id) === t) this.#open.delete(id);
			});
		}
		return t;
	}

	/** Lets trace `id` go: it is opened afresh (from what is stored) when next asked for. */
	forget(id: number): void {
		this.#open.delete(id);
		for (const f of this.#forgotten) f(id);
	}

	insight(live: LiveTrace): TraceInsight {
		let insight = this.#insights.get(live);
		if (!insight) this.#insights.set(live, (insight = new TraceInsight(live, this.#module)));
		return insight;
	}

	/** Records read back from the library's copy of the file. */
	async #storedRecords(id: number): Promise<RecordBytes> {
		const db = await this.#catalog.db();
		const record = await getTrace(db, id);
		const [file, table] = await Promise.all([this.#catalog.files.file(id), getBuffers(db, id)]);
		if (!record?.copied || !file || !table)
			throw codedError(
				'io',
				record?.status === 'complete'
					? msg('failure.no-copy-events')
					: msg('failure.part-copy-events'),
			);
		const opened = await openEtl(
			blockCache(blobSource(file), 1 << 20, 8),
			await this.#module(),
			record.name,
		);
		if (!opened.ok)
			throw codedError(
				'io',
				msg('failure.library-copy', { name: record.name, detail: failureText(opened) }),
			);
		return new BufferRecords(opened.value, table);
	}
}
