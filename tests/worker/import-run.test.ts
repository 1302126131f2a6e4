// An import run in Node over fake IndexedDB, with the copy in-process: what a complete
// import stores and tells the page, and that a cancelled or failed one leaves nothing behind
// while one interrupted by the page going away is listed and resumes.
import { describe, expect, it, vi } from 'vitest';
import { failureText, textIn } from '../../web/src/i18n/render.ts';
import { CHUNK_ROWS, FIRST_CHUNK_ROWS } from '../../web/src/columns/layout.ts';
import type { ChunkRecord } from '../../web/src/store/db.ts';
import {
	chunkSummaries,
	getOwners,
	getSockets,
	getTrace,
	updateTrace,
} from '../../web/src/store/trace-store.ts';
import type { EndpointOwners } from '../../web/src/columns/event-owners.ts';
import { TraceTables } from '../../web/src/ingest/trace-tables.ts';
import { packOwners } from '../../web/src/store/owners-record.ts';
import { indexBuffers, openTrace } from '../../web/src/decoder/etl-file.ts';
import { blobSource, blockCache } from '../../web/src/decoder/source.ts';
import { EVENTS_KEPT_PER_SOCKET } from '../../web/src/sockets/import-tracker.ts';
import { trackTrace } from '../../web/src/sockets/track-trace.ts';
import { decoderModule } from '../decoder/load.ts';
import type { ChunksCommitted, TraceSummary } from '../../web/src/worker/api.ts';
import { DECODER_VERSION } from '../../web/src/worker/import-open.ts';
import { JobFailed } from '../../web/src/lib/job.ts';
import {
	HeldJob,
	library,
	progressLog,
	sampleBytes,
	sampleFile,
	sampleTruth,
	storedCounts,
	type Library,
} from './library-harness.ts';
import { SAMPLE_IMPORT_MS } from '../timeouts.ts';

const total = sampleTruth.totalRecords;
const chunksOf = (n: number) =>
	n <= FIRST_CHUNK_ROWS ? 1 : 1 + Math.ceil((n - FIRST_CHUNK_ROWS) / CHUNK_ROWS);
const nothing = { traces: 0, chunks: 0, columns: 0, buffers: 0, sockets: 0 };

/** Starts an import of the sample, following its notices as the page's view does. */
function startImport(lib: Library) {
	const notices: ChunksCommitted[] = [];
	let firstNotice!: () => void;
	const noticed = new Promise<void>((resolve) => (firstNotice = resolve));
	let traceId!: number;
	const log = progressLog();
	const result = lib.api.importFile(sampleFile(), (p) => {
		log.onProgress(p);
		if (p.trace) {
			traceId = p.trace.id;
			void lib.api.followImport(p.trace.id, (c) => {
				notices.push(c);
				firstNotice();
			});
		}
	});
	return { result, notices, noticed, reports: log.reports, id: () => traceId };
}

/** Copy jobs the test settles: `run` copies the file as the worker would; or reject the job. */
function heldCopies(lib: () => Library) {
	const jobs: { job: HeldJob<null>; run: () => void }[] = [];
	return {
		jobs,
		copy: (file: File, id: number) => {
			const job = new HeldJob<null>();
			const run = () => {
				lib().files.set(id, file);
				job.resolve(null);
			};
			jobs.push({ job, run });
			return job;
		},
	};
}

