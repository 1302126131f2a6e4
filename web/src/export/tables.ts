// The tables an export writes, typed for Parquet: events (one row per record, the columns an
// analyst queries plus the payload as JSON), sockets, conversations and findings. The same rows
// go to NDJSON and CSV. Column names are snake_case, as SQL engines like them.
import type { RecordJson } from '../decoder/record-json.ts';
import {
	NO_PID,
	FLAG_BYTES,
	FLAG_ERROR,
	FLAG_STATUS,
	type ReadColumns,
} from '../columns/layout.ts';
import type { FilterContext } from '../query/filter-nodes.ts';
import { statusName } from '../query/filter-compile.ts';
import { OWNER_SOURCES, type RowOwners } from '../query/owner-join.ts';
import type { Conversation } from '../sockets/conversations.ts';
import type { Finding } from '../sockets/findings.ts';
import type { SocketSummary } from '../sockets/socket.ts';
import type { Row, TableColumn } from './table-writer.ts';
import { canonicalAddress } from '../net/ip.ts';
import { socketRow } from '../sockets/socket-row.ts';

export const EVENT_COLUMNS: readonly TableColumn[] = [
	{ name: 'index', type: 'INT64' },
	{ name: 'filetime', type: 'INT64' },
	{ name: 'time', type: 'TIMESTAMP' },
	{ name: 'kind', type: 'STRING' },
	{ name: 'provider', type: 'STRING' },
	{ name: 'provider_guid', type: 'STRING' },
	{ name: 'id', type: 'INT32' },
	{ name: 'version', type: 'INT32' },
	{ name: 'name', type: 'STRING' },
	{ name: 'level', type: 'INT32' },
	{ name: 'opcode', type: 'INT32' },
	{ name: 'pid', type: 'INT64' },
	{ name: 'tid', type: 'INT64' },
	{ name: 'cpu', type: 'INT32' },
	{ name: 'process_id', type: 'INT64' },
	{ name: 'process', type: 'STRING' },
	/** Through the event's socket or TCP connection (query/owner-join.ts), else its own process. */
	{ name: 'owner_pid', type: 'INT64' },
	{ name: 'owner', type: 'STRING' },
	/** header, socket or tcpip. */
	{ name: 'owner_source', type: 'STRING' },
	{ name: 'endpoint', type: 'STRING' },
	{ name: 'local', type: 'STRING' },
	{ name: 'remote', type: 'STRING' },
	{ name: 'remote_address', type: 'STRING' },
	{ name: 'remote_port', type: 'INT32' },
	/** The DNS name of the remote address, when the trace tells it (not yet: always null). */
	{ name: 'remote_name', type: 'STRING' },
	{ name: 'bytes', type: 'INT64' },
	{ name: 'status', type: 'INT64' },
	{ name: 'status_name', type: 'STRING' },
	{ name: 'error', type: 'BOOLEAN' },
	{ name: 'payload', type: 'JSON' },
];

/**
 * The canonical form of each address string, by its index in a trace's strings table (which only
 * grows): an address is parsed once per export, not once per row. The names are looked up on
 * every row, as the table of names grows while a trace is imported.
 */
const canonicalByString = new WeakMap<readonly string[], (string | null)[]>();

function remoteName(ctx: FilterContext, index: number): string | null {
	let canonical = canonicalByString.get(ctx.strings);
	if (!canonical) canonicalByString.set(ctx.strings, (canonical = []));
	let a = canonical[index];
	if (a === undefined) canonical[index] = a = canonicalAddress(ctx.strings[index]!);
	return a === null ? null : (ctx.hostNames?.get(a)?.[0] ?? null);
}

/** Where an event's row is read from its chunk: the columns, the names, its owners. */
export interface RowAt {
	readonly c: ReadColumns;
	readonly i: number;
	readonly ctx: FilterContext;
	/** The event's index in the trace. */
	readonly index: number;
	readonly owners: RowOwners;
}

type RowValue = string | number | boolean | null;

/** A socket address as text, or null when the row has none (string index 0). */
function addressAt(ctx: FilterContext, a: number, port: number): string | null {
	if (!a) return null;
	const s = ctx.strings[a]!;
	return s.includes(':') ? `[${s}]:${port}` : `${s}:${port}`;
}

