import type { TraceFacts } from '../decoder/types.ts';
import type { RecordJson } from '../decoder/record-json.ts';
import type { EventType } from '../columns/layout.ts';
import type { Result } from '../lib/result.ts';
import type { Message } from '../lib/message.ts';
import type { GroupKey, Group, Histogram, RowView, TimeRange } from '../query/protocol.ts';
import type { IoGraph } from '../query/io-graph.ts';
import type { Finding } from '../sockets/findings.ts';
import type { TrackedTrace } from '../sockets/tracker.ts';
import type { TraceRecord } from '../store/db.ts';
import type { ExportProgress } from './export-selection.ts';
import type { SocketTableName } from './export-tables.ts';
import type { TableFormat } from '../export/table-writer.ts';
import type { ExportFormat as LineFormat } from '../export/record-lines.ts';
import type { PayloadValues, TraceStatistics, Vocabulary } from './trace-insight.ts';
import type { TrustCounter } from './trust.ts';
import type { PacketRow } from '../packets/packet-row.ts';
import type { Layer } from '../packets/types.ts';
import type { WireFacts } from '../packets/join.ts';
import type { SideWorkerStarter } from './side-jobs.ts';
import type { PacketPick } from '../packets/packet-pick.ts';
import type { PacketStatistics } from '../packets/packet-stats.ts';

import type { Pivot, PivotColumn } from '../query/pivot.ts';
import type { RuleMatches } from '../query/rule-match.ts';

export type { ExportProgress, SocketTableName, TableFormat, TraceStatistics, Vocabulary };
export type { IoGraph, PayloadValues, Pivot, PivotColumn, RuleMatches, TrustCounter };
/** The trust counters of a trace's facts: the page shows them, the worker computes the same. */
export { trustCounters } from './trust.ts';

/** Most rows one eventRows request reads (a socket's story may hold millions). */
export const MAX_EVENT_ROWS = 5000;

/** Files the page exports: the CLI's lines (CSV, NDJSON) or the export command's events table. */
export type ExportFormat = LineFormat | 'parquet';

/** A trace in the library, as the page lists it. */
export interface TraceSummary extends TraceRecord {
	readonly id: number;
	/** Importing in a page that has gone away: it can be resumed with the same file or deleted. */
	readonly interrupted: boolean;
	/** Being imported by this worker now. */
	readonly active: boolean;
}

export interface ImportProgress {
	readonly traceId: number;
	/**
	 * Indexing: finding the file's buffers, before the first can be decoded (every CPU must have
	 * one); importing: decoding and storing events while the rest are found.
	 */
	readonly phase: 'indexing' | 'importing';
	readonly fileName: string;
	readonly bytesDone: number;
	readonly bytesTotal: number;
	readonly records: number;
	readonly chunks: number;
	readonly elapsedMs: number;
	readonly mbPerSecond: number;
	readonly etaSeconds: number | null;
	/** The trace as the library lists it, with an import's first report: shown without asking. */
	readonly trace?: TraceSummary;
	/**
	 * The time span (ticks) of the events stored so far: the timeline's while importing, as the
	 * first report's summary knows none yet.
	 */
	readonly span?: { readonly tMin: number; readonly tMax: number };
}

/**
 * A query's selection, for the requests about its matches. Only the latest selection of a trace
 * is kept: an older handle's requests fail with `superseded`.
 */
/** What an I/O graph counts: the events of a filter over a range, or those of some sockets. */
export type IoGraphSource =
	| { readonly filter: string; readonly range: TimeRange | null }
	/** `remote`: of datagram sockets, only their traffic with that remote (a conversation's). */
	| { readonly sockets: readonly string[]; readonly remote?: string | null };

export interface SelectionHandle {
	readonly traceId: number;
	readonly selection: number;
}

