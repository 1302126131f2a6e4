// TraceLogging self-describing metadata (docs/etl-format.md §7; TLD.h comments): the PROV_TRAITS
// (ext type 0xC) and EVENT_SCHEMA_TL (ext type 0xB) blobs plus the matching payload.

import { createHash } from 'node:crypto';
import { ByteWriter, guidBytes, guidFromBytes, utf8z } from './bytes.ts';

export const EXT_TYPE_EVENT_SCHEMA_TL = 0x0b;
export const EXT_TYPE_PROV_TRAITS = 0x0c;
/** WINEVENT_CHANNEL_TRACELOGGING. */
export const TL_CHANNEL = 11;

/** An extended data item as written on disk: ExtType and its data (the writer adds the header). */
export interface ExtItem {
	type: number;
	data: Uint8Array;
}

export type TlFieldType = 'utf16' | 'ansi' | 'int32' | 'uint32' | 'int64' | 'uint64' | 'guid';

/** TLD InType codes of the supported field types. */
export const TL_IN_TYPE: Readonly<Record<TlFieldType, number>> = {
	utf16: 1, // UnicodeString: UTF-16LE z-string
	ansi: 2, // AnsiString: 8-bit z-string
	int32: 7,
	uint32: 8,
	int64: 9,
	uint64: 10,
	guid: 15,
};

export interface TlField {
	name: string;
	type: TlFieldType;
	value: string | number | bigint;
	/** Optional OutType; when given InType gets the 0x80 chain bit and this byte follows it. */
	outType?: number;
}

/**
 * PROV_TRAITS blob: u16 total size (itself included), UTF-8 z provider name, then traits. With
 * `groupGuid` a provider-group trait {u16 size 19, u8 type 1, GUID} is appended.
 */
export function tlProviderTraits(providerName: string, groupGuid?: string): Uint8Array {
	const w = new ByteWriter(64).u16(0).bytes(utf8z(providerName));
	if (groupGuid !== undefined) w.u16(19).u8(1).guid(groupGuid);
	if (w.length > 0xffff) throw new Error('provider traits too long');
	return w.setU16(0, w.length).finish();
}

/**
 * EVENT_SCHEMA_TL blob: u16 size (itself included), tag byte(s), UTF-8 z event name, then per
 * field: UTF-8 z name, InType byte [| 0x80 + OutType byte]. `tags` defaults to a single 0 byte.
 */
export function tlEventSchema(
	eventName: string,
	fields: readonly TlField[],
	tags: readonly number[] = [0],
): Uint8Array {
	if (tags.length === 0) throw new Error('at least one tag byte is required');
	tags.forEach((t, i) => {
		const last = i === tags.length - 1;
		if (((t & 0x80) !== 0) === last) throw new Error('tag bytes chain with 0x80 except the last');
	});
	const w = new ByteWriter(64).u16(0);
	for (const t of tags) w.u8(t);
	w.bytes(utf8z(eventName));
	for (const f of fields) {
		const inType = TL_IN_TYPE[f.type];
		w.bytes(utf8z(f.name));
		if (f.outType === undefined) w.u8(inType);
		else {
			if (f.outType < 0 || f.outType > 0x7f) throw new RangeError(`bad OutType ${f.outType}`);
			w.u8(inType | 0x80).u8(f.outType);
		}
	}
	if (w.length > 0xffff) throw new Error('event schema too long');
	return w.setU16(0, w.length).finish();
}

/** The payload bytes of the given fields, in order. */
export function tlPayload(fields: readonly TlField[]): Uint8Array {
	const w = new ByteWriter(64);
	for (const f of fields) {
		const v = f.value;
		const label = `TraceLogging field ${f.name}`;
		switch (f.type) {
			case 'utf16':
			case 'ansi':
				if (typeof v !== 'string') throw new Error(`${label}: expected a string`);
				if (f.type === 'utf16') w.utf16z(v);
				else w.ansiz(v);
				break;
			case 'guid':
				if (typeof v !== 'string') throw new Error(`${label}: expected a GUID string`);
				w.bytes(guidBytes(v));
				break;
			case 'int32':
			case 'uint32':
				if (typeof v === 'string') throw new Error(`${label}: expected a number`);
				if (f.type === 'int32') w.i32(Number(v));
				else w.u32(Number(v));
				break;
			case 'int64':
			case 'uint64':
				if (typeof v === 'string') throw new Error(`${label}: expected a number`);
				if (f.type === 'int64') w.i64(BigInt(v));
				else w.u64(BigInt(v));
				break;
		}
	}
	return w.finish();
}

/**
 * Ext items (0xC PROV_TRAITS then 0xB EVENT_SCHEMA_TL, the order seen in real files) and payload
 * of one TraceLogging event.
 */
export function traceLoggingEvent(
	providerName: string,
	eventName: string,
	fields: readonly TlField[],
): { ext: ExtItem[]; payload: Uint8Array } {
	return {
		ext: [
			{ type: EXT_TYPE_PROV_TRAITS, data: tlProviderTraits(providerName) },
			{ type: EXT_TYPE_EVENT_SCHEMA_TL, data: tlEventSchema(eventName, fields) },
		],
		payload: tlPayload(fields),
	};
}

/**
 * The provider GUID TraceLogging/EventSource derive from a provider name: SHA-1 over the
 * namespace 482C2DB2-C390-47C8-87F8-1A15BFC130FB bytes and the upper-cased name in UTF-16BE,
 * first 16 bytes, version nibble 5. E.g. 'System.Runtime' → 49592c0f-5a05-516d-aa4b-a64e02026c89.
 */
export function tlProviderGuid(name: string): string {
	const ns = Uint8Array.of(
		0x48,
		0x2c,
		0x2d,
		0xb2,
		0xc3,
		0x90,
		0x47,
		0xc8,
		0x87,
		0xf8,
		0x1a,
		0x15,
		0xbf,
		0xc1,
		0x30,
		0xfb,
	);
	const upper = name.toUpperCase();
	const be = new Uint8Array(upper.length * 2);
	for (let i = 0; i < upper.length; i++) {
		be[i * 2] = upper.charCodeAt(i) >> 8;
		be[i * 2 + 1] = upper.charCodeAt(i) & 0xff;
	}
	const h = new Uint8Array(createHash('sha1').update(ns).update(be).digest()).subarray(0, 16);
	h[7] = (h[7]! & 0x0f) | 0x50;
	return guidFromBytes(h);
}
