// Event builders for Microsoft-Windows-DNS-Client, Microsoft-Windows-TCPIP,
// Microsoft-Windows-Winsock-NameResolution, Microsoft-Windows-NDIS-PacketCapture and
// Microsoft-Windows-PktMon: user data laid out from the field lists in
// schema/{dns-client,tcpip,winsock-nameresolution,ndis-packetcapture,pktmon}.json (read at runtime,
// independently of the generated decoder tables), plus helpers that spell answers the way Windows
// logs them.

import { readFileSync } from 'node:fs';
import { ByteWriter, ipv4Bytes, ipv6Bytes, normGuid, sockaddrBytes } from './bytes.ts';
import type { EventInput } from './etl-writer.ts';
import type { PayloadValue, PayloadValues } from './payloads.ts';
import { STATUS_IO_TIMEOUT, STATUS_NETWORK_UNREACHABLE } from './afd-vocabulary.ts';

interface NetField {
	name: string;
	inType: string;
	outType: string | null;
	size?: string;
	/** Bytes per unit of the length field (a counted array). */
	scale?: number;
}
interface NetEvent {
	id: number;
	version: number;
	level: number;
	fields: NetField[];
}
interface NetSchema {
	guid: string;
	events: NetEvent[];
}

export type NetProvider = 'dns' | 'tcpip' | 'nameres' | 'ndiscap' | 'pktmon';

const FILES: Record<NetProvider, string> = {
	dns: 'dns-client.json',
	tcpip: 'tcpip.json',
	nameres: 'winsock-nameresolution.json',
	ndiscap: 'ndis-packetcapture.json',
	pktmon: 'pktmon.json',
};

const schemas = new Map<NetProvider, NetSchema>();
function schema(p: NetProvider): NetSchema {
	let s = schemas.get(p);
	if (!s) {
		const url = new URL(`../../schema/${FILES[p]}`, import.meta.url);
		s = JSON.parse(readFileSync(url, 'utf8')) as NetSchema;
		schemas.set(p, s);
	}
	return s;
}

export const DNS_PROVIDER = normGuid('{1C95126E-7EEA-49A9-A3FE-A378B03DDB4D}');
export const TCPIP_PROVIDER = normGuid('{2F07E2EE-15DB-40F1-90EF-9D7BA282188A}');
export const NAMERES_PROVIDER = normGuid('{55404E71-4DB9-4DEB-A5F5-8F86E46DDE56}');
export const NDISCAP_PROVIDER = normGuid('{2ED6006E-4729-4609-B423-3EE7BCD678EF}');
export const PKTMON_PROVIDER = normGuid('{4D4F80D9-C8BD-4D73-BB5B-19C90402C5AC}');
const GUIDS: Record<NetProvider, string> = {
	dns: DNS_PROVIDER,
	tcpip: TCPIP_PROVIDER,
	nameres: NAMERES_PROVIDER,
	ndiscap: NDISCAP_PROVIDER,
	pktmon: PKTMON_PROVIDER,
};

/** The fields that hold another field's length (the writer fills them in unless given). */
export function lengthFields(p: NetProvider, id: number, version = 0): Set<string> {
	return new Set(
		findEvent(p, id, version)
			.fields.filter((f) => f.size?.startsWith('field:'))
			.map((f) => f.size!.slice('field:'.length)),
	);
}

function findEvent(p: NetProvider, id: number, version: number): NetEvent {
	const ev = schema(p).events.find((e) => e.id === id && e.version === version);
	if (!ev) throw new Error(`${p}: no event ${id} version ${version} in the schema`);
	return ev;
}

function bigOf(v: PayloadValue | undefined, label: string): bigint {
	if (v === undefined) return 0n;
	if (typeof v === 'bigint') return v;
	if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
	if (typeof v === 'string' && /^(0x[0-9a-f]+|\d+)$/i.test(v)) return BigInt(v);
	throw new Error(`${label}: expected a number`);
}

/**
 * User data of one event: UnicodeString/AnsiString NUL-terminated, GUID 16 bytes, integers LE,
 * a SOCKADDR ('a.b.c.d:port', '[v6]:port' or bytes) after its length field, which the writer
 * fills in unless given. Unknown field names throw; missing values are 0 or empty.
 */