/** Told while a trace is imported, when the worker would have the page ask again. */
export interface ChunksCommitted {
	readonly traceId: number;
	/** Events and chunks stored so far. */
	readonly records: number;
	readonly chunks: number;
	/** The import has completed: a query now gives the whole trace. */
	readonly final: boolean;
}

export interface QueryAnswer {
	readonly handle: SelectionHandle;
	readonly total: number;
	readonly matched: number;
	/** Still importing: more rows may come. */
	readonly partial: boolean;
	readonly ms: number;
	/** The first rows of the matches, when asked for with the query (no second round trip). */
	readonly head?: RowView[];
}

export interface FieldDetail {
	readonly name: string;
	readonly value: string;
	/** Named meaning: map entry, NTSTATUS name, flags. */
	readonly meaning: string | null;
	/** NTSTATUS explained, when the field holds one. */
	readonly explanation: string | null;
	/** The nearest Winsock error of an NTSTATUS field ("WSAECONNREFUSED (10061)"), if any. */
	readonly wsa?: string | null;
	/** Byte range in the record (for the hex view), or null when missing. */
	readonly offset: number | null;
	readonly size: number;
}

export interface RecordDetails {
	readonly index: number;
	readonly json: RecordJson;
	/** json.problem as a message, in the reader's language (null: none, or said in English only). */
	readonly problemText: Message | null;
	readonly bytes: Uint8Array;
	readonly payloadOffset: number;
	readonly fields: FieldDetail[];
}

/** A packet as the Packets panel lists it: `sockscope packets`' columns, and its place in the filter's list. */
/** A packet row for the page: its Info as a message besides the English `info` (exports, CLI). */
export type PacketRowView = PacketRow & {
	readonly infoText: Message | null;
	readonly position: number;
};

export interface PacketAnswer {
	/** Frames in the trace, and how many the filter keeps. */
	readonly total: number;
	readonly matched: number;
	/** Packet-provider events (0: the trace holds no capture). */
	readonly captureEvents: number;
	/** What was wrong with how packets were logged, each naming its file offset. */
	readonly problems: readonly Message[];
	readonly head: PacketRowView[];
}

export interface PacketDetails {
	readonly row: PacketRowView;
	readonly interfaceDescription: string | null;
	/** Each protocol header found, outermost first, with its fields. */
	readonly layers: readonly Layer[];
	readonly bytes: Uint8Array;
	readonly fragments: number;
	readonly info: Message | null;
	readonly remote: string | null;
}

/** Most packets a socket's story lists. */
export const MAX_SOCKET_PACKETS = 500;

/** What the wire says about one socket: its facts and its first packets. */
export interface SocketPackets {
	/** The trace holds captured packets at all (else there is nothing to say). */
	readonly captured: boolean;
	readonly wire: WireFacts | null;
	/** Its packets, and the first MAX_SOCKET_PACKETS of them. */
	readonly total: number;
	readonly rows: PacketRowView[];
	/** Each row's time in milliseconds after the first row's. */
	readonly sinceFirstMs: number[];
}

export interface OpenedTrace {
	readonly trace: TraceSummary;
	readonly eventTypes: EventType[];
	readonly processes: [number, string][];
}

/**
 * What the decoder worker offers the page, through Comlink. Every method answers with a Result:
 * expected failures and thrown errors alike arrive as a failure with a code (lib/result.ts).
 */
