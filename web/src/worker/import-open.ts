// The start of an import: the dropped file opened and named (its fingerprint) in one read of its
// head, room checked, and the trace listed as importing; or, to resume one, the same file
// recognised and what was stored found again.
import { blobSource, blockCache, switchableSource } from '../decoder/source.ts';
import { openTrace as openEtl, type OpenTrace } from '../decoder/etl-file.ts';
import { TraceTables } from '../ingest/trace-tables.ts';
import { msg } from '../i18n/render.ts';
import { ok, type Result } from '../lib/result.ts';
import { failWith } from './guard.ts';
import type { TraceRecord } from '../store/db.ts';
import { addTrace, dropChunksFrom, updateTrace } from '../store/trace-store.ts';
import type { Catalog } from './catalog.ts';
import { fingerprint } from './fingerprint.ts';
import type { OpenTraces } from './open-traces.ts';

/**
 * Bumped when the decoder, the column layout, the chunk sizes or the fingerprint change what an
 * import stores (an import begun under another version is not resumed).
 */
export const DECODER_VERSION = 5;
/** Column bytes per file byte, measured on Winsock traces (~0.3), with room. */
export const COLUMNS_FACTOR = 0.5;
/**
 * The start of a dropped file read apart, before the rest: opening and naming the trace read it,
 * and the index pass finds the first buffers of every CPU in it, so the first rows wait for no
 * larger read.
 */
export const HEAD_BYTES = 1 << 20;

export const mb = (n: number) => `${(n / 1e6).toFixed(n < 1e7 ? 1 : 0)} MB`;

/** What the browser says of its storage, or null where it cannot say. */
export type StorageEstimate = () => Promise<{ usage?: number; quota?: number } | null>;

export const browserEstimate: StorageEstimate = async () => {
	const storage = (globalThis as { navigator?: Partial<Navigator> }).navigator?.storage;
	return typeof storage?.estimate === 'function' ? storage.estimate() : null;
};

/** An import ready to run: the trace opened, its record listed, what is stored already. */
export interface ImportStart {
	readonly trace: OpenTrace;
	readonly record: TraceRecord;
	/** Tables as the stored chunks left them. */
	readonly tables: TraceTables;
	/** Events stored by an earlier, interrupted import, which this one goes on from. */
	readonly skipRows: number;
}

export interface OpenDeps {
	readonly catalog: Catalog;
	readonly traces: OpenTraces;
	readonly estimate: StorageEstimate;
}

/**
 * Opens a dropped file and names it (its fingerprint) at once, reading its first MiB once for
 * both: the decoding's source then holds it, for the index pass to find the first buffers in.
 */
async function openDropped(
	file: File,
	module: WebAssembly.Module,
): Promise<[Result<OpenTrace>, string]> {
	const source = switchableSource(blockCache(blobSource(file), 8 << 20, 4, HEAD_BYTES));
	return Promise.all([openEtl(source, module, file.name), fingerprint(source, blobSource(file))]);
}

async function checkRoom(estimate: StorageEstimate, need: number): Promise<Result<void>> {
	const e = await estimate();
	const { usage = 0, quota = 0 } = e ?? {};
	if (quota > 0 && quota - usage < need)
		return failWith(
			'quota',
			msg('failure.quota-room', {
				need: mb(need),
				free: mb(Math.max(0, quota - usage)),
				quota: mb(quota),
			}),
		);
	return ok(undefined);
}

/** A new import of `file`: opened, checked for room, and listed as importing. */
export async function openNewImport(deps: OpenDeps, file: File): Promise<Result<ImportStart>> {
	// Opening, naming and the storage estimate, at once.
	const [[opened, print], room] = await Promise.all([
		deps.traces.module().then((m) => openDropped(file, m)),
		checkRoom(deps.estimate, file.size * (1 + COLUMNS_FACTOR)),
	]);
	if (!opened.ok) return opened;
	if (!room.ok) return room;
	const trace = opened.value;
	const record: TraceRecord = {
		name: file.name,
		size: file.size,
		lastModified: file.lastModified,
		fingerprint: print,
		facts: trace.facts,
		decoderVersion: DECODER_VERSION,
		status: 'importing',
		records: 0,
		chunks: 0,
		storedBytes: 0,
		copied: false,
		tMin: 0,
		tMax: 0,
		importedAt: Date.now(),
		importMs: 0,
		damage: [],
		error: null,
		errorText: null,
	};
	record.id = await addTrace(await deps.catalog.db(), record);
	return ok({ trace, record, tables: new TraceTables(), skipRows: 0 });
}

/**
 * An interrupted import of trace `id` taken up again with `file`: the same file (its
 * fingerprint), under the same version, with room for the rest. Chunks stored beyond those
 * counted are dropped. A complete trace needs nothing: its record.
 */
export async function openResumedImport(
	deps: OpenDeps,
	id: number,
	file: File,
): Promise<Result<ImportStart | TraceRecord>> {
	if (deps.catalog.importing(id)) return failWith('busy', msg('failure.busy'));
	const db = await deps.catalog.db();
	const record = await deps.catalog.get(id);
	if (!record) return failWith('not-found', msg('failure.no-trace', { id }));
	if (record.status === 'complete') return ok(record);
	// Another version may name, decode or cut the trace into chunks otherwise.
	if (record.decoderVersion !== DECODER_VERSION)
		return failWith('version', msg('failure.version', { name: record.name }));
	const [opened, print] = await openDropped(file, await deps.traces.module());
	if (!opened.ok) return opened;
	if (print !== record.fingerprint)
		return failWith('mismatch', msg('failure.mismatch', { file: file.name, name: record.name }));
	const columns = record.storedBytes - (record.copied ? record.size : 0);
	const room = await checkRoom(
		deps.estimate,
		Math.max(0, file.size * COLUMNS_FACTOR - columns) + (record.copied ? 0 : file.size),
	);
	if (!room.ok) return room;
	await dropChunksFrom(db, id, record.chunks);
	deps.traces.forget(id);
	const live = await deps.traces.live(id);
	const updated = await updateTrace(db, id, { status: 'importing', error: null, errorText: null });
	return ok({
		trace: opened.value,
		record: updated,
		tables: live.tables,
		skipRows: record.records,
	});
}
