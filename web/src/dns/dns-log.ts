// Every DNS lookup the trace logs, failed ones too: DNS-Client's client-side queries (3006 start,
// 3008 completion, in the asking process), the DNS cache service's own steps (3018 cache, 3020
// wire, 3013 network query, with ClientPID where the build logs it) and getaddrinfo's results
// (Winsock-NameResolution 1001/1004). Fed in trace order by the sockets' NetCollector. Which
// event is which, and which fields hold what, is data (schema/net-semantics.json).
import { DNS_CLIENT_EVENTS, type DnsLookupSource } from '../generated/net-semantics.ts';
import { canonicalAddress } from '../net/ip.ts';
import { parseGaiResult, parseQueryResults } from '../sockets/names.ts';

/** Where a lookup was logged: in the asking process, or by the DNS cache service for it. */
export type DnsSource = DnsLookupSource | 'getaddrinfo';

export interface DnsLookup {
	/** Record index (trace order) and ticks of the event that completed it. */
	readonly index: number;
	readonly ticks: number;
	/** Ticks of its start (DNS-Client 3006 of the same process, name and type), when logged. */
	readonly startTicks: number | null;
	readonly name: string;
	/** DNS record type asked (1 A, 28 AAAA, …), when the event says. */
	readonly type: number | null;
	readonly status: number;
	/** The asking process: the header PID of a client-side event, else the event's ClientPID. */
	readonly pid: number | null;
	readonly source: DnsSource;
	readonly addresses: readonly string[];
	/** CNAMEs the answer passed through. */
	readonly chain: readonly string[];
}

/** What the collector hands over of one event: its fields by name. */
export type FieldOf = (name: string) => string | number | boolean | null;

const normal = (name: string) => name.trim().replace(/\.$/, '');

export class DnsLog {
	readonly lookups: DnsLookup[] = [];
	/** Client-side starts not yet completed: pid|tid|name|type → ticks, oldest first. */
	readonly #started = new Map<string, number[]>();

	/**
	 * A DNS-Client event (one of DNS_CLIENT_EVENTS); `pid` and `tid` are its header's. A client's
	 * query starts and completes on the thread that asked, so the start it matches is the oldest
	 * open one of the same thread, name and type.
	 */
	dnsEvent(
		id: number,
		index: number,
		ticks: number,
		pid: number | null,
		tid: number | null,
		get: FieldOf,
	): void {
		const m = DNS_CLIENT_EVENTS[id];
		if (!m) return;
		const f = m.fields;
		const field = (name: string | null) => (name === null ? null : get(name));
		const name = normal(str(field(f.name)));
		if (!name) return;
		const type = num(field(f.type));
		if (m.role === 'query-start') {
			const key = `${pid}|${tid}|${name}|${type}`;
			const list = this.#started.get(key);
			if (list) list.push(ticks);
			else this.#started.set(key, [ticks]);
			return;
		}
		const source = m.lookup;
		if (!source) return;
		const status = num(field(f.status)) ?? 0;
		const asker = source === 'client' ? pid : (num(field(f.clientPid)) ?? null);
		const { addresses, chain } = parseQueryResults(str(field(f.results)));
		let startTicks: number | null = null;
		if (source === 'client')
			startTicks = this.#started.get(`${pid}|${tid}|${name}|${type}`)?.shift() ?? null;
		this.lookups.push({
			index,
			ticks,
			startTicks,
			name,
			type,
			status,
			pid: asker,
			source,
			addresses,
			chain,
		});
	}

	/** A getaddrinfo result (NameResolution 1001/1004), logged in the asking process. */
	gaiResult(index: number, ticks: number, pid: number | null, get: FieldOf): void {
		const name = normal(str(get('NodeName')));
		// An IP literal resolves to itself: no lookup happened.
		if (!name || canonicalAddress(name) !== null) return;
		const status = num(get('Status')) ?? 0;
		const addresses = parseGaiResult(str(get('Result')));
		this.lookups.push({
			index,
			ticks,
			startTicks: null,
			name,
			type: null,
			status,
			pid,
			source: 'getaddrinfo',
			addresses,
			chain: [],
		});
	}
}

function str(v: string | number | boolean | null): string {
	return typeof v === 'string' ? v : '';
}

function num(v: string | number | boolean | null): number | null {
	return typeof v === 'number' ? v : null;
}