export interface DecoderApi {
	/**
	 * How the page starts the workers an import hands work to (worker/side-workers.ts): told once,
	 * before the first import.
	 */
	useSideWorkers(start: SideWorkerStarter): Promise<Result<void>>;
	/** Reads the trace header of a dropped or picked file; the File is passed, never its bytes. */
	readFacts(file: File): Promise<Result<TraceFacts>>;
	listTraces(): Promise<Result<TraceSummary[]>>;
	/** The file's fingerprint (worker/fingerprint.ts): a trace of the library with it is this file. */
	fingerprintOf(file: File): Promise<Result<string>>;
	/**
	 * Imports a file into the library; progress is reported through the callback (≤ 10 per
	 * second). A cancelled import fails with `cancelled`, a failed one with its error; neither
	 * leaves anything stored. A damaged trace completes, its damage listed with it.
	 */
	importFile(file: File, onProgress: (p: ImportProgress) => void): Promise<Result<TraceSummary>>;
	/** Continues an interrupted import (the page went away meanwhile) with the same file. */
	resumeImport(
		id: number,
		file: File,
		onProgress: (p: ImportProgress) => void,
	): Promise<Result<TraceSummary>>;
	/** Stops the import of trace `id`, which then deletes what it stored. */
	cancelImport(id: number): Promise<Result<void>>;
	/**
	 * While trace `id` is imported, `listener` is told when its view should ask again (the worker
	 * spaces these as the import grows), and once more when the import has completed. Returns a
	 * number for `unfollowImport`.
	 */
	followImport(id: number, listener: (c: ChunksCommitted) => void): Promise<Result<number>>;
	unfollowImport(following: number): Promise<Result<void>>;
	renameTrace(id: number, name: string): Promise<Result<TraceSummary>>;
	deleteTrace(id: number): Promise<Result<void>>;
	openTrace(id: number): Promise<Result<OpenedTrace>>;
	/**
	 * Runs a filter over a time range; its answer holds a handle to the selection, which the
	 * requests below take. A later query of the same trace supersedes it. `head`: how many of the
	 * first matching rows to send with the answer.
	 */
	query(
		id: number,
		filter: string,
		range: TimeRange | null,
		head?: number,
		marked?: readonly number[],
	): Promise<Result<QueryAnswer>>;
	/**
	 * Per event (by record index, at most MAX_EVENT_ROWS), the index of the first of `filters`
	 * it matches, or -1: the colouring rules of the rows on screen. A filter that does not parse
	 * matches nothing and says why.
	 */
	ruleMatches(
		id: number,
		filters: readonly string[],
		indexes: readonly number[],
		marked?: readonly number[],
	): Promise<Result<RuleMatches>>;
	/** Rows [offset, offset + limit) of a selection's matches. */
	rows(selection: SelectionHandle, offset: number, limit: number): Promise<Result<RowView[]>>;
	histogram(
		selection: SelectionHandle,
		from: number,
		to: number,
		bins: number,
	): Promise<Result<Histogram>>;
	groupBy(selection: SelectionHandle, key: GroupKey, limit: number): Promise<Result<Group[]>>;
	details(id: number, index: number): Promise<Result<RecordDetails>>;
	/**
	 * The rows of events by their record index, whatever the filter (a socket's events for Follow
	 * socket); indexes past the trace are left out, and at most MAX_EVENT_ROWS are read.
	 */
	eventRows(id: number, indexes: readonly number[]): Promise<Result<RowView[]>>;
	/**
	 * Payload fields (`names`, as a record prints them) of events by record index, for the
	 * columns applied from the details pane; at most MAX_EVENT_ROWS; null for an event that
	 * does not decode or is past the trace.
	 */
	payloadValues(
		id: number,
		indexes: readonly number[],
		names: readonly string[],
	): Promise<Result<(PayloadValues | null)[]>>;
	/** Sockets rebuilt from the trace's Winsock events (stored when the import completed). */
	sockets(id: number): Promise<Result<TrackedTrace>>;
	findings(id: number): Promise<Result<Finding[]>>;
	/** Position of event `index` among a selection's matches, or -1 when it does not match. */
	positionOf(selection: SelectionHandle, index: number): Promise<Result<number>>;
	/** Names in the trace, for the filter's autocomplete (process names learned from its events). */
	vocabulary(id: number): Promise<Result<Vocabulary>>;
	/** Trace facts' trust counters (losses, damage, records without a schema), once imported. */
	trust(id: number): Promise<Result<TrustCounter[]>>;
	/** The Statistics panel's tables over a selection's matches. */
	statistics(selection: SelectionHandle): Promise<Result<TraceStatistics>>;
	/**
	 * Bytes sent and received per interval (`interval` ticks, null to choose one for the span),
	 * counted as the sockets count them. A query of its own: the Events panel's stays current.
	 */
	ioGraph(id: number, source: IoGraphSource, interval: number | null): Promise<Result<IoGraph>>;
	/**
	 * A selection's matches grouped by `columns` in order (query/pivot.ts), at most `limit`
	 * groups under each parent.
	 */
	pivot(
		selection: SelectionHandle,
		columns: readonly PivotColumn[],
		limit: number,
	): Promise<Result<Pivot>>;
	/** The same tree as a file, one row per group (export/pivot-table.ts), in pieces. */
	exportPivot(
		selection: SelectionHandle,
		columns: readonly PivotColumn[],
		format: TableFormat,
		write: (piece: Uint8Array, progress: ExportProgress) => Promise<boolean> | boolean,
	): Promise<Result<{ rows: number; complete: boolean }>>;
	/**
	 * A selection's matches as `sockscope decode` would print them, in pieces of about 1 MiB.
	 * The next piece is made only after `write` returns; returning false stops the export.
	 */
	exportRows(
		selection: SelectionHandle,
		format: ExportFormat,
		write: (piece: string | Uint8Array, progress: ExportProgress) => Promise<boolean> | boolean,
	): Promise<Result<{ rows: number; complete: boolean }>>;
	/**
	 * The trace's sockets, conversations or findings as `sockscope export` writes them, in pieces
	 * (once its import has completed); returning false from `write` stops the export. `only`: the
	 * keys of the sockets the page's list shows (sockets and conversations keep to them), or null.
	 */
	/**
	 * The trace's captured frames, rebuilt and joined to its sockets on the first request: runs
	 * a packet filter (`sockscope packets --filter`), answers its count and first `head` rows.
	 */
	packets(id: number, filter: string, head: number): Promise<Result<PacketAnswer>>;
	/** Rows [offset, offset + limit) of the latest packet filter's frames (`filter` names it). */
	packetRows(
		id: number,
		filter: string,
		offset: number,
		limit: number,
	): Promise<Result<PacketRowView[]>>;
	/** One frame's layers, fields and bytes, by its number. */
	packetDetails(id: number, number: number): Promise<Result<PacketDetails>>;
	/** A socket's packets and what the wire says about it (handshake, RST, retransmissions). */
	socketPackets(id: number, socket: string): Promise<Result<SocketPackets>>;
	/** Protocols and top talkers by process of the captured frames (none: no frames). */
	packetStatistics(id: number): Promise<Result<PacketStatistics>>;
	/** Whether the trace holds a capture provider's events (cheap: no pass over its file). */
	hasPackets(id: number): Promise<Result<boolean>>;
	/**
	 * The frames a pick holds (a filter's, rows picked, a socket's, a conversation's) as pcapng
	 * (`sockscope pcapng`), in pieces; false stops.
	 */
	exportPcapng(
		id: number,
		pick: PacketPick,
		write: (piece: Uint8Array) => Promise<boolean> | boolean,
	): Promise<Result<{ frames: number; complete: boolean }>>;
	/** The frames a pick holds as the `packets` table of `sockscope export`, in pieces. */
	exportPacketTable(
		id: number,
		pick: PacketPick,
		format: TableFormat,
		write: (piece: Uint8Array) => Promise<boolean> | boolean,
	): Promise<Result<{ rows: number; complete: boolean }>>;
	exportTable(
		id: number,
		table: SocketTableName,
		format: TableFormat,
		only: readonly string[] | null,
		write: (piece: Uint8Array, progress: ExportProgress) => Promise<boolean> | boolean,
	): Promise<Result<{ rows: number; complete: boolean }>>;
}
