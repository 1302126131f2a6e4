// Statistics over a selection, for the Statistics panel: events by type, errors by NTSTATUS,
// processes, and remote endpoints. Every row carries a filter expression that selects its events,
// so a click narrows the table to them. Pure TypeScript over the engine's columns.
//
// Bytes follow the sample's ground-truth rule (tests/fixtures/sample/sample.truth.json):
// BufferLength of completed transfers only, i.e. exit events of AfdSend*/AfdReceive* that did
// not fail, and the legacy *Completed events. Enter events carry the requested size, and data
// indications (3003/3004) are the transport's view, so neither is counted.
import { explainStatus } from '../decoder/status.ts';
import {
	FLAG_BYTES,
	FLAG_ENTER,
	FLAG_NOT_TRANSFER,
	FLAG_TRANSFER_AT_ENTER,
	FLAG_ERROR,
	FLAG_STATUS,
	NO_PID,
	type EventType,
} from '../columns/layout.ts';
import { categoryOf, type HistogramCategory } from '../columns/categories.ts';
import type { QueryEngine } from './engine.ts';
import type { Selection } from './protocol.ts';
import type { FilterContext } from './filter-compile.ts';

// Every row carries a `key` unique within its list: the identity its figures were grouped by, so
// a keyed list in the page can never meet two equal keys (a trace may log one event name under
// several ids, versions and opcodes, and one address text under several string entries).

export interface EventTypeRow {
	readonly key: string;
	readonly label: string;
	readonly provider: string | null;
	readonly category: HistogramCategory;
	readonly count: number;
	readonly errors: number;
	readonly filter: string;
}

export interface ErrorRow {
	readonly key: string;
	readonly status: number;
	readonly name: string;
	readonly hex: string;
	readonly wsa: string | null;
	readonly wsaCode: number | null;
	readonly explanation: string;
	readonly count: number;
	/** Who got it, most often first. */
	readonly processes: readonly {
		key: string;
		pid: number | null;
		name: string | null;
		count: number;
	}[];
	readonly filter: string;
}

export interface ProcessRow {
	readonly key: string;
	readonly pid: number | null;
	readonly name: string | null;
	readonly events: number;
	readonly sockets: number;
	readonly bytesSent: number;
	readonly bytesReceived: number;
	readonly errors: number;
	readonly filter: string;
}

export interface RemoteRow {
	readonly key: string;
	/** "a.b.c.d:port" or "[v6]:port". */
	readonly remote: string;
	/** Sockets talking to it that have events in the selection. */
	readonly connections: number;
	readonly bytesSent: number;
	readonly bytesReceived: number;
	readonly errors: number;
	readonly filter: string;
}

export interface Statistics {
	readonly matched: number;
	readonly eventTypes: EventTypeRow[];
	readonly errors: ErrorRow[];
	readonly processes: ProcessRow[];
	readonly remotes: RemoteRow[];
}

export type Direction = 'send' | 'recv';

const LEGACY_SEND = new Set(['SendCompleted', 'SendmsgCompleted', 'SendtoCompleted']);
const LEGACY_RECV = new Set(['RecvCompleted', 'RecvfromCompletedIPv4', 'RecvfromCompletedIPv6']);

/** Which way a Winsock event moves data, when it reports a completed transfer's size. */
export function transferDirection(t: EventType | undefined): Direction | null {
	if (!t?.afd) return null;
	if (/^AfdSend/.test(t.name) || LEGACY_SEND.has(t.name)) return 'send';
	if (/^AfdReceive/.test(t.name) || LEGACY_RECV.has(t.name)) return 'recv';
	return null;
}

/**
 * Whether a row of a transfer event counts: it did not fail, and it is the phase that carries the
 * bytes (a completion, or a datagram send's enter) and not a completion that counts a send again
 * (Location 3073, 3024). Per event: exits nested at unknown Locations are left to the tracker
 * (buildStatistics takes its judgement).
 */
export function countsAsTransfer(flags: number): boolean {
	if ((flags & FLAG_BYTES) === 0 || (flags & FLAG_ERROR) !== 0) return false;
	return flags & FLAG_ENTER
		? (flags & FLAG_TRANSFER_AT_ENTER) !== 0
		: (flags & FLAG_NOT_TRANSFER) === 0;
}

