// The Owner of each row, joined at read time from the sockets' owners table (sockets/owners.ts):
// a Winsock event's owner is its socket's process (the socket its endpoint named at that point in
// the trace: endpoints are reused, so the latest socket on it whose first event is not later), a
// TCPIP event's the process of its TCP connection; any other row, or one whose socket never told
// its process, keeps what its own record says (the Process column, whose trust in the header PID
// the chunk builder decided). The stored columns are not touched: the join needs the endpoint,
// event type and Process columns and the row's place in the trace.
import { NO_PID, type ColumnName, type ReadColumns, type EventType } from '../columns/layout.ts';
import {
	OWNER_SOURCES,
	SOURCE_HEADER,
	SOURCE_SOCKET,
	SOURCE_TCPIP,
	UNKNOWN_OWNER,
	ownerLookup,
	type EndpointOwners,
	type EventOwners,
	type OwnerLookup,
	type OwnerSource,
} from '../columns/event-owners.ts';

export { OWNER_SOURCES, type OwnerSource };

/** A chunk's owners: PID (NO_PID when none) and source (OWNER_SOURCES index, 0 none) per row. */
export interface RowOwners {
	readonly pid: Uint32Array;
	readonly source: Uint8Array;
}

/** The columns the join reads. */
export const OWNER_INPUTS = ['etype', 'endpoint', 'process'] as const satisfies ColumnName[];

export type OwnerInputs = Pick<ReadColumns, (typeof OWNER_INPUTS)[number]>;

export interface OwnerTables {
	readonly strings: readonly string[];
	readonly eventTypes: readonly EventType[];
}

/** The last index k with list[k] <= x, or -1. */
function lastAtOrBelow(list: ArrayLike<number>, x: number): number {
	let lo = 0;
	let hi = list.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (list[mid]! <= x) lo = mid + 1;
		else hi = mid;
	}
	return lo - 1;
}

export class OwnerJoin {
	readonly #owners: OwnerLookup | null;
	/** Per string index: the endpoint's sockets, null when none (undefined: not looked up yet). */
	readonly #byString: (EndpointOwners | null | undefined)[] = [];

	/** `owners` null: no sockets known (yet): every row keeps its own record's process. */
	constructor(owners: EventOwners | OwnerLookup | null) {
		this.#owners = owners && ownerLookup(owners);
	}

	get known(): boolean {
		return this.#owners !== null;
	}

	#endpoint(index: number, strings: readonly string[]): EndpointOwners | null {
		let e = this.#byString[index];
		if (e === undefined) e = this.#byString[index] = this.#owners!.endpointAt(index, strings);
		return e;
	}

	/** The owners of `rows` rows whose first is row `base` of the trace. */
	columns(c: OwnerInputs, rows: number, base: number, t: OwnerTables): RowOwners {
		const pid = new Uint32Array(rows);
		const source = new Uint8Array(rows);
		const owners = this.#owners;
		const afd = t.eventTypes.map((x) => x.afd);
		const tcpRows = owners?.tcpRows;
		let p = tcpRows ? lastAtOrBelow(tcpRows, base - 1) + 1 : 0;
		for (let i = 0; i < rows; i++) {
			const g = base + i;
			if (owners) {
				const ep = c.endpoint[i]!;
				if (ep !== 0 && afd[c.etype[i]!]) {
					const e = this.#endpoint(ep, t.strings);
					const k = e ? lastAtOrBelow(e.first, g) : -1;
					if (k >= 0 && e!.pid[k] !== UNKNOWN_OWNER) {
						pid[i] = e!.pid[k]!;
						source[i] = SOURCE_SOCKET;
						continue;
					}
				}
				while (p < tcpRows!.length && tcpRows![p]! < g) p++;
				if (p < tcpRows!.length && tcpRows![p] === g) {
					pid[i] = owners.tcpPids[p]!;
					source[i] = SOURCE_TCPIP;
					continue;
				}
			}
			const own = c.process[i]!;
			pid[i] = own;
			source[i] = own === NO_PID ? 0 : SOURCE_HEADER;
		}
		return { pid, source };
	}
}
