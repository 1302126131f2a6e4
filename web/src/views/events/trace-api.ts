// Every call a trace view makes to the decoder worker, bound to its trace. This is the one file
// of the views that speaks the worker's query protocol: which query the rows, the timeline, the
// statistics and an export belong to, and which failures are no failure at all.
import { proxy, type Remote } from 'comlink';
import type { Finding } from '../../sockets/findings.ts';
import type { TrackedTrace } from '../../sockets/tracker.ts';
import type { Histogram, RowView, TimeRange } from '../../query/engine.ts';
import type { Result } from '../../lib/result.ts';
import type {
	DecoderApi,
	ExportFormat,
	ExportProgress,
	QueryAnswer,
	RecordDetails,
	TraceStatistics,
	Vocabulary,
} from '../../worker/api.ts';
import type { TrustCounter } from '../../worker/trust.ts';

export type DecoderRemote = Remote<DecoderApi> | DecoderApi;

/** A query's answer, or why there is none; a superseded query was overtaken by a newer one. */
export type QueryResult =
	| { readonly ok: true; readonly value: QueryAnswer }
	| { readonly ok: false; readonly error: string; readonly superseded: boolean };

/** Takes one piece of an export; returning false stops it. */
export type ExportWriter = (piece: string | Uint8Array, progress: ExportProgress) => boolean;

export class TraceApi {
	readonly #api: DecoderRemote;
	readonly traceId: number;

	constructor(api: DecoderRemote, traceId: number) {
		this.#api = api;
		this.traceId = traceId;
	}

	/** Runs a filter over a time range, with the first `head` matching rows. */
	async query(filter: string, range: TimeRange | null, head: number): Promise<QueryResult> {
		const r = await this.#api.query(this.traceId, filter, range, head);
		return r.ok ? r : { ok: false, error: r.error, superseded: /superseded/.test(r.error) };
	}

	/** Rows [offset, offset + limit) of the last query's matches. */
	rows(offset: number, limit: number): Promise<RowView[]> {
		return this.#api.rows(this.traceId, offset, limit);
	}

	/** Position of event `index` among the last query's matches, or -1. */
	positionOf(index: number): Promise<number> {
		return this.#api.positionOf(this.traceId, index);
	}

	details(index: number): Promise<Result<RecordDetails>> {
		return this.#api.details(this.traceId, index);
	}

	histogram(range: TimeRange, bins: number): Promise<Result<Histogram>> {
		return this.#api.histogram(this.traceId, range.from, range.to, bins);
	}

	/** The Statistics panel's tables over the last query's matches. */
	statistics(): Promise<Result<TraceStatistics>> {
		return this.#api.statistics(this.traceId);
	}

	vocabulary(): Promise<Result<Vocabulary>> {
		return this.#api.vocabulary(this.traceId);
	}

	trust(): Promise<Result<TrustCounter[]>> {
		return this.#api.trust(this.traceId);
	}

	sockets(): Promise<Result<TrackedTrace>> {
		return this.#api.sockets(this.traceId);
	}

	findings(): Promise<Result<Finding[]>> {
		return this.#api.findings(this.traceId);
	}

	/** The last query's matches as a file, piece by piece through `write`. */
	exportRows(
		format: ExportFormat,
		write: ExportWriter,
	): Promise<Result<{ rows: number; complete: boolean }>> {
		return this.#api.exportRows(this.traceId, format, proxy(write));
	}
}
