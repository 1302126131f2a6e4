// What other providers say about the sockets, joined after tracking: DNS-Client and
// NameResolution answers name the remote addresses, TCPIP connection events give the TCP outcome.
// The feeder hands their records to a NetCollector; enrich() then adds to each socket its remote
// name(s) and TCP outcome. The AFD tracker knows nothing of either.
import { RecordOut } from '../generated/layouts.ts';
import { EVENT_SCHEMAS, PROVIDERS } from '../generated/schemas.ts';
import {
	DNS_CLIENT_EVENTS,
	NAME_RESOLUTION_EVENTS,
	TCPIP_EVENTS,
} from '../generated/net-semantics.ts';
import type { DecodedBuffer } from '../decoder/decoded-buffer.ts';
import { eventFields, type FieldValue } from '../decoder/event-fields.ts';
import type { RecordJson } from '../decoder/record-json.ts';
import { addressOfEndpoint } from '../net/ip.ts';
import { NameTable } from './names.ts';
import { DnsLog } from '../dns/dns-log.ts';
import { dnsReport, type DnsReport } from '../dns/dns-report.ts';
import type { SocketSummary } from './socket.ts';
import { TcpTable, tcpOutcome, type TcpConnection } from './tcp.ts';
import type { ProcessInfo } from './processes.ts';
import { withSockets, type TrackedTrace } from './tracker.ts';

const code = (key: string) => PROVIDERS.find((p) => p.key === key)!.code;
const DNS = code('dns');
const TCPIP = code('tcpip');
const NAMERES = code('nameres');
const NET_GUIDS = new Map(
	PROVIDERS.filter((p) => [DNS, TCPIP, NAMERES].includes(p.code)).map((p) => [p.guid, p.code]),
);

/** TCP events of a socket count from a little before its first event to a little after its last. */
const JOIN_SLACK_TICKS = 5 * 10_000_000;

/** Whether a schema (RecordOut.schemaIndex) belongs to a provider the collector reads. */
export function isNetSchema(schemaIndex: number): boolean {
	const p = EVENT_SCHEMAS[schemaIndex]?.provider;
	return p === DNS || p === TCPIP || p === NAMERES;
}

export class NetCollector {
	readonly names = new NameTable();
	/** Every lookup, failed ones too (the DNS view). */
	readonly dns = new DnsLog();
	readonly tcp = new TcpTable();
	readonly #withTcp: boolean;

	/** `withTcp` false: names only (the import's pass that follows process events). */
	constructor(withTcp = true) {
		this.#withTcp = withTcp;
	}

	/** Record i of a buffer (a DNS-Client, TCPIP or NameResolution schema event). */
	feed(buf: DecodedBuffer, i: number, index: number, ticks: number): void {
		const schema = EVENT_SCHEMAS[buf.u16(i, RecordOut.schemaIndex)]!;
		if (!wanted(schema.provider, schema.id)) return;
		if (schema.provider === TCPIP && !this.#withTcp) return;
		const fields = eventFields(
			buf,
			schema,
			buf.u32(i, RecordOut.fieldStart),
			buf.u16(i, RecordOut.fieldCount),
		);
		this.#read(
			schema.provider,
			schema.id,
			index,
			ticks,
			buf.u32(i, RecordOut.pid),
			buf.u32(i, RecordOut.tid),
			(name) => {
				const f = fields.find((x) => x.name === name && !x.missing);
				return f ? f.value : null;
			},
		);
	}

	/** The same from a RecordJson (what `sockscope decode` prints). */
	record(r: RecordJson, index: number, origin: bigint): void {
		const provider = NET_GUIDS.get(r.providerGuid ?? '');
		if (r.kind !== 'event' || provider === undefined || !wanted(provider, r.id)) return;
		const ticks = Number(BigInt(r.filetime) - origin);
		this.#read(provider, r.id, index, ticks, r.pid, r.tid, (name) => {
			const v = r.fields[name];
			return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
		});
	}

	#read(
		provider: number,
		id: number,
		index: number,
		ticks: number,
		headerPid: number | null,
		tid: number | null,
		get: (name: string) => FieldValue,
	): void {
		// A header PID of all ones: none logged.
		const pid = headerPid === null || headerPid === 0xffffffff ? null : headerPid;
		// Fields as the tables name them (null: the event has none).
		const str = (name: string | null) => {
			const v = name === null ? null : get(name);
			return typeof v === 'string' ? v : null;
		};
		const num = (name: string | null) => {
			const v = name === null ? null : get(name);
			return typeof v === 'number' ? v : null;
		};
		if (provider === DNS) {
			const m = DNS_CLIENT_EVENTS[id]!;
			this.dns.dnsEvent(id, index, ticks, pid, tid, get);
			if (m.role !== 'name-answer') return;
			const f = m.fields;
			this.names.dnsAnswer(
				index,
				ticks,
				str(f.name) ?? '',
				num(f.status) ?? 0,
				str(f.results) ?? '',
			);
		} else if (provider === NAMERES) {
			const f = NAME_RESOLUTION_EVENTS[id]!.fields;
			this.dns.gaiResult(index, ticks, pid, get);
			this.names.gaiResult(
				index,
				ticks,
				str(f.name) ?? '',
				num(f.status) ?? 0,
				str(f.results) ?? '',
			);
		} else {
			const f = TCPIP_EVENTS[id]!.fields;
			this.tcp.add({
				index,
				ticks,
				id,
				local: str(f.local),
				remote: str(f.remote),
				status: num(f.status),
				pid: num(f.pid),
				rexmit: num(f.rexmit),
				tcb: str(f.tcb),
			});
		}
	}
}

