// A schema-decoded event's payload fields written straight from its decoded buffer as the
// members of a JSON object (in a CSV cell, with its quotes doubled), byte for byte what
// JSON.stringify writes of the record object's fields: each value and its named meaning, recent
// values copied as written before. RecordWriter writes them in its lines; ColumnWriter and the
// events table as their payload column.
import { FieldOut, FieldType, PayloadLayout, RecordOut } from '../generated/layouts.ts';
import { EVENT_SCHEMAS } from '../generated/schemas.ts';
import { ipv6 } from '../net/ip.ts';
import { socketAddress } from '../net/sockaddr.ts';
import type { DecodedBuffer } from '../decoder/decoded-buffer.ts';
import { hexOf } from '../decoder/event-fields.ts';
import { guidAt } from '../decoder/wasm.ts';
import { ByteSink, Piece, utf8Bytes } from './byte-sink.ts';
import { payloadKeys } from './payload-keys.ts';
import { ValueNames } from './value-names.ts';
import type { ExportFormat } from './record-lines.ts';

const SAFE_HI = 0x200000;
const ARRAY_INDEX = /^(0|[1-9]\d*)$/;
const NULL = utf8Bytes('null');
const TRUE = utf8Bytes('true');
const FALSE = utf8Bytes('false');

const utf16 = new TextDecoder('utf-16le');
const latin1 = new TextDecoder('latin1');

/** JSON text as written in `format`: in a CSV cell, its quotes doubled. */
export const quoted = (json: string, format: ExportFormat) =>
	utf8Bytes(format === 'csv' ? json.replaceAll('"', '""') : json);

export interface FieldWriter {
	/** `"Name":` (with the comma before it after the first field). */
	readonly key: Uint8Array;
	/** `,"NameName":`, for a named meaning. */
	readonly meaningKey: Uint8Array;
	readonly map: string | null;
	/**
	 * What follows the value in a record that has every field of its schema: the next field's
	 * key, or after the last what the writer was told closes the fields (the end of a line, say).
	 */
	readonly next: Piece;
	/** Value, meaning and `next` as written for recent values of this field. */
	readonly recent: RecentValues;
}

/**
 * The bytes written for recent raw values of one field (value, meaning and what follows), by a
 * hash of the value: most fields of a Winsock trace (enter/exit, locations, statuses, the
 * process and endpoint pointers) take few values, so a line is mostly copied. A field whose
 * values seldom repeat stops being kept after a while.
 */
export class RecentValues {
	/**
	 * SLOT_WORDS words per slot, together so that a look-up touches one or two cache lines: the
	 * value's low and high words, a tag (the type + 1, 0 for an empty slot, and the length of
	 * what is kept times 256), then the bytes kept (as ByteSink.keep stores them).
	 */
	readonly words = new Uint32Array(RECENT_SLOTS * SLOT_WORDS);
	on = true;
	hits = 0;
	misses = 0;
}

export const RECENT_SLOTS = 64;
export const SLOT_WORDS = 16;
/** The most bytes a slot holds (longer values are written each time). */
const RECENT_BYTES = (SLOT_WORDS - 3) * 4;
/** Lookups after which a field whose values hit less than a quarter of the time stops being kept. */
const RECENT_TRIAL = 1024;

/**
 * Writes the fields of schema-decoded events in one format. `close` is what follows the last
 * field's value in a record that has every field of its schema.
 */
export class FieldsWriter {
	readonly #csv: boolean;
	readonly #format: ExportFormat;
	readonly #close: Uint8Array;
	readonly #quote: Uint8Array;
	readonly #hexOpen: Uint8Array;
	readonly #names = new ValueNames();
	readonly #schemas: (readonly FieldWriter[] | null | undefined)[] = [];

	constructor(format: ExportFormat, close: Uint8Array) {
		this.#format = format;
		this.#csv = format === 'csv';
		this.#close = close;
		this.#quote = quoted('"', format);
		this.#hexOpen = quoted('"0x', format);
	}

	/**
	 * A schema's field writers, or null when its fields as object keys would not come out in
	 * schema order, once each (two fields of one name, a field named like another's meaning, a
	 * key that JavaScript orders first or treats specially): those records take the object path.
	 */
	schema(index: number): readonly FieldWriter[] | null {
		let fields = this.#schemas[index];
		if (fields === undefined) this.#schemas[index] = fields = this.#writers(index);
		return fields;
	}

