// Every call a trace view makes to the decoder worker, bound to its trace. This is the one file
// of the views that speaks the worker's query protocol: which query the rows, the timeline, the
// statistics and an export belong to (the selection handle of an answer), and the import's notices.
import { proxy, type Remote } from 'comlink';
import type { Finding } from '../../sockets/findings.ts';
import type { TrackedTrace } from '../../sockets/tracker.ts';
import type { Histogram, RowView, TimeRange } from '../../query/protocol.ts';
import type { Result } from '../../lib/result.ts';
import type { PacketPick } from '../../packets/packet-pick.ts';
import type { PacketStatistics } from '../../packets/packet-stats.ts';
import type {
	DecoderApi,
	ExportFormat,
	ChunksCommitted,
	ExportProgress,
	IoGraph,
	IoGraphSource,
	PacketAnswer,
	RuleMatches,
	PayloadValues,
	Pivot,
	PivotColumn,
	PacketDetails,
	PacketRowView,
	SocketPackets,
	QueryAnswer,
	SelectionHandle,
	SocketTableName,
	TableFormat,
	RecordDetails,
	TraceStatistics,
	TrustCounter,
	Vocabulary,
} from '../../worker/api.ts';
import { readsMarks } from '../marking/event-marks.ts';

export type DecoderRemote = Remote<DecoderApi> | DecoderApi;

/** Takes one piece of an export; returning false stops it. */
export type ExportWriter = (piece: string | Uint8Array, progress: ExportProgress) => boolean;

/** Rows of a selection, or none when it failed (superseded by a newer query, say). */
const rowsOr = (r: Result<RowView[]>): RowView[] => (r.ok ? r.value : []);

export class TraceApi {
	readonly #api: DecoderRemote;
	readonly traceId: number;

	constructor(api: DecoderRemote, traceId: number) {
		this.#api = api;
		this.traceId = traceId;
	}

	/**
	 * Runs a filter over a time range, with the first `head` matching rows. The answer's handle
	 * names its selection for the rows, timeline, statistics and exports asked of it; a failure
	 * with code `superseded` was overtaken by a newer query and is no failure at all.
	 */
	query(filter: string, range: TimeRange | null, head: number): Promise<Result<QueryAnswer>> {
		// A filter on the marks takes them along (the worker knows no marks otherwise).
		const marked = readsMarks(filter) ? [...this.marks()] : undefined;
		return this.#api.query(this.traceId, filter, range, head, marked);
	}

	/** The events the user marked, for filters that read them (set by the view). */
	marks: () => ReadonlySet<number> = () => new Set();

	/** Per event, the first of `filters` it matches (the colouring rules), or -1. */
	ruleMatches(
		filters: readonly string[],
		indexes: readonly number[],
	): Promise<Result<RuleMatches>> {
		const marked = filters.some(readsMarks) ? [...this.marks()] : undefined;
		return this.#api.ruleMatches(this.traceId, filters, indexes, marked);
	}

