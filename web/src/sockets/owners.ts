// Who each event is about, as the sockets know it once the whole trace has been followed: the
// header PID of a completion or a TCPIP event is often System's (4) or whichever process the CPU
// was interrupted in, while its socket (its AFD endpoint) or its TCP connection knows the owner.
// Kept as a small table (per endpoint, where each socket's events start; per TCPIP event of a
// known connection, its PID) that the query layer joins to the rows at read time
// (query/owner-join.ts): no column is written again, and an import costs what it did.
import { socketConnections, type NetCollector } from './enrich.ts';
import type { SocketSummary } from './socket.ts';
import type { TrackedTrace } from './tracker.ts';
import { UNKNOWN_OWNER, type EndpointOwners, type EventOwners } from '../columns/event-owners.ts';

/**
 * The owners table of a followed trace: `sockets` as enrich() gives them (a socket whose own
 * events named no PID has TCP/IP's by then), `net` the collector that fed it.
 */
export function eventOwners(sockets: readonly SocketSummary[], net: NetCollector): EventOwners {
	const endpoints = new Map<string, { first: number[]; pid: number[] }>();
	// Sockets come in order of their first event: each endpoint's list is ascending.
	for (const s of sockets) {
		let e = endpoints.get(s.endpoint);
		if (!e) endpoints.set(s.endpoint, (e = { first: [], pid: [] }));
		e.first.push(s.firstEvent.index);
		e.pid.push(s.pid ?? UNKNOWN_OWNER);
	}
	// A connection's process: the socket joined to it (the first that claims it), else the PID
	// TCP/IP itself named (payload ProcessId or rundown Pid, above 4).
	const owner = new Map<object, number>();
	for (const s of sockets)
		if (s.pid !== null)
			for (const c of socketConnections(s, net)) if (!owner.has(c)) owner.set(c, s.pid);
	const rows: [number, number][] = [];
	for (const c of net.tcp.connections()) {
		const pid = owner.get(c) ?? c.rundown?.pid ?? c.pid;
		if (pid !== null && pid !== undefined) for (const r of c.rows) rows.push([r, pid]);
	}
	rows.sort((a, b) => a[0] - b[0]);
	return {
		endpoints: endpoints as Map<string, EndpointOwners>,
		tcpRows: Uint32Array.from(rows, (r) => r[0]),
		tcpPids: Uint32Array.from(rows, (r) => r[1]),
	};
}

/** A followed trace, enriched, with its owners table. */
export function withOwners(t: TrackedTrace, net: NetCollector): TrackedTrace {
	return { ...t, owners: eventOwners(t.sockets, net) };
}
