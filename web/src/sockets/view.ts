// What the socket tracker reads from a record. Both the CLI (which has RecordJson objects) and the
// worker (which has the decoder's tables and must not build an object per event for 10 M events)
// implement these cheaply: one view object can be reused for every record, because the tracker
// copies what it keeps and never holds on to a view.
import type { EventIndex, Ticks } from '../decoder/units.ts';

/**
 * The fields the tracker reads, by the schema's names (winsock-afd.json). Views are asked for
 * them by number (F.Status), so that a view over the decoder's tables finds a field with an array
 * lookup per schema instead of a name lookup per event.
 */
export const FIELD_NAMES = [
	'EnterExit',
	'Location',
	'Process',
	'Endpoint',
	'Status',
	'Error',
	'BufferLength',
	'Address',
	'Port',
	'AddressFamily',
	'SocketType',
	'Protocol',
	'ProcessId',
	'UserModePid',
	'Reason',
	'Option',
	'Value',
	'PacketSize',
	'EventMask',
	'Bytes Indicated',
	'Listen Endpoint',
	'AcceptEndpoint',
] as const;

export type FieldName = (typeof FIELD_NAMES)[number];
/** Field numbers by name, spaces dropped: F.BytesIndicated is 'Bytes Indicated'. */
export const F = Object.fromEntries(FIELD_NAMES.map((name, i) => [name.replace(/ /g, ''), i])) as {
	readonly [K in FieldName as K extends `${infer A} ${infer B}` ? `${A}${B}` : K]: number;
};

/** One Microsoft-Windows-Winsock-AFD event. */
export interface AfdEventView {
	/** The record's position in the trace's time-ordered record sequence (header record = 0). */
	readonly index: EventIndex;
	/**
	 * 100 ns ticks since the tracker's origin (the trace's StartTime FILETIME), negative before it.
	 * A double is exact up to 2^53 ticks (28 years), where a FILETIME itself (~1.3e17) is not.
	 */
	readonly ticks: Ticks;
	readonly id: number;
	readonly version: number;
	/**
	 * The header's PID: the caller's only at some Locations (see generated/afd-semantics.ts);
	 * completions are logged in whatever context they ran in, often System (PID 4).
	 */
	readonly headerPid: number | null;
	readonly tid: number | null;
	/** A numeric field (integers, NTSTATUS, booleans as 0/1, pointers below 2^53); `field`: F.… */
	num(field: number): number | undefined;
	/** A pointer field as lowercase '0x…' hex. */
	ptr(field: number): string | undefined;
	/** An address field as text: IPv4 'a.b.c.d', IPv6, or a SOCKADDR as 'a.b.c.d:port' / '[v6]:port'. */
	text(field: number): string | undefined;
}

/**
 * A process event that names a process: Microsoft-Windows-Kernel-Process ProcessStart (1),
 * ProcessStop (2) and ProcessRundown (15), or an NT kernel logger Process event (MOF group 0x03:
 * Start 1, End 2, DCStart 3, DCEnd 4, Defunct 39). The payload is parsed by processes.ts.
 */
export interface ProcessEventView {
	readonly index: EventIndex;
	readonly ticks: Ticks;
	readonly source: 'kernel-process' | 'mof';
	/** The Kernel-Process event id, or the MOF event type (opcode). */
	readonly id: number;
	readonly version: number;
	readonly headerPid: number | null;
	/** Pointer width of the record: MOF process payloads start with pointers. */
	readonly pointerSize: 4 | 8;
	readonly payload: Uint8Array;
}

export const AFD_GUID = 'e53c6823-7bb8-44bb-90dc-3f86090d48a6';
export const KERNEL_PROCESS_GUID = '22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716';
/** The NT kernel logger's Process event class (MOF), for records that name it by GUID. */
export const MOF_PROCESS_GUID = '3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c';

const KERNEL_PROCESS_IDS = new Set([1, 2, 15]);
const MOF_PROCESS_TYPES = new Set([1, 2, 3, 4, 39]);

/** Whether a Kernel-Process event id is one the process table reads. */
export function isKernelProcessEvent(id: number): boolean {
	return KERNEL_PROCESS_IDS.has(id);
}

/** Whether a kernel HookId (group in the high byte, type in the low) is a Process event. */
export function isMofProcessHook(hookId: number): boolean {
	return hookId >> 8 === 0x03 && MOF_PROCESS_TYPES.has(hookId & 0xff);
}

/** Whether a classic record's class GUID and type are a Process event. */
export function isMofProcessClass(guid: string | null, type: number): boolean {
	return guid === MOF_PROCESS_GUID && MOF_PROCESS_TYPES.has(type);
}