/** The events table's columns read from the chunk alone (no record): who, where, how much. */
export const COLUMN_VALUES: Readonly<Record<string, (a: RowAt) => RowValue>> = {
	index: (a) => a.index,
	process_id: ({ c, i }) => (c.process[i] === NO_PID ? null : c.process[i]!),
	process: ({ c, i, ctx }) =>
		c.process[i] === NO_PID ? null : (ctx.processNames.get(c.process[i]!) ?? null),
	owner_pid: ({ owners, i }) => (owners.source[i] === 0 ? null : owners.pid[i]!),
	owner: ({ owners, i, ctx }) =>
		owners.source[i] === 0 ? null : (ctx.processNames.get(owners.pid[i]!) ?? null),
	owner_source: ({ owners, i }) => OWNER_SOURCES[owners.source[i]!] ?? null,
	endpoint: ({ c, i, ctx }) => (c.endpoint[i] ? ctx.strings[c.endpoint[i]!]! : null),
	local: ({ c, i, ctx }) => addressAt(ctx, c.laddr[i]!, c.lport[i]!),
	remote: ({ c, i, ctx }) => addressAt(ctx, c.raddr[i]!, c.rport[i]!),
	remote_address: ({ c, i, ctx }) => (c.raddr[i] ? ctx.strings[c.raddr[i]!]! : null),
	remote_port: ({ c, i }) => (c.raddr[i] ? c.rport[i]! : null),
	// The first name the trace's DNS answers gave the address (the sockets table has the one in
	// force when each socket first used it).
	remote_name: ({ c, i, ctx }) => (c.raddr[i] ? remoteName(ctx, c.raddr[i]!) : null),
	bytes: ({ c, i }) => (c.flags[i]! & FLAG_BYTES ? c.bytes[i]! : null),
	status: ({ c, i }) => (c.flags[i]! & FLAG_STATUS ? c.status[i]! : null),
	status_name: ({ c, i }) => (c.flags[i]! & FLAG_STATUS ? statusName(c.status[i]!) : null),
	error: ({ c, i }) => (c.flags[i]! & FLAG_ERROR) !== 0,
};

const V = COLUMN_VALUES;

/** An event's values that its record gives: its header, names and time (eventRow's or BufferEventRows'). */
export interface EventHead {
	filetime: bigint;
	/** ISO text, or microseconds since 1970 (table-writer.ts TIMESTAMP). */
	time: string | bigint | null;
	kind: string;
	provider: string | null;
	provider_guid: string | null;
	id: number;
	version: number;
	name: string | null;
	level: number;
	opcode: number;
	pid: number | null;
	tid: number | null;
	cpu: number;
}

/**
 * An event's row: the values its record gives, who and where from the chunk's columns at `at`
 * (the same values the filter tests), its owner from the chunk's joined owners, and its payload.
 */
export function tableRow(head: Readonly<EventHead>, at: RowAt, payload: unknown): Row {
	return {
		index: at.index,
		filetime: head.filetime,
		time: head.time,
		kind: head.kind,
		provider: head.provider,
		provider_guid: head.provider_guid,
		id: head.id,
		version: head.version,
		name: head.name,
		level: head.level,
		opcode: head.opcode,
		pid: head.pid,
		tid: head.tid,
		cpu: head.cpu,
		process_id: V.process_id!(at),
		process: V.process!(at),
		owner_pid: V.owner_pid!(at),
		owner: V.owner!(at),
		owner_source: V.owner_source!(at),
		endpoint: V.endpoint!(at),
		local: V.local!(at),
		remote: V.remote!(at),
		remote_address: V.remote_address!(at),
		remote_port: V.remote_port!(at),
		remote_name: V.remote_name!(at),
		bytes: V.bytes!(at),
		status: V.status!(at),
		status_name: V.status_name!(at),
		error: V.error!(at),
		payload,
	};
}

/** One event's row from its decoded record (the object `sockscope decode` prints). */
export function eventRow(
	c: ReadColumns,
	i: number,
	ctx: FilterContext,
	r: RecordJson,
	index: number,
	owners: RowOwners,
): Row {
	const head: EventHead = {
		filetime: BigInt(r.filetime),
		time: r.time,
		kind: r.kind,
		provider: r.provider,
		provider_guid: r.providerGuid,
		id: r.id,
		version: r.version,
		name: r.name,
		level: r.level,
		opcode: r.opcode,
		pid: r.pid,
		tid: r.tid,
		cpu: r.cpu,
	};
	// The payload's named fields; undecoded bytes, problems and extended items when there are.
	return tableRow(
		head,
		{ c, i, ctx, index, owners },
		{
			...r.fields,
			...(r.payload !== undefined ? { payload: r.payload } : {}),
			...(r.problem !== undefined ? { problem: r.problem } : {}),
			...(r.extended !== undefined ? { extended: r.extended } : {}),
		},
	);
}

