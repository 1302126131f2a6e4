// Named, typed values of a schema-decoded event (Winsock-AFD, WS2HELP), from the FieldOut table
// the WASM interpreter wrote and the field names and maps generated from the schema JSON.
import { ADDRESS_FAMILIES, FD_EVENT_BITS, IP_PROTOCOLS, SOCKET_TYPES } from '../generated/codes.ts';
import { FieldOut, FieldType } from '../generated/layouts.ts';
import { EVENT_MAPS, EVENT_SCHEMAS, type EventSchema } from '../generated/schemas.ts';
import { ipv4, ipv6 } from '../net/ip.ts';
import { socketAddress } from '../net/sockaddr.ts';
import type { DecodedBuffer } from './decoded-buffer.ts';
import { explainStatus } from './status.ts';
import { guidAt } from './wasm.ts';

export type FieldValue = number | string | boolean | null;

export interface DecodedField {
	readonly name: string;
	readonly type: FieldType;
	readonly value: FieldValue;
	/** The named meaning of the value (map entry, NTSTATUS name, flag names), if any. */
	readonly meaning: string | null;
	/** Where the field's bytes are in the buffer image (for a hex view). */
	readonly offset: number;
	readonly size: number;
	readonly missing: boolean;
}

const utf16 = new TextDecoder('utf-16le');
const latin1 = new TextDecoder('latin1');

export function schemaOf(index: number): EventSchema | undefined {
	return EVENT_SCHEMAS[index];
}

/** The named meaning a value map gives a value, or null. */
export function mapValue(map: string | null, value: number): string | null {
	switch (map) {
		case null:
			return null;
		case 'addressFamily':
			return ADDRESS_FAMILIES[value] ?? null;
		case 'socketType':
			return SOCKET_TYPES[value] ?? null;
		case 'ipProtocol':
			return IP_PROTOCOLS[value] ?? null;
		case 'enterExit':
			return value === 0 ? 'enter' : value === 1 ? 'exit' : null;
		case 'fdEvents': {
			const names = Object.entries(FD_EVENT_BITS)
				.filter(([mask]) => (value & Number(mask)) !== 0)
				.map(([, n]) => n);
			return names.length ? names.join('|') : null;
		}
		default:
			return EVENT_MAPS[map]?.[value] ?? null;
	}
}

/** Every name a value map gives (for filters that name a value, and their "did you mean"). */
export function mapNames(map: string): string[] {
	switch (map) {
		case 'addressFamily':
			return Object.values(ADDRESS_FAMILIES);
		case 'socketType':
			return Object.values(SOCKET_TYPES);
		case 'ipProtocol':
			return Object.values(IP_PROTOCOLS);
		case 'enterExit':
			return ['enter', 'exit'];
		case 'fdEvents':
			return Object.values(FD_EVENT_BITS);
		default:
			return Object.values(EVENT_MAPS[map] ?? {});
	}
}

/** Bytes as lowercase hex, as a raw payload prints. */
export function hexOf(b: Uint8Array): string {
	let s = '';
	for (const x of b) s += x.toString(16).padStart(2, '0');
	return s;
}

function asNumber(x: bigint): number | string {
	return x <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : x.toString();
}

/** The fields of a record (its FieldOut entries start..start+count), in schema order. */
export function eventFields(
	buf: DecodedBuffer,
	schema: EventSchema,
	start: number,
	count: number,
	/** Which fields to decode, by name (null: every one). */
	want: ((name: string) => boolean) | null = null,
): DecodedField[] {
	const out: DecodedField[] = [];
	const b = buf.image;
	for (let k = 0; k < count; k++) {
		const j = start + k;
		const def = schema.fields[k]!;
		if (want && !want(def.name)) continue;
		const raw = buf.fieldU64(j, FieldOut.value);
		const offset = buf.fieldU32(j, FieldOut.offset);
		const size = buf.fieldSize(j);
		const missing = buf.fieldU8(j, FieldOut.missing) !== 0;
		const type = buf.fieldU8(j, FieldOut.type) as FieldType;
		let value: FieldValue = null;
		let meaning: string | null = null;
		if (!missing) {
			switch (type) {
				case FieldType.Pointer:
					value = '0x' + raw.toString(16);
					break;
				case FieldType.IPv4:
					value = ipv4(b, offset);
					break;
				case FieldType.IPv6:
					value = ipv6(b, offset);
					break;
				case FieldType.SocketAddress:
					value = socketAddress(b, offset, size)?.text ?? null;
					break;
				case FieldType.NTStatus: {
					value = Number(raw);
					meaning = explainStatus(value).name;
					break;
				}
				case FieldType.Int32:
					value = Number(BigInt.asIntN(32, raw));
					break;
				case FieldType.Boolean:
					value = raw !== 0n;
					break;
				case FieldType.UnicodeString:
					value = utf16.decode(b.subarray(offset, offset + size)).replace(/\0$/, '');
					break;
				case FieldType.AnsiString:
					value = latin1.decode(b.subarray(offset, offset + size)).replace(/\0$/, '');
					break;
				case FieldType.Guid:
					value = guidAt(b, offset);
					break;
				case FieldType.Binary:
					value = hexOf(b.subarray(offset, offset + size));
					break;
				default:
					value = asNumber(raw);
			}
			if (meaning === null && typeof value === 'number') meaning = mapValue(def.map, value);
		}
		out.push({ name: def.name, type, value, meaning, offset, size, missing });
	}
	return out;
}