	#writers(index: number): readonly FieldWriter[] | null {
		const schema = EVENT_SCHEMAS[index];
		if (!schema) return null;
		const keys = payloadKeys(schema);
		const plain = (k: string) => !ARRAY_INDEX.test(k) && k !== '__proto__';
		if (!keys || ![...keys].every(plain)) return null;
		const format = this.#format;
		const fieldKeys = schema.fields.map((f, k) =>
			quoted(`${k > 0 ? ',' : ''}${JSON.stringify(f.name)}:`, format),
		);
		// In a CSV cell, the quotes doubled.
		return schema.fields.map((f, k) => ({
			key: fieldKeys[k]!,
			meaningKey: quoted(`,${JSON.stringify(`${f.name}Name`)}:`, format),
			map: f.map,
			next: new Piece(fieldKeys[k + 1] ?? this.#close),
			recent: new RecentValues(),
		}));
	}

	/**
	 * Every field of the schema, each value followed by what comes after it (the next key, or
	 * after the last, `close`): recent values of a field are copied as written before. False
	 * when a field is missing or cannot be written so (the caller then drops what was written).
	 */
	every(
		sink: ByteSink,
		buf: DecodedBuffer,
		fields: readonly FieldWriter[],
		first: number,
		count: number,
	): boolean {
		// The field table read through its word and byte views in this body (as the chunk
		// builder reads it): a call per read cost more than the copying.
		const words = buf.fieldWords;
		const bytes = buf.fieldBytes;
		for (let f = 0; f < count; f++) {
			const w = fields[f]!;
			const j = first + f;
			const b = j * FieldOut.SIZE;
			if (bytes[b + FieldOut.missing] !== 0) return false;
			const type = bytes[b + FieldOut.type]!;
			if (OF_IMAGE[type] === 1) {
				if (!this.#value(sink, buf, j, type)) return false;
				sink.piece(w.next);
				continue;
			}
			const lo = words[(b + FieldOut.value) >> 2]!;
			const hi = words[(b + FieldOut.value + 4) >> 2]!;
			const r = w.recent;
			if (!r.on) {
				if (!this.#number(sink, w, type, lo, hi)) return false;
				sink.piece(w.next);
				continue;
			}
			const slot = (lo ^ (lo >>> 6) ^ (lo >>> 12) ^ hi ^ (hi >>> 6)) & (RECENT_SLOTS - 1);
			const at = slot * SLOT_WORDS;
			const kept = r.words;
			const tag = kept[at + 2]!;
			if (kept[at] === lo && kept[at + 1] === hi && (tag & 255) === type + 1) {
				sink.words(kept, at + 3, tag >>> 8);
				r.hits++;
				continue;
			}
			const from = sink.length;
			if (!this.#number(sink, w, type, lo, hi)) return false;
			sink.piece(w.next);
			const n = sink.length - from;
			if (n <= RECENT_BYTES && type < 255) {
				sink.keep(from, n, kept, at + 3);
				kept[at] = lo;
				kept[at + 1] = hi;
				kept[at + 2] = (n << 8) | (type + 1);
			}
			if (++r.misses + r.hits >= RECENT_TRIAL) {
				if (r.hits * 4 < r.misses) r.on = false;
				r.hits = r.misses = 0;
			}
		}
		return true;
	}

	/**
	 * The first `count` fields as a JSON object's members, without `close`; false when one is
	 * missing.
	 */
	some(
		sink: ByteSink,
		buf: DecodedBuffer,
		fields: readonly FieldWriter[],
		first: number,
		count: number,
	): boolean {
		for (let f = 0; f < count; f++) {
			const w = fields[f];
			const j = first + f;
			if (!w || buf.fieldU8(j, FieldOut.missing) !== 0) return false;
			sink.raw(w.key);
			const type = buf.fieldU8(j, FieldOut.type);
			const written =
				OF_IMAGE[type] === 1
					? this.#value(sink, buf, j, type)
					: this.#number(
							sink,
							w,
							type,
							buf.fieldU32(j, FieldOut.value),
							buf.fieldU32(j, FieldOut.value + 4),
						);
			if (!written) return false;
		}
		return true;
	}

	/** A value held in the image (an address, a string, a GUID, bytes). */
	#value(sink: ByteSink, buf: DecodedBuffer, j: number, type: number): boolean {
		const image = buf.image;
		const q = this.#quote;
		const doubled = this.#csv;
		const offset = buf.fieldU32(j, FieldOut.offset);
		switch (type) {
			case FieldType.IPv4:
				sink.raw(q);
				sink.uint(image[offset]!);
				sink.byte(46);
				sink.uint(image[offset + 1]!);
				sink.byte(46);
				sink.uint(image[offset + 2]!);
				sink.byte(46);
				sink.uint(image[offset + 3]!);
				sink.raw(q);
				return true;
			case FieldType.IPv6:
				sink.jsonString(ipv6(image, offset), doubled);
				return true;
			case FieldType.SocketAddress: {
				const a = socketAddress(image, offset, buf.fieldSize(j));
				if (a === null) sink.raw(NULL);
				else sink.jsonString(a.text, doubled);
				return true;
			}
			case FieldType.UnicodeString:
			case FieldType.AnsiString: {
				const bytes = image.subarray(offset, offset + buf.fieldSize(j));
				const text = (type === FieldType.UnicodeString ? utf16 : latin1).decode(bytes);
				sink.jsonString(text.replace(/\0$/, ''), doubled);
				return true;
			}
			case FieldType.Guid:
				sink.raw(q);
				sink.ascii(guidAt(image, offset));
				sink.raw(q);
				return true;
			case FieldType.Binary:
				sink.raw(q);
				sink.ascii(hexOf(image.subarray(offset, offset + buf.fieldSize(j))));
				sink.raw(q);
				return true;
		}
		return false;
	}

	/** A value held in the field's 64 bits (a number, pointer, status, boolean) and its meaning. */
	#number(sink: ByteSink, w: FieldWriter, type: number, lo: number, hi: number): boolean {
		const doubled = this.#csv;
		let value: number;
		switch (type) {
			case FieldType.Pointer:
				sink.raw(this.#hexOpen);
				sink.hex64(hi, lo);
				sink.raw(this.#quote);
				return true;
			case FieldType.Boolean:
				sink.raw(hi !== 0 || lo !== 0 ? TRUE : FALSE);
				return true;
			case FieldType.NTStatus: {
				if (hi >= SAFE_HI) return false;
				value = hi * 0x100000000 + lo;
				sink.uint(value);
				sink.raw(w.meaningKey);
				sink.jsonString(this.#names.status(value), doubled);
				return true;
			}
			case FieldType.Int32:
				value = lo | 0;
				sink.int(value);
				break;
			default:
				// Above 2^53 the object holds the decimal text.
				if (hi >= SAFE_HI) return false;
				value = hi * 0x100000000 + lo;
				sink.uint(value);
		}
		if (w.map !== null) {
			const meaning = this.#names.meaning(w.map, value);
			if (meaning !== null) {
				sink.raw(w.meaningKey);
				sink.jsonString(meaning, doubled);
			}
		}
		return true;
	}
}

/** Field types whose value is read from the image rather than from the field's 64 bits. */
const OF_IMAGE = new Uint8Array(256);
for (const t of [
	FieldType.IPv4,
	FieldType.IPv6,
	FieldType.SocketAddress,
	FieldType.UnicodeString,
	FieldType.AnsiString,
	FieldType.Guid,
	FieldType.Binary,
])
	OF_IMAGE[t] = 1;

/**
 * A record's payload as the events table's `payload` column holds it: its fields as one JSON
 * object (in CSV, the cell csvCell makes of it), byte for byte JSON.stringify of the object the
 * events table is given ({...fields}, the record having no problem, raw payload or extended items).
 */
export class PayloadWriter {
	readonly #fields: FieldsWriter;
	readonly #open: Uint8Array;
	readonly #empty = utf8Bytes('{}');

	constructor(format: ExportFormat) {
		const csv = format === 'csv';
		this.#fields = new FieldsWriter(format, utf8Bytes(csv ? '}"' : '}'));
		this.#open = utf8Bytes(csv ? '"{' : '{');
	}

	/**
	 * Writes record i's payload object when it is a schema-decoded event without damage or
	 * extended items whose fields are all there; otherwise writes nothing and returns false.
	 */
	write(sink: ByteSink, buf: DecodedBuffer, i: number): boolean {
		if (
			buf.u8(i, RecordOut.layout) !== PayloadLayout.schema ||
			buf.u16(i, RecordOut.extCount) !== 0 ||
			buf.u16(i, RecordOut.damage) !== 0
		)
			return false;
		const fields = this.#fields.schema(buf.u16(i, RecordOut.schemaIndex));
		const count = buf.u16(i, RecordOut.fieldCount);
		if (fields === null || count !== fields.length) return false;
		// No fields: `{}`, which a CSV cell holds unquoted.
		if (count === 0) {
			sink.raw(this.#empty);
			return true;
		}
		const start = sink.length;
		sink.raw(this.#open);
		sink.raw(fields[0]!.key);
		if (this.#fields.every(sink, buf, fields, buf.u32(i, RecordOut.fieldStart), count)) return true;
		sink.length = start;
		return false;
	}
}
