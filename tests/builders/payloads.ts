// Event payload builders for the test ETL writer: Microsoft-Windows-Winsock-AFD and
// Microsoft-Windows-Winsock-WS2HELP user data laid out from the field lists in schema/*.json
// (read at runtime, independently of the generated web/src/generated/schemas.ts), plus
// Microsoft-Windows-Kernel-Process ProcessStart.

import { readFileSync } from 'node:fs';
import {
	ByteWriter,
	ipv4Bytes,
	ipv6Bytes,
	normGuid,
	sockaddrBytes,
	utf16z,
	ansiz,
	guidBytes,
} from './bytes.ts';

interface SchemaField {
	name: string;
	key?: string;
	inType: string;
	outType?: string;
	length?: number | string;
}
interface SchemaEvent {
	id: number;
	version: number;
	level: number;
	opcode: number;
	task: number;
	keywords: string;
	fields: SchemaField[];
}
interface SchemaFile {
	guid: string;
	channel?: { id: number };
	events: SchemaEvent[];
}

function loadSchema(name: string): SchemaFile {
	const url = new URL(`../../schema/${name}`, import.meta.url);
	return JSON.parse(readFileSync(url, 'utf8')) as SchemaFile;
}

const AFD = loadSchema('winsock-afd.json');
const WS2HELP = loadSchema('winsock-ws2help.json');

export const AFD_PROVIDER = normGuid(AFD.guid); // e53c6823-7bb8-44bb-90dc-3f86090d48a6
export const WS2HELP_PROVIDER = normGuid(WS2HELP.guid); // d5c25f9a-4d47-493e-9184-40dd397a004d
export const KERNEL_PROCESS_PROVIDER = '22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716';
/** The Operational channel id of both Winsock providers (schema channel.id). */
export const AFD_CHANNEL = AFD.channel?.id ?? 16;
/** Keyword bit that manifest-compiled channels add (seen on Kernel-Process events with channel 16). */
export const CHANNEL_KEYWORD = 0x8000000000000000n;

export type PayloadValue = number | bigint | string | Uint8Array;
export type PayloadValues = Readonly<Record<string, PayloadValue>>;

const eventIndex = new Map<SchemaFile, Map<string, SchemaEvent>>();

function findEvent(schema: SchemaFile, what: string, id: number, version: number): SchemaEvent {
	let index = eventIndex.get(schema);
	if (!index) {
		index = new Map();
		for (const e of schema.events) {
			const key = `${e.id}:${e.version}`;
			if (!index.has(key)) index.set(key, e);
		}
		eventIndex.set(schema, index);
	}
	const ev = index.get(`${id}:${version}`);
	if (!ev) throw new Error(`${what}: no event id ${id} version ${version} in the schema`);
	return ev;
}

/** The EVENT_DESCRIPTOR of an AFD event, from the schema. */
export interface EventDescriptor {
	id: number;
	version: number;
	channel: number;
	level: number;
	opcode: number;
	task: number;
	keyword: bigint;
}

/**
 * AFD event descriptor from winsock-afd.json. `channelKeyword` (default true) ORs in
 * 0x8000000000000000, as manifest channels do in real traces.
 */
export function afdDescriptor(id: number, version = 0, channelKeyword = true): EventDescriptor {
	const ev = findEvent(AFD, 'afdDescriptor', id, version);
	return {
		id,
		version,
		channel: AFD_CHANNEL,
		level: ev.level,
		opcode: ev.opcode,
		task: ev.task,
		keyword: BigInt(ev.keywords) | (channelKeyword ? CHANNEL_KEYWORD : 0n),
	};
}

export function ws2helpDescriptor(id: number, version = 0): EventDescriptor {
	const ev = findEvent(WS2HELP, 'ws2helpDescriptor', id, version);
	return {
		id,
		version,
		channel: WS2HELP.channel?.id ?? 16,
		level: ev.level,
		opcode: ev.opcode,
		task: ev.task,
		keyword: BigInt(ev.keywords),
	};
}