/** Whether the collector reads an event: one its provider's table names. */
function wanted(provider: number, id: number): boolean {
	const table =
		provider === DNS
			? DNS_CLIENT_EVENTS
			: provider === NAMERES
				? NAME_RESOLUTION_EVENTS
				: provider === TCPIP
					? TCPIP_EVENTS
					: null;
	return table !== null && Object.hasOwn(table, id);
}

/** Where a socket first used its remote: its connect, else its accept, else its last event. */
export function firstUse(s: SocketSummary): number {
	return (
		s.connect?.startIndex ?? (s.listener !== null ? s.opened?.index : null) ?? s.lastEvent.index
	);
}

function localPort(s: SocketSummary): number | null {
	const m = s.local === null ? null : /:(\d+)$/.exec(s.local);
	return m ? Number(m[1]) : null;
}

/**
 * The PID TCP/IP names for a socket whose own events named none: the payload ProcessId or the
 * rundown Pid of the connections joined to it, when they all name the same one.
 */
function tcpPid(connections: readonly TcpConnection[]): number | null {
	const pids = new Set(
		connections.flatMap((c) => {
			const pid = c.rundown?.pid ?? c.pid;
			return pid === null ? [] : [pid];
		}),
	);
	return pids.size === 1 ? pids.values().next().value! : null;
}

/** The TCP connections joined to a socket: its local port and remote, around its lifetime. */
export function socketConnections(s: SocketSummary, net: NetCollector): TcpConnection[] {
	if (s.listening) return [];
	const from = (s.opened ?? s.firstEvent).ticks - JOIN_SLACK_TICKS;
	const to = (s.closed ?? s.lastEvent).ticks + JOIN_SLACK_TICKS;
	return net.tcp.find(localPort(s), s.remote, from, to);
}

/**
 * One socket with its remote names and TCP outcome (and, when its own events named no PID, the
 * one TCP/IP names; `processName` gives that PID's image name).
 */
export function enrichSocket(
	s: SocketSummary,
	net: NetCollector,
	processName: (pid: number) => string | null = () => null,
): SocketSummary {
	const named = net.names.lookup(addressOfEndpoint(s.remote), firstUse(s));
	const connections = socketConnections(s, net);
	const tcp = s.listening ? null : tcpOutcome(connections);
	// Each remote of a datagram socket is named by the answer in force at its first datagram.
	const peers = s.peers.map((p) => ({
		...p,
		remoteName: net.names.lookup(addressOfEndpoint(p.remote), p.first.index).name,
	}));
	const enriched = { ...s, remoteName: named.name, remoteNames: named.names, tcp, peers };
	const pid = s.pid === null ? tcpPid(connections) : null;
	if (pid === null) return enriched;
	return {
		...enriched,
		pid,
		pidSource: 'tcpip',
		process: processName(pid) ?? `PID ${pid}`,
	};
}

/** Whether the collector has anything to add (a trace without these providers has not). */
function adds(net: NetCollector): boolean {
	return net.names.answers !== 0 || net.tcp.events !== 0 || net.dns.lookups.length !== 0;
}

/** The trace's DNS lookups, each with the sockets its answer named; null when it logs none. */
export function dnsOf(
	net: NetCollector,
	sockets: readonly SocketSummary[],
	processes: readonly ProcessInfo[],
): DnsReport | null {
	if (net.dns.lookups.length === 0) return null;
	return dnsReport(
		net.dns.lookups,
		sockets,
		(s) => net.names.lookup(addressOfEndpoint(s.remote), firstUse(s)).index,
		processNames(processes),
	);
}

/** The tracked trace with every socket enriched (a new object; the input is left as it was). */
export function enrich(t: TrackedTrace, net: NetCollector): TrackedTrace {
	// A trace without these providers: nothing to add (sockets read as before).
	if (!adds(net)) return t;
	const name = processNames(t.processes);
	return withDns({ ...t, sockets: t.sockets.map((s) => enrichSocket(s, net, name)) }, net);
}

/**
 * enrich over sockets handed one at a time (SocketTracker.drain): each is enriched as it comes,
 * and only the enriched summaries are held. The same result as enrich of the whole snapshot.
 */
export function enrichDrained(
	overview: Omit<TrackedTrace, 'sockets'>,
	drained: Iterable<SocketSummary>,
	net: NetCollector,
): TrackedTrace {
	const t = withSockets(overview, [...enrichEach(drained, net, overview.processes)]);
	return adds(net) ? withDns(t, net) : t;
}

/** The trace with its DNS lookups, when it logs any. */
function withDns(t: TrackedTrace, net: NetCollector): TrackedTrace {
	const dns = dnsOf(net, t.sockets, t.processes);
	return dns ? { ...t, dns } : t;
}

/** The same one socket at a time, for a reader that holds one summary, not all of them. */
export function* enrichEach(
	sockets: Iterable<SocketSummary>,
	net: NetCollector,
	processes: readonly ProcessInfo[] = [],
) {
	const more = adds(net);
	const name = processNames(processes);
	for (const s of sockets) yield more ? enrichSocket(s, net, name) : s;
}

/** A PID's image name from the processes the trace names (the latest of a reused PID). */
function processNames(processes: readonly ProcessInfo[]): (pid: number) => string | null {
	const names = new Map<number, string>();
	for (const p of processes) if (p.name) names.set(p.pid, p.name);
	return (pid) => names.get(pid) ?? null;
}
