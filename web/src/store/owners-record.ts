// The owners table as it is stored: typed arrays and one list of endpoint names, apart from the
// sockets. A trace's first query joins the owners to its rows, and reading them back must not
// wait on the sockets: a 25 M-event trace's took 1.5 s to read, its owners a few milliseconds.
import type { EndpointOwners, EventOwners } from '../columns/event-owners.ts';

export interface PackedOwners {
	/** The endpoints, by pointer text. */
	readonly endpoints: string[];
	/** Where each endpoint's sockets start in `first` and `pid`; one more entry, the end. */
	readonly starts: Uint32Array;
	/** Record index of each socket's first event on its endpoint (EndpointOwners.first). */
	readonly first: Float64Array;
	/** That socket's PID, or UNKNOWN_OWNER (EndpointOwners.pid). */
	readonly pid: Float64Array;
	readonly tcpRows: Uint32Array;
	readonly tcpPids: Uint32Array;
}

export function packOwners(owners: EventOwners): PackedOwners {
	const endpoints = [...owners.endpoints.keys()];
	const starts = new Uint32Array(endpoints.length + 1);
	let n = 0;
	for (const [k, e] of [...owners.endpoints.values()].entries()) {
		starts[k] = n;
		n += e.first.length;
	}
	starts[endpoints.length] = n;
	const first = new Float64Array(n);
	const pid = new Float64Array(n);
	for (const [k, e] of [...owners.endpoints.values()].entries()) {
		first.set(Array.from(e.first), starts[k]!);
		pid.set(Array.from(e.pid), starts[k]!);
	}
	return { endpoints, starts, first, pid, tcpRows: owners.tcpRows, tcpPids: owners.tcpPids };
}

/** The table again; each endpoint's lists are views of the stored arrays, not copies. */
export function unpackOwners(packed: PackedOwners): EventOwners {
	const { starts, first, pid } = packed;
	const endpoints = new Map<string, EndpointOwners>();
	for (const [k, name] of packed.endpoints.entries()) {
		const [from, to] = [starts[k]!, starts[k + 1]!];
		endpoints.set(name, { first: first.subarray(from, to), pid: pid.subarray(from, to) });
	}
	return { endpoints, tcpRows: packed.tcpRows, tcpPids: packed.tcpPids };
}
