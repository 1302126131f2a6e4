// One export of the current filtered view, or of a table of the Sockets panel: the worker makes
// the file in pieces of about 1 MiB (NDJSON: the same fields as `sockscope decode`; Parquet: the
// events table of `sockscope export`), and each piece becomes a Blob at once; the events' CSV is
// the table as shown, made here from the rows a few thousand at a time. Chromium keeps
// large blobs on disk rather than in memory, and the final Blob only references the pieces, so
// exporting 10 M rows never holds the whole text; the worker waits for each piece to be taken.
import { t } from '../../i18n/locale.svelte.ts';
import { ok, type Result } from '../../lib/result.ts';
import type {
	ExportFormat,
	ExportProgress,
	PivotColumn,
	SelectionHandle,
	SocketTableName,
	TableFormat,
} from '../../worker/api.ts';
import type { ExportWriter, TraceApi } from '../trace/trace-api.ts';
import { screenHeader, screenLines, type ScreenTable } from './screen-csv.ts';
import { isPayloadColumn } from '../events/columns.ts';
import type { RowView } from '../../query/protocol.ts';

const TYPES: Record<ExportFormat, string> = {
	csv: 'text/csv;charset=utf-8',
	ndjson: 'application/x-ndjson;charset=utf-8',
	parquet: 'application/vnd.apache.parquet',
};

/** "sample.etl" + the view → "sample-events.csv" (a socket table: "sample-sockets.csv"). */
export function exportFileName(
	traceName: string,
	format: ExportFormat,
	filtered: boolean | SocketTableName,
): string {
	const base = traceName.replace(/\.etl$/i, '').replace(/[\\/:*?"<>|]+/g, '_') || 'trace';
	const what = typeof filtered === 'string' ? filtered : filtered ? 'filtered' : 'events';
	return `${base}-${what}.${format}`;
}

export function saveBlob(blob: Blob, name: string): void {
	const url = URL.createObjectURL(blob);
	const a = document.createElement('a');
	a.href = url;
	a.download = name;
	a.rel = 'noopener';
	document.body.append(a);
	a.click();
	a.remove();
	// The download has its own reference by now; a minute covers slow disks.
	setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The table with the payload fields of `rows` read, when it shows any as columns. */
async function payloadOf(
	api: TraceApi,
	rows: readonly RowView[],
	table: ScreenTable,
): Promise<Result<ScreenTable>> {
	const names = table.columns.flatMap((c) => (isPayloadColumn(c.id) ? [c.id.slice(6)] : []));
	if (names.length === 0) return ok(table);
	const indexes = rows.map((r) => r.index);
	const got = await api.payloadValues(indexes, names);
	if (!got.ok) return got;
	const payload = new Map(indexes.map((i, k) => [i, got.value[k] ?? {}]));
	return ok({ ...table, ctx: { ...table.ctx, payload } });
}

/** What an export's worker side answers. */
type Written = Result<{ rows: number; complete: boolean }>;

/** Makes a file through `write`, piece by piece; `write` returning false stops it. */
type Producer = (write: ExportWriter) => Promise<Written>;

/** Rows the events' CSV asks the worker for at a time. */
const SCREEN_ROWS = 5000;

export class ExportJob {
	progress = $state.raw<(ExportProgress & { format: ExportFormat }) | null>(null);
	/** What the last export did, for the status line. */
	message = $state<string | null>(null);
	#cancelled = false;

	get running(): boolean {
		return this.progress !== null;
	}

	cancel(): void {
		this.#cancelled = true;
	}

	/** Exports the matches of `selection` (the answer on screen) as the worker writes them. */
	run(
		api: TraceApi,
		selection: SelectionHandle,
		format: ExportFormat,
		fileName: string,
	): Promise<void> {
		return this.#produce(format, fileName, (write) => api.exportRows(selection, format, write));
	}

	/**
	 * Exports the matches of `selection` as the table shows them: its visible columns, in its
	 * order, each cell the text on screen (CSV).
	 */
	runScreen(
		api: TraceApi,
		selection: SelectionHandle,
		total: number,
		table: ScreenTable,
		fileName: string,
	): Promise<void> {
		return this.#produce('csv', fileName, async (write) => {
			if (!write(screenHeader(table), { rows: 0, total })) return ok({ rows: 0, complete: false });
			let done = 0;
			let before: number | null = null;
			while (done < total) {
				const got = await api.rowsResult(selection, done, SCREEN_ROWS);
				if (!got.ok) return got;
				if (got.value.length === 0) break;
				const withFields = await payloadOf(api, got.value, table);
				if (!withFields.ok) return withFields;
				const lines = screenLines(got.value, withFields.value, done, before);
				before = got.value[got.value.length - 1]!.time;
				done += got.value.length;
				if (!write(lines, { rows: done, total })) return ok({ rows: done, complete: false });
			}
			return ok({ rows: done, complete: true });
		});
	}

	/** Exports one of the sockets' tables (sockets, conversations, findings); `only` as the API's. */
	runTable(
		api: TraceApi,
		table: SocketTableName,
		format: TableFormat,
		only: readonly string[] | null,
		fileName: string,
	): Promise<void> {
		return this.#produce(
			format,
			fileName,
			(write) => api.exportTable(table, format, only, write),
			table,
		);
	}

	/** Exports the Group by tree of a selection (one row per group). */
	runPivot(
		api: TraceApi,
		selection: SelectionHandle,
		columns: readonly PivotColumn[],
		format: TableFormat,
		fileName: string,
	): Promise<void> {
		return this.#produce(format, fileName, (write) =>
			api.exportPivot(selection, columns, format, write),
		);
	}

	async #produce(
		format: ExportFormat,
		fileName: string,
		produce: Producer,
		what?: SocketTableName,
	): Promise<void> {
		if (this.progress) return;
		this.#cancelled = false;
		this.message = null;
		this.progress = { rows: 0, total: 0, format };
		const parts: Blob[] = [];
		// The callback returns a boolean, never a $state proxy: Comlink must clone what it returns.
		const write = (piece: string | Uint8Array, p: ExportProgress) => {
			parts.push(new Blob([piece as BlobPart]));
			this.progress = { ...p, format };
			return !this.#cancelled;
		};
		try {
			const r = await produce(write);
			if (!r.ok) this.message = r.error;
			else if (!r.value.complete) this.message = t('export.cancelled');
			else {
				saveBlob(new Blob(parts, { type: TYPES[format] }), fileName);
				const count = r.value.rows.toLocaleString('en-US');
				this.message = what
					? t('export.table-done', { count, fileName })
					: t('export.done', { count, fileName });
			}
		} catch (e) {
			this.message = t('export.failed', { error: e instanceof Error ? e.message : String(e) });
		} finally {
			this.progress = null;
		}
	}
}