describe('an import run', { timeout: SAMPLE_IMPORT_MS }, () => {
	it('imports the sample completely: every chunk counted, the copy and sockets kept, the view told', async () => {
		const lib = library();
		const run = startImport(lib);
		const r = await run.result;
		expect(r.ok).toBe(true);
		const trace = (r as { value: TraceSummary }).value;
		expect(trace).toMatchObject({
			status: 'complete',
			records: total,
			chunks: chunksOf(total),
			copied: true,
			active: false,
			interrupted: false,
			error: null,
		});
		expect(trace.storedBytes).toBeGreaterThan(sampleBytes.length);
		expect(await storedCounts(lib)).toEqual({
			traces: 1,
			// Its chunks, and one record of their summaries.
			chunks: chunksOf(total) + 1,
			columns: 0,
			buffers: 1,
			// The sockets and, apart, their owners.
			sockets: 2,
		});
		expect(lib.files.get(trace.id)?.size).toBe(sampleBytes.length);
		// The first report carries the trace, to be shown at once; the last counts every event.
		expect(run.reports[0]).toMatchObject({ phase: 'indexing', trace: { id: trace.id } });
		expect(run.reports.at(-1)).toMatchObject({ phase: 'importing', records: total });
		// Told of the chunks stored after the first (when the decoding ends, at the latest), and
		// once the import has completed, last.
		expect(run.notices[0]).toEqual({
			traceId: trace.id,
			records: total,
			chunks: chunksOf(total),
			final: false,
		});
		expect(run.notices.at(-1)).toEqual({
			traceId: trace.id,
			records: total,
			chunks: chunksOf(total),
			final: true,
		});
		expect(run.notices.filter((n) => n.final)).toHaveLength(1);
		const q = await lib.api.query(trace.id, '', null);
		expect(q.ok && q.value).toMatchObject({ total, matched: total, partial: false });
		// The sockets, followed as the decoding went, are those of a pass of their own over the file.
		const opened = await openTrace(
			blockCache(blobSource(sampleFile())),
			decoderModule(),
			'sample.etl',
		);
		if (!opened.ok) throw new Error(opened.error);
		const own = await trackTrace(opened.value, (await indexBuffers(opened.value)).buffers, {
			maxEventsPerSocket: EVENTS_KEPT_PER_SOCKET,
		});
		expect(own.sockets.length).toBeGreaterThan(0);
		// The owners are stored apart, each endpoint as the index of its pointer text among the
		// trace's strings (the Endpoint column's values): every endpoint of the pass's is there.
		const db = await lib.db();
		const stored = await getSockets(db, trace.id);
		expect(stored?.owners).toBeUndefined();
		expect({ ...stored, owners: own.owners }).toEqual(own);
		const tables = new TraceTables();
		for (const c of (await chunkSummaries(db, trace.id)).sort((a, b) => a.index - b.index))
			tables.apply(c.additions);
		const endpoints = [...own.owners!.endpoints];
		expect(endpoints.length).toBeGreaterThan(0);
		expect(endpoints.filter(([text]) => tables.indexOf(text) === undefined)).toEqual([]);
		const record = await db.get('sockets', [trace.id, 'owners']);
		expect(record && 'owners' in record && record.owners).toEqual(packOwners(own.owners!, tables));
		const read = (await getOwners(db, trace.id))!;
		const lists = (e: EndpointOwners | null) => e && [Array.from(e.first), Array.from(e.pid)];
		for (const [text, e] of endpoints)
			expect(lists(read.endpointAt(tables.indexOf(text)!, tables.strings)), text).toEqual(lists(e));
		expect([read.tcpRows, read.tcpPids]).toEqual([own.owners!.tcpRows, own.owners!.tcpPids]);
	});

	it('answers queries while importing (partial), and whole once the view is told it has ended', async () => {
		let lib!: Library;
		const held = heldCopies(() => lib);
		lib = library({ side: { copy: held.copy } });
		const run = startImport(lib);
		await run.noticed;
		const during = await lib.api.query(run.id(), '', null);
		expect(during.ok && during.value.partial).toBe(true);
		expect(during.ok && during.value.total).toBeGreaterThan(0);
		expect(run.notices.some((n) => n.final)).toBe(false);
		// The import waits for its copy: wait for its job, then let it run.
		await vi.waitFor(() => expect(held.jobs).toHaveLength(1), { timeout: SAMPLE_IMPORT_MS });
		held.jobs[0]!.run();
		expect((await run.result).ok).toBe(true);
		expect(run.notices.at(-1)?.final).toBe(true);
		const after = await lib.api.query(run.id(), '', null);
		expect(after.ok && after.value).toMatchObject({ partial: false, total });
	});

	it('cancelled: fails with `cancelled` and deletes the trace, its chunks, buffers and copy', async () => {
		let lib!: Library;
		const held = heldCopies(() => lib);
		lib = library({ side: { copy: held.copy } });
		const run = startImport(lib);
		await run.noticed;
		// Something is stored by now: the first chunk, and the sockets once the decoding ends.
		expect((await storedCounts(lib)).chunks).toBeGreaterThan(0);
		expect((await lib.api.cancelImport(run.id())).ok).toBe(true);
		const r = await run.result;
		expect(!r.ok && r.code).toBe('cancelled');
		expect(await storedCounts(lib)).toEqual(nothing);
		expect(lib.files.size).toBe(0);
		const listed = await lib.api.listTraces();
		expect(listed.ok && listed.value).toEqual([]);
		expect(held.jobs.every((j) => j.job.cancelled)).toBe(true);
		// Its view, still open, is told nothing more, and its handles are gone.
		expect(run.notices.some((n) => n.final)).toBe(false);
		const q = await lib.api.query(run.id(), '', null);
		expect(!q.ok && q.code).toBe('not-found');
	});

	it('failed (the copy failed, not for storage): the import completes and says why it has no copy', async () => {
		const lib = library({
			side: {
				copy: () =>
					new HeldJob(async () => {
						throw new JobFailed('copying the file into the library failed: out of luck');
					}),
			},
		});
		const r = await startImport(lib).result;
		expect(r.ok && r.value).toMatchObject({ status: 'complete', copied: false });
		expect(r.ok && r.value.error).toMatch(/^no copy of the file could be kept \(copying the file/);
		expect(await storedCounts(lib)).toMatchObject({ traces: 1, sockets: 2 });
		expect(lib.files.size).toBe(0);
	});

	it('storage full while copying: fails with `quota`, says how much more is needed, keeps nothing', async () => {
		const lib = library({
			side: {
				copy: () =>
					new HeldJob(async () => {
						throw new JobFailed('copying the file into the library failed: quota', true);
					}),
			},
		});
		const r = await startImport(lib).result;
		expect(!r.ok && r.code).toBe('quota');
		expect(!r.ok && r.error).toMatch(
			/^storage is full after [\d,]+ events: about [\d.]+ MB more are needed\. Nothing of this import was kept/,
		);
		// The page says it in Chinese from the same code and values.
		expect(!r.ok && textIn('zh', failureText(r))).toMatch(
			/^导入 [\d,]+ 个事件后存储空间已满：还需要约 [\d.]+ MB。/,
		);
		expect(await storedCounts(lib)).toEqual(nothing);
	});

	it('refuses a file that is no trace (`format`) or does not fit (`quota`) before storing anything', async () => {
		const lib = library();
		const notEtl = await lib.api.importFile(new File(['hello, world'], 'notes.etl'), () => {});
		expect(!notEtl.ok && notEtl.code).toBe('format');
		expect(!notEtl.ok && notEtl.error).toMatch(/^not an ETL file: /);
		const small = library({ estimate: async () => ({ usage: 0, quota: 1000 }) });
		const full = await small.api.importFile(sampleFile(), () => {});
		expect(!full.ok && full.code).toBe('quota');
		expect(await storedCounts(lib)).toEqual(nothing);
		expect(await storedCounts(small)).toEqual(nothing);
	});

	it('interrupted by the page going away: listed as interrupted, and Resume completes it', async () => {
		// The first page: its import has stored every chunk when the page goes (its database
		// connection closes, and its worker stops before the copy is whole).
		let first!: Library;
		const held = heldCopies(() => first);
		first = library({ side: { copy: held.copy } });
		const run = startImport(first);
		await run.noticed;
		const id = run.id();
		await vi.waitFor(
			async () => expect((await getTrace(await first.db(), id))?.chunks).toBe(chunksOf(total)),
			{ timeout: SAMPLE_IMPORT_MS },
		);
		await vi.waitFor(() => expect(held.jobs).toHaveLength(1), { timeout: SAMPLE_IMPORT_MS });
		(await first.db()).close();
		held.jobs[0]?.job.reject(new Error('the page went away'));
		await run.result;
		// As a page closed after counting only the first chunk leaves it: the second chunk stored
		// but not counted (a resumed import drops it and stores it again).
		const page = library({ dbName: first.dbName });
		const db = await page.db();
		const chunk0 = (await db.get('chunks', [id, 0])) as ChunkRecord;
		await updateTrace(db, id, {
			records: chunk0.rows,
			chunks: 1,
			storedBytes: chunk0.bytes,
			tMin: chunk0.tMin,
			tMax: chunk0.tMax,
		});
		const listed = await page.api.listTraces();
		expect(listed.ok && listed.value).toMatchObject([
			{ id, status: 'importing', interrupted: true, active: false, records: FIRST_CHUNK_ROWS },
		]);
		// Another file is refused, and so is an import of another version.
		const other = new File([sampleBytes.subarray(0, sampleBytes.length - 4096)], 'sample.etl');
		const mismatch = await page.api.resumeImport(id, other, () => {});
		expect(!mismatch.ok && mismatch.code).toBe('mismatch');
		await updateTrace(db, id, { decoderVersion: DECODER_VERSION - 1 });
		const version = await page.api.resumeImport(id, sampleFile(), () => {});
		expect(!version.ok && version.code).toBe('version');
		await updateTrace(db, id, { decoderVersion: DECODER_VERSION });
		const resumed = await page.api.resumeImport(id, sampleFile(), () => {});
		expect(resumed.ok && resumed.value).toMatchObject({
			id,
			status: 'complete',
			records: total,
			chunks: chunksOf(total),
		});
		// The same counts as a fresh import of the file.
		const fresh = library();
		const again = await fresh.api.importFile(sampleFile(), () => {});
		const freshId = again.ok ? again.value.id : -1;
		for (const filter of ['', 'status:error', 'port:443', 'time>=2s time<3.5s']) {
			const a = await page.api.query(id, filter, null);
			const b = await fresh.api.query(freshId, filter, null);
			expect(a.ok && a.value.matched).toBe(b.ok && b.value.matched);
		}
		expect(await storedCounts(page)).toMatchObject({
			traces: 1,
			chunks: chunksOf(total) + 1,
			sockets: 2,
		});
	});
});
