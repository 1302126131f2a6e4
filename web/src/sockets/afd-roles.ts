// What each Winsock-AFD event id is to the tracker, from the generated tables
// (schema/winsock-semantics.json → generated/afd-semantics.ts): its family, its role, what it
// tells (bits) and which payload fields hold its endpoint, status, address and bytes, as field
// numbers of view.ts. One dense table by id: a keyed lookup per event costs more than the rest
// of the tracker's work on a data event.
import {
	AFD_EVENTS,
	AFD_LEGACY_EVENTS,
	type AfdFields,
	type AfdLegacyRole,
	type AfdRole,
} from '../generated/afd-semantics.ts';
import { callerPhase } from './header-pid.ts';
import { LEGACY, MODERN, type Family } from './live-socket.ts';
import { F, FIELD_NAMES, type AfdEventView } from './view.ts';

export const SEND = 1;
export const RECEIVE = 2;
export const CONNECT = 4;
/** Application I/O requests (what may come after closesocket by mistake): enters, or legacy. */
export const REQUEST = 8;
/** Events only datagram sockets log (enter/exit), or sendto/recvfrom calls (legacy). */
export const DATAGRAM = 16;

/** A field number of view.ts, or -1 when the event has no such field. */
type FieldNo = number;

export interface EventRole {
	readonly family: Family;
	/** null: an event the tracker reads only for its endpoint (not in the tables). */
	readonly role: AfdRole | AfdLegacyRole | null;
	readonly bits: number;
	/** Whether its header PID is the caller's context: at its enter, at any point, or not known. */
	readonly callerPhase: 'enter' | 'any' | null;
	/** Who an abort is by ('reason': by TRANSPORT_ABORT_REASONS). */
	readonly abortBy: 'afd' | 'transport' | 'reason' | null;
	/** Enter/exit events: the phases of the address and of the bytes transferred. */
	readonly addressAt: 'enter' | 'exit' | null;
	readonly bytesAt: 'enter' | 'exit' | null;
	/** One call is logged as nested enter/exit pairs on one thread. */
	readonly nests: boolean;
	/** Bits of LiveSocket.closeBits at the enter and at the exit (0: not a close or cleanup). */
	readonly closeBits: readonly [number, number];
	readonly endpoint: FieldNo;
	readonly acceptEndpoint: FieldNo;
	readonly status: FieldNo;
	readonly address: FieldNo;
	readonly port: FieldNo;
	readonly bytes: FieldNo;
	readonly reason: FieldNo;
	readonly option: FieldNo;
	readonly value: FieldNo;
	readonly pid: FieldNo;
}

const fieldNo = (name: string | null): FieldNo => {
	if (name === null) return -1;
	const i = (FIELD_NAMES as readonly string[]).indexOf(name);
	if (i < 0) throw new Error(`afd-roles: the views read no field ${name}`);
	return i;
};

/** Which close/cleanup a socket has had, per family and phase (the other family's is absorbed). */
const CLOSE_BITS: Readonly<Record<string, readonly [number, number]>> = {
	'0:close': [1, 1],
	'0:cleanup': [2, 2],
	'1:close': [4, 8],
	'1:cleanup': [16, 32],
};
const NO_CLOSE = [0, 0] as const;

function eventRole(
	id: number,
	family: Family,
	role: AfdRole | AfdLegacyRole,
	bits: number,
	fields: AfdFields,
	pidField: string | null,
	more: Pick<EventRole, 'abortBy' | 'addressAt' | 'bytesAt' | 'nests'>,
): EventRole {
	return {
		family,
		role,
		bits,
		callerPhase: callerPhase(id),
		...more,
		closeBits: CLOSE_BITS[`${family}:${role}`] ?? NO_CLOSE,
		endpoint: fieldNo(fields.endpoint),
		acceptEndpoint: fieldNo(fields.acceptEndpoint),
		status: fieldNo(fields.status),
		address: fieldNo(fields.address),
		port: fieldNo(fields.port),
		bytes: fieldNo(fields.bytes),
		reason: fieldNo(fields.reason),
		option: fieldNo(fields.option),
		value: fieldNo(fields.value),
		pid: fieldNo(pidField),
	};
}

/** An id not in the tables: read for its Endpoint only. */
const unknown = (family: Family): EventRole => ({
	family,
	role: null,
	bits: 0,
	callerPhase: null,
	abortBy: null,
	addressAt: null,
	bytesAt: null,
	nests: false,
	closeBits: NO_CLOSE,
	endpoint: F.Endpoint,
	acceptEndpoint: -1,
	status: F.Status,
	address: -1,
	port: -1,
	bytes: -1,
	reason: -1,
	option: -1,
	value: -1,
	pid: -1,
});
const UNKNOWN_LEGACY = unknown(LEGACY);
const UNKNOWN_MODERN = unknown(MODERN);

const TABLE_SIZE = 4096;
const ROLES: EventRole[] = Array.from({ length: TABLE_SIZE }, (_, id) =>
	id >= 1000 ? UNKNOWN_MODERN : UNKNOWN_LEGACY,
);
for (const [key, m] of Object.entries(AFD_LEGACY_EVENTS)) {
	const bits = (m.request ? REQUEST : 0) | (m.datagram ? DATAGRAM : 0);
	ROLES[Number(key)] = eventRole(Number(key), LEGACY, m.role, bits, m.fields, m.pidField, {
		abortBy: m.abortBy,
		addressAt: null,
		bytesAt: null,
		nests: false,
	});
}
for (const [key, m] of Object.entries(AFD_EVENTS)) {
	const role = m.role;
	const bits =
		(role === 'send' ? SEND : 0) |
		(role === 'receive' ? RECEIVE : 0) |
		(role === 'connect' ? CONNECT : 0) |
		(m.call && role !== 'create' && role !== 'close' ? REQUEST : 0) |
		(m.datagram ? DATAGRAM : 0);
	ROLES[Number(key)] = eventRole(Number(key), MODERN, role, bits, m.fields, m.pidField, {
		abortBy: m.abortBy,
		addressAt: m.address,
		bytesAt: m.bytes,
		nests: m.nests,
	});
}

/** What an event id is (ids past the table: an unknown enter/exit event). */
export const roleOf = (id: number): EventRole => (id < TABLE_SIZE ? ROLES[id]! : UNKNOWN_MODERN);

/** A numeric field of the event, if it has one. */
export const numOf = (v: AfdEventView, field: FieldNo): number | undefined =>
	field < 0 ? undefined : v.num(field);

/**
 * The event's address as text: a SOCKADDR as logged, or an address and its port field as
 * 'a.b.c.d:port' / '[v6]:port' (legacy).
 */
export function addressOf(v: AfdEventView, r: EventRole): string | undefined {
	if (r.address < 0) return undefined;
	const a = v.text(r.address);
	if (r.port < 0) return a;
	const port = v.num(r.port);
	if (a === undefined || port === undefined) return undefined;
	return a.includes(':') ? `[${a}]:${port}` : `${a}:${port}`;
}