export const SOCKET_TABLE: readonly TableColumn[] = [
	{ name: 'key', type: 'STRING' },
	{ name: 'pid', type: 'INT64' },
	{ name: 'process', type: 'STRING' },
	{ name: 'endpoint', type: 'STRING' },
	{ name: 'generation', type: 'INT32' },
	{ name: 'family', type: 'STRING' },
	{ name: 'type', type: 'STRING' },
	{ name: 'protocol', type: 'STRING' },
	{ name: 'local', type: 'STRING' },
	{ name: 'remote', type: 'STRING' },
	{ name: 'remote_name', type: 'STRING' },
	{ name: 'opened', type: 'TIMESTAMP' },
	{ name: 'closed', type: 'TIMESTAMP' },
	{ name: 'state', type: 'STRING' },
	{ name: 'connect_ms', type: 'DOUBLE' },
	{ name: 'bytes_sent', type: 'INT64' },
	{ name: 'bytes_received', type: 'INT64' },
	{ name: 'sends', type: 'INT64' },
	{ name: 'receives', type: 'INT64' },
	{ name: 'error', type: 'STRING' },
	{ name: 'ended_by', type: 'STRING' },
	{ name: 'events', type: 'INT64' },
];

export function socketTableRow(s: SocketSummary): Row {
	// The command's row without its CSV-only list of names, with the key and the event count.
	const { remote_names: _names, ...row } = socketRow(s);
	return { key: s.key, ...row, events: s.eventCount };
}

export const CONVERSATION_TABLE: readonly TableColumn[] = [
	{ name: 'key', type: 'STRING' },
	{ name: 'pid', type: 'INT64' },
	{ name: 'process', type: 'STRING' },
	{ name: 'remote', type: 'STRING' },
	{ name: 'protocol', type: 'STRING' },
	{ name: 'direction', type: 'STRING' },
	{ name: 'sockets', type: 'INT64' },
	{ name: 'connections', type: 'INT64' },
	{ name: 'connected', type: 'INT64' },
	{ name: 'failed', type: 'INT64' },
	{ name: 'aborted', type: 'INT64' },
	{ name: 'open', type: 'INT64' },
	{ name: 'bytes_sent', type: 'INT64' },
	{ name: 'bytes_received', type: 'INT64' },
	{ name: 'latency_p50_ms', type: 'DOUBLE' },
	{ name: 'latency_p90_ms', type: 'DOUBLE' },
	{ name: 'latency_p99_ms', type: 'DOUBLE' },
];

export function conversationRow(c: Conversation): Row {
	return {
		key: c.key,
		pid: c.pid,
		process: c.process,
		remote: c.remote,
		protocol: c.protocol,
		direction: c.direction,
		sockets: c.sockets.length,
		connections: c.connections,
		connected: c.connected,
		failed: c.failed,
		aborted: c.aborted,
		open: c.open,
		bytes_sent: c.bytesSent,
		bytes_received: c.bytesReceived,
		latency_p50_ms: c.latency?.p50 ?? null,
		latency_p90_ms: c.latency?.p90 ?? null,
		latency_p99_ms: c.latency?.p99 ?? null,
	};
}

export const FINDING_TABLE: readonly TableColumn[] = [
	{ name: 'id', type: 'STRING' },
	{ name: 'kind', type: 'STRING' },
	{ name: 'severity', type: 'STRING' },
	{ name: 'title', type: 'STRING' },
	{ name: 'subject', type: 'STRING' },
	{ name: 'count', type: 'INT64' },
	{ name: 'explanation', type: 'STRING' },
	{ name: 'socket_count', type: 'INT64' },
	{ name: 'event_count', type: 'INT64' },
	{ name: 'sockets', type: 'JSON' },
];

export function findingRow(f: Finding): Row {
	return {
		id: f.id,
		kind: f.kind,
		severity: f.severity,
		title: f.title,
		subject: f.subject,
		count: f.count,
		explanation: f.explanation,
		socket_count: f.socketCount,
		event_count: f.eventCount,
		sockets: f.sockets,
	};
}
