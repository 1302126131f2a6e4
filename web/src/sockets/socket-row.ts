// One socket as a flat row: the columns of `sockscope sockets` (CSV and NDJSON) and of the
// exported `sockets` table, in one place.
import { familyName, protocolName, typeName } from './format.ts';
import type { SocketSummary } from './socket.ts';

export const SOCKET_COLUMNS = [
	'pid',
	'process',
	'endpoint',
	'generation',
	'family',
	'type',
	'protocol',
	'local',
	'remote',
	'opened',
	'closed',
	'state',
	'connect_ms',
	'bytes_sent',
	'bytes_received',
	'sends',
	'receives',
	'error',
	'ended_by',
	// Appended, so the columns before them keep their places.
	'remote_name',
	'remote_names',
] as const;

export type SocketRow = Record<(typeof SOCKET_COLUMNS)[number], string | number | null>;

/** One socket as a row of the `sockets` command. */
export function socketRow(s: SocketSummary): SocketRow {
	return {
		pid: s.pid,
		process: s.process,
		endpoint: s.endpoint,
		generation: s.generation,
		family: familyName(s.family),
		type: typeName(s.type),
		protocol: protocolName(s.protocol),
		local: s.local,
		remote: s.remote,
		remote_name: s.remoteName ?? null,
		// CSV cell: the names separated by spaces (NDJSON has the list).
		remote_names: (s.remoteNames ?? []).join(' '),
		opened: s.opened?.iso ?? null,
		closed: s.closed?.iso ?? null,
		state: s.state,
		connect_ms: s.connect?.ms ?? null,
		bytes_sent: s.bytesSent,
		bytes_received: s.bytesReceived,
		sends: s.sends,
		receives: s.receives,
		error: s.error,
		ended_by: s.endedBy,
	};
}