export function netPayload(
	p: NetProvider,
	id: number,
	values: PayloadValues,
	pointerSize: 4 | 8 = 8,
	version = 0,
): Uint8Array {
	const ev = findEvent(p, id, version);
	for (const k of Object.keys(values))
		if (!ev.fields.some((f) => f.name === k))
			throw new Error(`${p} ${id}: unknown field ${k}; fields: ${ev.fields.map((f) => f.name)}`);
	const w = new ByteWriter(64);
	const at = new Map<string, number>();
	for (const f of ev.fields) {
		const v = values[f.name];
		const label = `${p} ${id}.${f.name}`;
		switch (f.inType) {
			case 'win:UnicodeString':
			case 'win:AnsiString':
				if (v !== undefined && typeof v !== 'string') throw new Error(`${label}: not a string`);
				if (f.inType === 'win:UnicodeString') w.utf16z(v ?? '');
				else w.ansiz(v ?? '');
				break;
			case 'win:GUID':
				if (v !== undefined && typeof v !== 'string') throw new Error(`${label}: not a GUID`);
				if (v === undefined) w.fill(0, 16);
				else w.guid(v);
				break;
			case 'win:Pointer':
				w.ptr(bigOf(v, label), pointerSize);
				break;
			case 'win:UInt8':
				w.u8(Number(bigOf(v, label)));
				break;
			case 'win:UInt16':
				at.set(f.name, w.length);
				w.u16(Number(bigOf(v, label)));
				break;
			case 'win:UInt32':
			case 'win:Boolean':
				at.set(f.name, w.length);
				if (f.outType === 'win:IPv4' && typeof v === 'string') w.bytes(ipv4Bytes(v));
				else w.u32(Number(bigOf(v, label) & 0xffffffffn));
				break;
			case 'win:Int32':
				w.i32(Number(bigOf(v, label)));
				break;
			case 'win:UInt64':
				w.u64(bigOf(v, label));
				break;
			case 'win:Binary': {
				if (f.outType === 'win:IPv6') {
					if (typeof v !== 'string') throw new Error(`${label}: expected an IPv6 address`);
					w.bytes(ipv6Bytes(v));
					break;
				}
				if (f.outType === 'win:Binary') {
					if (v !== undefined && !(v instanceof Uint8Array))
						throw new Error(`${label}: expected bytes`);
					const bytes = v ?? new Uint8Array(0);
					const lengthField = f.size?.slice('field:'.length);
					if (lengthField !== undefined && values[lengthField] === undefined) {
						const n = bytes.length / (f.scale ?? 1);
						const where = at.get(lengthField)!;
						const wide = ev.fields.find((g) => g.name === lengthField)!.inType;
						if (wide === 'win:UInt16') w.setU16(where, n);
						else w.setU32(where, n);
					}
					w.bytes(bytes);
					break;
				}
				const bytes =
					v === undefined
						? new Uint8Array(0)
						: typeof v === 'string'
							? sockaddrBytes(v)
							: v instanceof Uint8Array
								? v
								: null;
				if (!bytes) throw new Error(`${label}: expected an address or bytes`);
				const lengthField = f.size!.slice('field:'.length);
				if (values[lengthField] === undefined) w.setU32(at.get(lengthField)!, bytes.length);
				w.bytes(bytes);
				break;
			}
			default:
				throw new Error(`${label}: unsupported ${f.inType}`);
		}
	}
	return w.finish();
}

export interface NetEventInput {
	cpu: number;
	time: bigint;
	pid: number;
	tid: number;
	id: number;
	values: PayloadValues;
	version?: number;
	pointerSize?: 4 | 8;
	/** The header's keyword (NDIS-PacketCapture says direction, media and fragments in it). */
	keyword?: bigint;
}

/** An EtlWriter.addEvent input for one event of a provider. */
export function netEvent(p: NetProvider, e: NetEventInput): EventInput {
	const version = e.version ?? 0;
	const ev = findEvent(p, e.id, version);
	const ptr = e.pointerSize ?? 8;
	return {
		cpu: e.cpu,
		time: e.time,
		pointerSize: ptr,
		pid: e.pid,
		tid: e.tid,
		provider: GUIDS[p],
		id: e.id,
		version,
		level: ev.level,
		...(e.keyword === undefined ? {} : { keyword: e.keyword }),
		payload: netPayload(p, e.id, e.values, ptr, version),
	};
}

/** One item of a DNS answer: an address, or a CNAME the query name pointed at. */
export type DnsItem = { address: string } | { cname: string };

/**
 * `QueryResults` the way DNS-Client writes it: IPv4 as `::ffff:a.b.c.d;`, IPv6 plainly, a CNAME
 * as `type:  5 name;` (two spaces), each item ending in ';'.
 */
export function dnsQueryResults(items: readonly DnsItem[]): string {
	return items
		.map((x) =>
			'cname' in x
				? `type:  5 ${x.cname};`
				: /^\d+\.\d+\.\d+\.\d+$/.test(x.address)
					? `::ffff:${x.address};`
					: `${x.address};`,
		)
		.join('');
}

/** Values of a DNS-Client 3008 (query completed): name, type 1 (A) or 28 (AAAA), status, items. */
export function dnsAnswerValues(
	name: string,
	items: readonly DnsItem[],
	status = 0,
	type = 1,
): PayloadValues {
	return {
		QueryName: name,
		QueryType: type,
		QueryOptions: 0x40000000n,
		QueryStatus: status,
		QueryResults: dnsQueryResults(items),
	};
}