	/** Rows [offset, offset + limit) of a selection's matches (none once it is superseded). */
	async rows(selection: SelectionHandle, offset: number, limit: number): Promise<RowView[]> {
		return rowsOr(await this.#api.rows(selection, offset, limit));
	}

	/** The same, or why not (superseded by a newer query, say). */
	rowsResult(
		selection: SelectionHandle,
		offset: number,
		limit: number,
	): Promise<Result<RowView[]>> {
		return this.#api.rows(selection, offset, limit);
	}

	/** Position of event `index` among a selection's matches, or -1. */
	async positionOf(selection: SelectionHandle, index: number): Promise<number> {
		const r = await this.#api.positionOf(selection, index);
		return r.ok ? r.value : -1;
	}

	/** Events by record index, whatever the filter (none when the worker cannot read them). */
	async eventRows(indexes: readonly number[]): Promise<RowView[]> {
		return rowsOr(await this.#api.eventRows(this.traceId, indexes));
	}

	/** Payload fields of events by record index (the columns applied from the details pane). */
	payloadValues(
		indexes: readonly number[],
		names: readonly string[],
	): Promise<Result<(PayloadValues | null)[]>> {
		return this.#api.payloadValues(this.traceId, indexes, names);
	}

	details(index: number): Promise<Result<RecordDetails>> {
		return this.#api.details(this.traceId, index);
	}

	histogram(
		selection: SelectionHandle,
		range: TimeRange,
		bins: number,
	): Promise<Result<Histogram>> {
		return this.#api.histogram(selection, range.from, range.to, bins);
	}

	/** Bytes each way per interval, for a filter or some sockets (api.ts). */
	ioGraph(source: IoGraphSource, interval: number | null): Promise<Result<IoGraph>> {
		return this.#api.ioGraph(this.traceId, source, interval);
	}

	/** The Statistics panel's tables over a selection's matches. */
	statistics(selection: SelectionHandle): Promise<Result<TraceStatistics>> {
		return this.#api.statistics(selection);
	}

	/** A selection's matches grouped by `columns` (the Group by view). */
	pivot(
		selection: SelectionHandle,
		columns: readonly PivotColumn[],
		limit: number,
	): Promise<Result<Pivot>> {
		return this.#api.pivot(selection, columns, limit);
	}

	/** The Group by tree as a file, one row per group. */
	exportPivot(
		selection: SelectionHandle,
		columns: readonly PivotColumn[],
		format: TableFormat,
		write: ExportWriter,
	): Promise<Result<{ rows: number; complete: boolean }>> {
		return this.#api.exportPivot(selection, columns, format, proxy(write));
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

	/** A selection's matches as a file, piece by piece through `write`. */
	exportRows(
		selection: SelectionHandle,
		format: ExportFormat,
		write: ExportWriter,
	): Promise<Result<{ rows: number; complete: boolean }>> {
		return this.#api.exportRows(selection, format, proxy(write));
	}

	/** One of the sockets' tables (sockets, conversations, findings) as a file, piece by piece. */
	exportTable(
		table: SocketTableName,
		format: TableFormat,
		only: readonly string[] | null,
		write: ExportWriter,
	): Promise<Result<{ rows: number; complete: boolean }>> {
		return this.#api.exportTable(this.traceId, table, format, only, proxy(write));
	}

	/** Runs a packet filter over the trace's captured frames, with the first `head` rows. */
	packets(filter: string, head: number): Promise<Result<PacketAnswer>> {
		return this.#api.packets(this.traceId, filter, head);
	}

	/** Rows of the latest packet filter (`filter` names it: an older one fails `superseded`). */
	packetRows(filter: string, offset: number, limit: number): Promise<Result<PacketRowView[]>> {
		return this.#api.packetRows(this.traceId, filter, offset, limit);
	}

	packetDetails(number: number): Promise<Result<PacketDetails>> {
		return this.#api.packetDetails(this.traceId, number);
	}

	socketPackets(socket: string): Promise<Result<SocketPackets>> {
		return this.#api.socketPackets(this.traceId, socket);
	}

	packetStatistics(): Promise<Result<PacketStatistics>> {
		return this.#api.packetStatistics(this.traceId);
	}

	hasPackets(): Promise<Result<boolean>> {
		return this.#api.hasPackets(this.traceId);
	}

	/** The frames a pick holds as pcapng, piece by piece; `write` returning false stops. */
	exportPcapng(
		pick: PacketPick,
		write: (piece: Uint8Array) => boolean,
	): Promise<Result<{ frames: number; complete: boolean }>> {
		return this.#api.exportPcapng(this.traceId, pick, proxy(write));
	}

	/** The frames a pick holds as the export's `packets` table, piece by piece. */
	exportPacketTable(
		pick: PacketPick,
		format: TableFormat,
		write: (piece: Uint8Array) => boolean,
	): Promise<Result<{ rows: number; complete: boolean }>> {
		return this.#api.exportPacketTable(this.traceId, pick, format, proxy(write));
	}

	/**
	 * While the trace is imported the worker says when to ask again (and once more at the end, so
	 * the answer is whole); returns what stops listening.
	 */
	followImport(onCommitted: (c: ChunksCommitted) => void): () => void {
		const following = this.#api.followImport(this.traceId, proxy(onCommitted));
		return () =>
			void following.then((r) => {
				if (r.ok) void this.#api.unfollowImport(r.value);
			});
	}
}
