// One export of the current filtered view: the worker makes the file in pieces of about 1 MiB
// (the same fields as `sockscope decode`), and each piece becomes a Blob at once. Chromium keeps
// large blobs on disk rather than in memory, and the final Blob only references the pieces, so
// exporting 10 M rows never holds the whole text; the worker waits for each piece to be taken.
import { t } from '../../i18n/locale.svelte.ts';
import type { ExportFormat, ExportProgress, SelectionHandle } from '../../worker/api.ts';
import type { TraceApi } from '../events/trace-api.ts';

const TYPES: Record<ExportFormat, string> = {
	csv: 'text/csv;charset=utf-8',
	ndjson: 'application/x-ndjson;charset=utf-8',
	parquet: 'application/vnd.apache.parquet',
};

/** "sample.etl" + the view → "sample-events.csv". */
export function exportFileName(traceName: string, format: ExportFormat, filtered: boolean): string {
	const base = traceName.replace(/\.etl$/i, '').replace(/[\\/:*?"<>|]+/g, '_') || 'trace';
	return `${base}-${filtered ? 'filtered' : 'events'}.${format}`;
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

	/** Exports the matches of `selection` (the answer on screen). */
	async run(
		api: TraceApi,
		selection: SelectionHandle,
		format: ExportFormat,
		fileName: string,
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
			const r = await api.exportRows(selection, format, write);
			if (!r.ok) this.message = r.error;
			else if (!r.value.complete) this.message = t('export.cancelled');
			else {
				saveBlob(new Blob(parts, { type: TYPES[format] }), fileName);
				this.message = t('export.done', { count: r.value.rows.toLocaleString('en-US'), fileName });
			}
		} catch (e) {
			this.message = t('export.failed', { error: e instanceof Error ? e.message : String(e) });
		} finally {
			this.progress = null;
		}
	}
}