/** Values of a TCPIP connection event that carries both addresses (1002, 1017–1048, 1183–1187). */
export function tcpValues(
	id: number,
	local: string,
	remote: string,
	extra: PayloadValues = {},
): PayloadValues {
	const ev = findEvent('tcpip', id, 0);
	const values: Record<string, PayloadValue> = { LocalAddress: local, RemoteAddress: remote };
	if (ev.fields.some((f) => f.name === 'Tcb')) values.Tcb = 0xffffb30012340000n;
	return { ...values, ...extra };
}

/** Where and by whom a DNS/TCPIP event is logged (header PIDs of these are not trusted). */
export interface NetAt {
	readonly time: bigint;
	readonly pid: number;
	readonly tid?: number;
	readonly cpu?: number;
}

interface Writer {
	addEvent(e: EventInput): number;
}

const base = (at: NetAt) => ({ cpu: at.cpu ?? 0, time: at.time, pid: at.pid, tid: at.tid ?? 1 });

/**
 * A DNS lookup as the client logs it: 3006 (query started) then 3008 with the results; returns
 * the add index of the 3008 (the answer). `gapTicks` separates the two.
 */
export function addDnsLookup(
	w: Writer,
	at: NetAt,
	name: string,
	items: readonly DnsItem[],
	o: { status?: number; type?: number; gapTicks?: bigint } = {},
): number {
	const type = o.type ?? 1;
	const gap = o.gapTicks ?? 20_000n;
	w.addEvent(
		netEvent('dns', {
			...base(at),
			time: at.time - gap,
			id: 3006,
			values: { QueryName: name, QueryType: type, IsNetworkQuery: 1 },
		}),
	);
	return w.addEvent(
		netEvent('dns', {
			...base(at),
			id: 3008,
			values: dnsAnswerValues(name, items, o.status ?? 0, type),
		}),
	);
}

/** A getaddrinfo result (NameResolution 1001): node name, status, `Result` as addresses with ';'. */
export function addGaiResult(
	w: Writer,
	at: NetAt,
	node: string,
	addresses: readonly string[],
	status = 0,
): number {
	return w.addEvent(
		netEvent('nameres', {
			...base(at),
			id: 1001,
			values: { NodeName: node, Status: status, Result: addresses.map((a) => `${a};`).join('') },
		}),
	);
}

/** How a scripted TCP connect ends. */
export interface TcpScript {
	/** SYN retransmissions (1186 each, RexmitCount 1..n) before the outcome. */
	readonly synRetransmits?: number;
	/** 'connected' (1033 status 0), a failure event id (1018–1021, 1034, 1183 refused), or 'timeout' (1045). */
	readonly outcome: 'connected' | 'timeout' | 1018 | 1019 | 1020 | 1021 | 1034 | 1183;
	/** NTSTATUS of a failure (1018–1021, 1034, 1045). */
	readonly status?: number;
	/** Data retransmissions (1187) after connecting. */
	readonly dataRetransmits?: number;
	/** Ticks between consecutive events (default 1 ms). */
	readonly stepTicks?: bigint;
	/** The PID in the payload's ProcessId. */
	readonly processId?: number;
}

/**
 * A TCP connect as TCPIP logs it: 1002 request, 1031 proceeding, SYN retransmissions, then the
 * outcome. Returns the add indexes of the events, in order.
 */
export function addTcpConnect(
	w: Writer,
	at: NetAt,
	local: string,
	remote: string,
	s: TcpScript,
): number[] {
	const step = s.stepTicks ?? 10_000n;
	let t = at.time;
	const adds: number[] = [];
	const pid = s.processId ?? 0;
	const add = (id: number, extra: PayloadValues = {}) => {
		adds.push(
			w.addEvent(
				netEvent('tcpip', {
					...base(at),
					time: t,
					id,
					values: tcpValues(id, local, remote, extra),
				}),
			),
		);
		t += step;
	};
	add(1002, { NewState: 2, RexmitCount: 0 });
	add(1031, { Status: 0, ProcessId: pid });
	for (let k = 1; k <= (s.synRetransmits ?? 0); k++) add(1186, { NewState: 2, RexmitCount: k });
	if (s.outcome === 'connected') {
		add(1033, { Status: 0, ProcessId: pid });
		for (let k = 1; k <= (s.dataRetransmits ?? 0); k++) add(1187, { NewState: 4, RexmitCount: k });
	} else if (s.outcome === 'timeout')
		add(1045, { Status: s.status ?? STATUS_IO_TIMEOUT, ProcessId: pid });
	else if (s.outcome === 1183) add(1183, { NewState: 0, RexmitCount: 0 });
	else add(s.outcome, { Status: s.status ?? STATUS_NETWORK_UNREACHABLE, ProcessId: pid });
	return adds;
}

/** A connection rundown (1300): a connection open when the session started, with its own Pid. */
export function addTcpRundown(
	w: Writer,
	at: NetAt,
	local: string,
	remote: string,
	pid: number,
	state = 5,
): number {
	return w.addEvent(
		netEvent('tcpip', {
			...base(at),
			id: 1300,
			values: tcpValues(1300, local, remote, { State: state, Pid: pid }),
		}),
	);
}
