// The owners table's shape (built by sockets/owners.ts, stored with the sockets, joined to the
// events' rows by query/owner-join.ts): data only, kept beside the columns it is joined to so that
// the sockets and the query layer both name it without importing each other.
import type { EventIndex } from '../decoder/units.ts';

/**
 * Where an event's owner comes from: its socket (the AFD endpoint it names), its TCP connection
 * (TCPIP events), or only its own record (the Process column: the header PID, or for Winsock
 * events the PID learned for their Process where the header could be trusted).
 */
export type OwnerSource = 'header' | 'socket' | 'tcpip';

/** The sources as numbers, as the query layer's owner columns hold them (0: no owner). */
export const OWNER_SOURCES: readonly (OwnerSource | null)[] = [null, 'header', 'socket', 'tcpip'];
export const SOURCE_HEADER = 1;
export const SOURCE_SOCKET = 2;
export const SOURCE_TCPIP = 3;

/** No PID known (the sockets' table of a socket whose process no event told). */
export const UNKNOWN_OWNER = -1;

export interface EndpointOwners {
	/** Record index of each socket's first event on the endpoint, ascending (one per generation). */
	readonly first: ArrayLike<EventIndex>;
	/** That socket's PID, UNKNOWN_OWNER when no event told it. */
	readonly pid: ArrayLike<number>;
}

export interface EventOwners {
	/** By AFD endpoint pointer text ('0xffff…'). */
	readonly endpoints: Map<string, EndpointOwners>;
	/** TCPIP events of connections whose process is known: record indexes, ascending. */
	readonly tcpRows: Uint32Array;
	/** And their PIDs. */
	readonly tcpPids: Uint32Array;
}

/**
 * The owners table as the join reads it: an endpoint's sockets by the index of its pointer text
 * among the trace's strings (the Endpoint column's values). A table read back from storage is
 * kept by index: it is ready without building a map of every endpoint's text.
 */
export interface OwnerLookup {
	endpointAt(stringIndex: number, strings: readonly string[]): EndpointOwners | null;
	readonly tcpRows: Uint32Array;
	readonly tcpPids: Uint32Array;
}

/** A table built by the tracker (endpoints by text), or one read by index, as the join reads it. */
export function ownerLookup(owners: EventOwners | OwnerLookup): OwnerLookup {
	if ('endpointAt' in owners) return owners;
	const byText = owners.endpoints;
	return {
		endpointAt: (index, strings) => byText.get(strings[index]!) ?? null,
		tcpRows: owners.tcpRows,
		tcpPids: owners.tcpPids,
	};
}
