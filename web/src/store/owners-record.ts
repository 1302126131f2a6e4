// The owners table as it is stored: typed arrays only, apart from the sockets. A trace's first
// query joins the owners to its rows, and reading them back must not wait on the sockets: a 25
// M-event trace's took 1.5 s to read. Endpoints are kept as the index of their pointer text among
// the trace's strings (the Endpoint column's values), not as text: 77,000 endpoints' text took
// 0.7 s to read back and 0.3 s to make a map of, before a reopened trace's first rows.
import {
	ownerLookup,
	type EndpointOwners,
	type EventOwners,
	type OwnerLookup,
} from '../columns/event-owners.ts';

interface SocketLists {
	/** Where each endpoint's sockets start in `first` and `pid`; one more entry, the end. */
	readonly starts: Uint32Array;
	/** Record index of each socket's first event on its endpoint (EndpointOwners.first). */
	readonly first: Float64Array;
	/** That socket's PID, or UNKNOWN_OWNER (EndpointOwners.pid). */
	readonly pid: Float64Array;
	readonly tcpRows: Uint32Array;
	readonly tcpPids: Uint32Array;
}

export interface PackedOwners extends SocketLists {
	/** Each endpoint's pointer text, as its index among the trace's strings. */
	readonly endpointStrings: Uint32Array;
}

/** As stored by earlier versions: the endpoints by text. */
export interface PackedOwnersByText extends SocketLists {
	readonly endpoints: string[];
}

export type StoredOwners = PackedOwners | PackedOwnersByText;

/** Where a trace's strings hold a text (TraceTables). */
export interface StringIndex {
	indexOf(text: string): number | undefined;
}

/**
 * An endpoint whose pointer text the trace's strings do not hold is left out: no row names it,
 * so the join never asks for it.
 */
export function packOwners(owners: EventOwners, strings: StringIndex): PackedOwners {
	const kept = [...owners.endpoints].flatMap(([text, e]) => {
		const at = strings.indexOf(text);
		return at === undefined ? [] : [[at, e] as const];
	});
	return {
		endpointStrings: Uint32Array.from(kept, ([at]) => at),
		...socketLists(kept.map(([, e]) => e)),
		tcpRows: owners.tcpRows,
		tcpPids: owners.tcpPids,
	};
}

/** Each endpoint's sockets, one after another in two arrays. */
function socketLists(
	lists: readonly EndpointOwners[],
): Pick<SocketLists, 'starts' | 'first' | 'pid'> {
	const starts = new Uint32Array(lists.length + 1);
	let n = 0;
	for (const [k, e] of lists.entries()) {
		starts[k] = n;
		n += e.first.length;
	}
	starts[lists.length] = n;
	const first = new Float64Array(n);
	const pid = new Float64Array(n);
	for (const [k, e] of lists.entries()) {
		first.set(Array.from(e.first), starts[k]!);
		pid.set(Array.from(e.pid), starts[k]!);
	}
	return { starts, first, pid };
}

/** The table again, as the join reads it; each endpoint's lists are views of the stored arrays. */
export function unpackOwners(packed: StoredOwners): OwnerLookup {
	const { starts, first, pid } = packed;
	const lists = (k: number): EndpointOwners => {
		const [from, to] = [starts[k]!, starts[k + 1]!];
		return { first: first.subarray(from, to), pid: pid.subarray(from, to) };
	};
	if ('endpoints' in packed) {
		const endpoints = new Map<string, EndpointOwners>();
		for (const [k, name] of packed.endpoints.entries()) endpoints.set(name, lists(k));
		return ownerLookup({ endpoints, tcpRows: packed.tcpRows, tcpPids: packed.tcpPids });
	}
	const at = packed.endpointStrings;
	let last = -1;
	for (const s of at) last = Math.max(last, s);
	const endpointOf = new Int32Array(last + 1).fill(-1);
	for (let k = 0; k < at.length; k++) endpointOf[at[k]!] = k;
	return {
		endpointAt: (index) => {
			const k = index < endpointOf.length ? endpointOf[index]! : -1;
			return k < 0 ? null : lists(k);
		},
		tcpRows: packed.tcpRows,
		tcpPids: packed.tcpPids,
	};
}