function num(v: PayloadValue | undefined, field: string): bigint {
	if (v === undefined) return 0n;
	if (typeof v === 'bigint') return v;
	if (typeof v === 'number') {
		if (!Number.isInteger(v)) throw new Error(`${field}: not an integer: ${v}`);
		return BigInt(v);
	}
	if (typeof v === 'string' && /^(0x[0-9a-f]+|-?\d+)$/i.test(v)) return BigInt(v);
	throw new Error(
		`${field}: expected a number, got ${typeof v === 'string' ? JSON.stringify(v) : 'bytes'}`,
	);
}

function u32Of(v: PayloadValue | undefined, field: string, signed: boolean): number {
	const b = num(v, field);
	const lo = signed ? -0x80000000n : 0n;
	const hi = signed ? 0x7fffffffn : 0xffffffffn;
	// Accept either signed or unsigned spellings of a 32-bit pattern.
	if (b < lo || b > hi) {
		if (!signed && b >= -0x80000000n && b < 0n) return Number(b & 0xffffffffn);
		if (signed && b > 0x7fffffffn && b <= 0xffffffffn) return Number(b - 0x100000000n);
		throw new RangeError(`${field}: ${b} does not fit 32 bits`);
	}
	return Number(b);
}

function fieldValue(values: PayloadValues, f: SchemaField): PayloadValue | undefined {
	if (Object.hasOwn(values, f.name)) return values[f.name];
	if (f.key !== undefined && Object.hasOwn(values, f.key)) return values[f.key];
	return undefined;
}

const knownKeys = new WeakMap<readonly SchemaField[], Set<string>>();

function checkKeys(values: PayloadValues, fields: readonly SchemaField[], what: string): void {
	let known = knownKeys.get(fields);
	if (!known) {
		known = new Set<string>();
		for (const f of fields) {
			known.add(f.name);
			if (f.key) known.add(f.key);
		}
		knownKeys.set(fields, known);
	}
	for (const k of Object.keys(values)) {
		if (!known.has(k)) {
			throw new Error(
				`${what}: unknown field ${JSON.stringify(k)}; fields: ${[...known].join(', ')}`,
			);
		}
	}
}

/**
 * User data of an AFD event laid out from schema/winsock-afd.json.
 * - Pointer: 4 or 8 bytes LE (by `pointerSize`: EVENT32 vs EVENT64 records).
 * - UInt8/UInt16/UInt32/Int32/Boolean (4 bytes)/HexInt32/NTStatus: LE.
 * - UInt16 + Port: big-endian (network order).
 * - UInt32 + IPv4: 'a.b.c.d' → the 4 bytes in order (a number is taken as the address in
 *   network order, 0x0a000005 = 10.0.0.5).
 * - Binary + IPv6 (16): any RFC text form → 16 bytes.
 * - Binary + SocketAddress: 'a.b.c.d:port' → SOCKADDR_IN (16 bytes), '[v6]:port' or
 *   '[v6%scope]:port' → SOCKADDR_IN6 (28 bytes), or raw bytes; the AddressLen field before it is
 *   set to the byte length unless given explicitly. Missing → AddressLen 0 and no bytes.
 * Values are keyed by field name (or the schema key, e.g. 'ListenEndpoint'); missing values are
 * 0; unknown names throw.
 */