const quote = (s: string) => (/[\s()"]/.test(s) ? `"${s}"` : s);

const addressText = (ip: string, port: number) =>
	ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;

/** An accept or connect indication names the peer of a new socket, not of the listener's. */
const isListenerEvent = (t: EventType) => t.afd && /Accept|ConnectIndication/.test(t.name);

/** Most sockets a remote's filter names one by one before falling back to its address. */
const MAX_ENDPOINTS_IN_FILTER = 12;

/**
 * The remote each socket (endpoint string index) talks to: the address of its connect, accept,
 * sendto or receive-from events, over the whole trace so that a filtered selection (say, only
 * sends) still knows where its bytes went. `extra` adds what columns cannot say: the sockets an
 * accept created (AcceptEndpoint, decoded from the payload by the worker).
 */
export async function remotesOfSockets(
	engine: QueryEngine,
	all: Selection,
	types: readonly EventType[],
	extra: ReadonlyMap<number, number> = new Map(),
): Promise<Map<number, number>> {
	const listener = types.map(isListenerEvent);
	const remote = new Map<number, number>();
	for (const part of all.parts) {
		const [endpoint, raddr, rport, etype] = await engine.columns(part.chunk, [
			'endpoint',
			'raddr',
			'rport',
			'etype',
		] as const);
		for (let i = part.from; i < part.to; i++) {
			const e = endpoint[i]!;
			const a = raddr[i]!;
			if (e && a && !remote.has(e) && !listener[etype[i]!]) remote.set(e, a * 65536 + rport[i]!);
		}
	}
	for (const [e, r] of extra) remote.set(e, r);
	return remote;
}

interface ProcessAcc {
	events: number;
	sockets: Set<number>;
	sent: number;
	received: number;
	errors: number;
}

interface RemoteAcc {
	sockets: Set<number>;
	sent: number;
	received: number;
	errors: number;
}

/**
 * Everything the panel shows, over the rows of `sel`; `remotes` maps sockets to their peer.
 * `uncounted`: event indexes of transfers the socket tracker judged counted already (send exits
 * nested at unknown Locations, which no single event's flags can tell).
 */
export async function buildStatistics(
	engine: QueryEngine,
	ctx: FilterContext,
	sel: Selection,
	remotes: ReadonlyMap<number, number>,
	uncounted: ReadonlySet<number> = new Set(),
	limit = 200,
): Promise<Statistics> {
	const types = ctx.eventTypes;
	const direction = types.map(transferDirection);
	const listener = types.map(isListenerEvent);
	const byType = new Map<number, { count: number; errors: number }>();
	const byStatus = new Map<number, Map<number, number>>();
	const byProcess = new Map<number, ProcessAcc>();
	const byRemote = new Map<number, RemoteAcc>();

	for (const part of sel.parts) {
		const [etype, flags, status, process, endpoint, bytes, raddr, rport] = await engine.columns(
			part.chunk,
			['etype', 'flags', 'status', 'process', 'endpoint', 'bytes', 'raddr', 'rport'] as const,
		);
		const add = (i: number) => {
			const t = etype[i]!;
			const f = flags[i]!;
			const error = (f & FLAG_ERROR) !== 0;
			const ty = byType.get(t) ?? { count: 0, errors: 0 };
			ty.count++;
			if (error) ty.errors++;
			byType.set(t, ty);
			if (error && f & FLAG_STATUS) {
				let who = byStatus.get(status[i]!);
				if (!who) byStatus.set(status[i]!, (who = new Map()));
				who.set(process[i]!, (who.get(process[i]!) ?? 0) + 1);
			}

			const dir = direction[t];
			const moved = dir && countsAsTransfer(f) && !uncounted.has(part.base + i) ? bytes[i]! : 0;
			const e = endpoint[i]!;

			const pid = process[i]!;
			let p = byProcess.get(pid);
			if (!p)
				byProcess.set(
					pid,
					(p = { events: 0, sockets: new Set(), sent: 0, received: 0, errors: 0 }),
				);
			p.events++;
			if (e) p.sockets.add(e);
			if (dir === 'send') p.sent += moved;
			else if (dir === 'recv') p.received += moved;
			if (error) p.errors++;

			// An event's own address first: a datagram socket talks to each of its peers in turn.
			// Sends and receives on a stream carry none, and go to the socket's remote.
			const own = raddr[i] ? raddr[i]! * 65536 + rport[i]! : 0;
			const mine = own !== 0 && !listener[t];
			const peer = mine ? own : (e && remotes.get(e)) || own;
			if (peer) {
				let r = byRemote.get(peer);
				if (!r) byRemote.set(peer, (r = { sockets: new Set(), sent: 0, received: 0, errors: 0 }));
				// A listener's accept names a client, but the listener is not that client's socket.
				if (e && (mine || remotes.get(e) === peer)) r.sockets.add(e);
				if (dir === 'send') r.sent += moved;
				else if (dir === 'recv') r.received += moved;
				if (error) r.errors++;
			}
		};
		if (part.rows) for (let k = 0; k < part.count; k++) add(part.rows[k]!);
		else for (let i = part.from; i < part.to; i++) add(i);
	}

	// One row per event name and provider: a name's enter and exit (and its versions) are one
	// row, as the filter `event:NAME` selects them all.
	const eventTypeRows = new Map<string, { -readonly [K in keyof EventTypeRow]: EventTypeRow[K] }>();
	for (const [t, { count, errors }] of byType) {
		const type = types[t];
		const name = type?.name ?? '?';
		const provider = type?.providerName ?? type?.provider ?? null;
		const key = `${provider ?? ''}\u0000${name}`;
		const row = eventTypeRows.get(key);
		if (row) {
			row.count += count;
			row.errors += errors;
			continue;
		}
		eventTypeRows.set(key, {
			key,
			label: name,
			provider,
			category: type ? categoryOf(type) : 'other',
			count,
			errors,
			filter: `event:${quote(name)}`,
		});
	}
	const eventTypes: EventTypeRow[] = [...eventTypeRows.values()];

	const errors: ErrorRow[] = [...byStatus].map(([status, who]) => {
		const s = explainStatus(status);
		const count = [...who.values()].reduce((a, b) => a + b, 0);
		return {
			key: String(status),
			status: s.value,
			name: s.name,
			hex: s.hex,
			wsa: s.wsa,
			wsaCode: s.wsaCode,
			explanation: s.explanation,
			count,
			processes: [...who]
				.sort((a, b) => b[1] - a[1] || a[0] - b[0])
				.map(([pid, n]) => ({
					key: String(pid),
					pid: pid === NO_PID ? null : pid,
					name: pid === NO_PID ? null : (ctx.processNames.get(pid) ?? null),
					count: n,
				})),
			filter: `status:${s.name.startsWith('0x') ? s.hex.toLowerCase() : s.name}`,
		};
	});

	const processes: ProcessRow[] = [...byProcess].map(([pid, p]) => ({
		key: String(pid),
		pid: pid === NO_PID ? null : pid,
		name: pid === NO_PID ? null : (ctx.processNames.get(pid) ?? null),
		events: p.events,
		sockets: p.sockets.size,
		bytesSent: p.sent,
		bytesReceived: p.received,
		errors: p.errors,
		filter: `process:${pid}`,
	}));

	// One row per address text: several string entries may spell the same address.
	const byText = new Map<string, { ip: string; port: number; acc: RemoteAcc }>();
	for (const [key, r] of byRemote) {
		const ip = ctx.strings[Math.floor(key / 65536)] ?? '?';
		const port = key % 65536;
		const text = addressText(ip, port);
		const seen = byText.get(text);
		if (!seen) {
			byText.set(text, { ip, port, acc: r });
			continue;
		}
		for (const e of r.sockets) seen.acc.sockets.add(e);
		seen.acc.sent += r.sent;
		seen.acc.received += r.received;
		seen.acc.errors += r.errors;
	}
	const remoteRows: RemoteRow[] = [...byText].map(([text, { ip, port, acc: r }]) => {
		const endpoints = [...r.sockets].map((e) => ctx.strings[e]!);
		const byAddress = `raddr:${ip} rport:${port}`;
		return {
			key: text,
			remote: text,
			connections: r.sockets.size,
			bytesSent: r.sent,
			bytesReceived: r.received,
			errors: r.errors,
			// The sockets' whole stories (sends and receives carry no address), when few enough.
			filter:
				endpoints.length === 0 || endpoints.length > MAX_ENDPOINTS_IN_FILTER
					? byAddress
					: endpoints.length === 1
						? `endpoint:${endpoints[0]}`
						: `(${endpoints.map((e) => `endpoint:${e}`).join(' or ')})`,
		};
	});

	const byCount = <T extends { count: number }>(a: T, b: T) => b.count - a.count;
	return {
		matched: sel.matched,
		eventTypes: eventTypes.sort(byCount).slice(0, limit),
		errors: errors.sort(byCount).slice(0, limit),
		processes: processes
			.sort((a, b) => b.events - a.events || (a.pid ?? -1) - (b.pid ?? -1))
			.slice(0, limit),
		remotes: remoteRows
			.sort(
				(a, b) =>
					b.bytesSent + b.bytesReceived - (a.bytesSent + a.bytesReceived) ||
					b.connections - a.connections ||
					a.remote.localeCompare(b.remote),
			)
			.slice(0, limit),
	};
}