export function afdPayload(
	id: number,
	values: PayloadValues,
	pointerSize: 4 | 8,
	version = 0,
): Uint8Array {
	const ev = findEvent(AFD, 'afdPayload', id, version);
	const what = `afdPayload(${id})`;
	checkKeys(values, ev.fields, what);
	const w = new ByteWriter(64);
	let addressLenAt = -1;
	let addressLenExplicit = false;
	for (const f of ev.fields) {
		const v = fieldValue(values, f);
		const label = `${what}.${f.name}`;
		const out = f.outType ?? '';
		switch (f.inType) {
			case 'win:Pointer':
				w.ptr(num(v, label), pointerSize);
				break;
			case 'win:UInt8':
				w.u8(Number(num(v, label)));
				break;
			case 'win:UInt16': {
				const n = Number(num(v, label));
				if (out === 'win:Port') w.u16be(n);
				else w.u16(n);
				break;
			}
			case 'win:UInt32':
				if (out === 'win:IPv4') {
					if (typeof v === 'string') w.bytes(ipv4Bytes(v));
					else {
						const n = u32Of(v, label, false);
						w.bytes(Uint8Array.of(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff));
					}
				} else {
					if (f.name === 'AddressLen') {
						addressLenAt = w.length;
						addressLenExplicit = v !== undefined;
					}
					w.u32(u32Of(v, label, false));
				}
				break;
			case 'win:Int32':
				w.i32(u32Of(v, label, true));
				break;
			case 'win:Boolean':
				w.u32(u32Of(v, label, false));
				break;
			case 'win:Binary':
				if (out === 'win:IPv6') {
					if (v === undefined) w.fill(0, 16);
					else if (typeof v === 'string') w.bytes(ipv6Bytes(v));
					else if (v instanceof Uint8Array && v.length === 16) w.bytes(v);
					else throw new Error(`${label}: expected an IPv6 address`);
				} else if (out === 'win:SocketAddress') {
					let bytes: Uint8Array;
					if (v === undefined) bytes = new Uint8Array(0);
					else if (typeof v === 'string') bytes = sockaddrBytes(v);
					else if (v instanceof Uint8Array) bytes = v;
					else throw new Error(`${label}: expected a socket address string or bytes`);
					if (addressLenAt < 0) throw new Error(`${label}: no AddressLen field before it`);
					if (!addressLenExplicit) {
						w.setU32(addressLenAt, bytes.length);
					}
					w.bytes(bytes);
				} else {
					throw new Error(`${label}: unsupported binary field (${out})`);
				}
				break;
			default:
				throw new Error(`${label}: unsupported inType ${f.inType}`);
		}
	}
	return w.finish();
}

/**
 * User data of a WS2HELP event (schema/winsock-ws2help.json): UnicodeString (UTF-16LE z),
 * AnsiString (8-bit z), GUID (16 bytes), UInt32. Missing strings are empty, numbers 0, GUIDs zero.
 */
export function ws2helpPayload(id: number, values: PayloadValues, version = 0): Uint8Array {
	const ev = findEvent(WS2HELP, 'ws2helpPayload', id, version);
	const what = `ws2helpPayload(${id})`;
	checkKeys(values, ev.fields, what);
	const w = new ByteWriter(64);
	for (const f of ev.fields) {
		const v = fieldValue(values, f);
		const label = `${what}.${f.name}`;
		switch (f.inType) {
			case 'win:UnicodeString':
				if (v !== undefined && typeof v !== 'string')
					throw new Error(`${label}: expected a string`);
				w.bytes(utf16z(v ?? ''));
				break;
			case 'win:AnsiString':
				if (v !== undefined && typeof v !== 'string')
					throw new Error(`${label}: expected a string`);
				w.bytes(ansiz(v ?? ''));
				break;
			case 'win:GUID':
				if (v !== undefined && typeof v !== 'string') throw new Error(`${label}: expected a GUID`);
				w.bytes(v === undefined ? new Uint8Array(16) : guidBytes(v));
				break;
			case 'win:UInt32':
				w.u32(u32Of(v, label, false));
				break;
			default:
				throw new Error(`${label}: unsupported inType ${f.inType}`);
		}
	}
	return w.finish();
}

export interface ProcessStartValues {
	processId: number;
	createTime: bigint;
	parentProcessId: number;
	sessionId: number;
	flags?: number;
	imageName: string;
}

/**
 * Microsoft-Windows-Kernel-Process ProcessStart (id 1) user data, version 1 layout: ProcessID u32,
 * CreateTime FILETIME u64, ParentProcessID u32, SessionID u32, Flags u32, ImageName UTF-16 z.
 */
export function processStartPayload(v: ProcessStartValues): Uint8Array {
	return new ByteWriter(128)
		.u32(v.processId)
		.u64(v.createTime)
		.u32(v.parentProcessId)
		.u32(v.sessionId)
		.u32(v.flags ?? 0)
		.utf16z(v.imageName)
		.finish();
}

/** Descriptor of Kernel-Process ProcessStart v1 (channel 16, keyword WINEVENT_KEYWORD_PROCESS). */
export const PROCESS_START_DESCRIPTOR: EventDescriptor = {
	id: 1,
	version: 1,
	channel: 16,
	level: 4,
	opcode: 1,
	task: 1,
	keyword: 0x8000000000000010n,
};
