// Records as NDJSON lines or CSV rows written straight from a decoded buffer into a ByteSink,
// byte for byte what recordLine(recordJson(...)) prints (tests/export/record-writer.test.ts holds
// the two side by side). Schema-decoded events, nearly every record of a Winsock trace, go through
// writers made once per schema: constant keys and cells as bytes, numbers and addresses written
// as digits, the time's date and seconds made once per second. Every other record (TraceLogging,
// strings, raw payloads, damage, extended items, a field cut short) takes the record object path.
import { FieldOut, FieldType, PayloadLayout, RecordOut } from '../generated/layouts.ts';
import { EVENT_SCHEMAS } from '../generated/schemas.ts';
import { ipv6 } from '../net/ip.ts';
import { socketAddress } from '../net/sockaddr.ts';
import type { DecodedBuffer } from '../decoder/decoded-buffer.ts';
import type { OpenTrace } from '../decoder/etl-file.ts';
import { hexOf } from '../decoder/event-fields.ts';
import {
	KIND_NAMES,
	providerName,
	recordJson,
	type ProviderTable,
} from '../decoder/record-json.ts';
import { csvCell, recordLine, type ExportFormat } from './record-lines.ts';
import { guidAt } from '../decoder/wasm.ts';
import { ByteSink, Piece, utf8Bytes } from './byte-sink.ts';
import { CurrentSecond, fraction } from './current-second.ts';
import { payloadKeys } from './payload-keys.ts';
import { ValueNames } from './value-names.ts';

/** pid/tid as the record has them (no override). */
export const OWN = -1;
/** The value printed as null (what the columns store for "no PID"). */
const NO_ID = 0xffffffff;
const SAFE_HI = 0x200000;

const utf16 = new TextDecoder('utf-16le');
const latin1 = new TextDecoder('latin1');

interface FieldWriter {
	/** `"Name":` (with the comma before it after the first field). */
	readonly key: Uint8Array;
	/** `,"NameName":`, for a named meaning. */
	readonly meaningKey: Uint8Array;
	readonly map: string | null;
	/**
	 * What follows the value in a record that has every field of its schema: the next field's
	 * key, or the end of the line after the last.
	 */
	readonly next: Piece;
	/** Value, meaning and `next` as written for recent values of this field. */
	readonly recent: RecentValues;
}

interface SchemaWriter {
	/** `"name":"X","fields":{` (NDJSON) or `X,` (CSV). */
	readonly name: Uint8Array;
	readonly fields: readonly FieldWriter[];
	/**
	 * `,"cpu":N,"name":"X","fields":{"First":` (NDJSON) or `,N,X,"{""First"":` (CSV) by CPU, for
	 * records with every field of the schema.
	 */
	readonly tails: (Piece | null)[];
	/**
	 * What comes between the FILETIME and the PID (provider, id, version, level, opcode, task,
	 * keyword), as last written, and the header values it was written for.
	 */
	head: Piece | null;
	headProvider: number;
	headId: number;
	headCodes: number;
	headKeywordHi: number;
	headKeywordLo: number;
}

/**
 * The bytes written for recent raw values of one field (value, meaning and what follows), by a
 * hash of the value: most fields of a Winsock trace (enter/exit, locations, statuses, the
 * process and endpoint pointers) take few values, so a line is mostly copied. A field whose
 * values seldom repeat stops being kept after a while.
 */
class RecentValues {
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

const RECENT_SLOTS = 64;
const SLOT_WORDS = 16;
/** The most bytes a slot holds (longer values are written each time). */
const RECENT_BYTES = (SLOT_WORDS - 3) * 4;
/** Lookups after which a field whose values hit less than a quarter of the time stops being kept. */
const RECENT_TRIAL = 1024;

const ARRAY_INDEX = /^(0|[1-9]\d*)$/;

/**
 * A schema's field writers, or null when its fields as object keys would not come out in schema
 * order, once each (two fields of one name, a field named like another's meaning, a key that
 * JavaScript orders first or treats specially): those records take the object path.
 */
function schemaWriter(index: number, format: ExportFormat): SchemaWriter | null {
	const schema = EVENT_SCHEMAS[index];
	if (!schema) return null;
	const keys = payloadKeys(schema);
	const plain = (k: string) => !ARRAY_INDEX.test(k) && k !== '__proto__';
	if (!keys || ![...keys].every(plain)) return null;
	const close = format === 'csv' ? CELL_CLOSE : CLOSE_CLOSE_LINE;
	const fieldKeys = schema.fields.map((f, k) =>
		quoted(`${k > 0 ? ',' : ''}${JSON.stringify(f.name)}:`, format),
	);
	return {
		name: utf8Bytes(
			format === 'csv'
				? `${csvCell(schema.name)},`
				: `"name":${JSON.stringify(schema.name)},"fields":{`,
		),
		// In a CSV cell, the quotes doubled.
		fields: schema.fields.map((f, k) => ({
			key: fieldKeys[k]!,
			meaningKey: quoted(`,${JSON.stringify(`${f.name}Name`)}:`, format),
			map: f.map,
			next: new Piece(fieldKeys[k + 1] ?? close),
			recent: new RecentValues(),
		})),
		tails: [],
		head: null,
		headProvider: -1,
		headId: -1,
		headCodes: -1,
		headKeywordHi: -1,
		headKeywordLo: -1,
	};
}

const quoted = (json: string, format: ExportFormat) =>
	utf8Bytes(format === 'csv' ? json.replaceAll('"', '""') : json);

export class RecordWriter {
	readonly format: ExportFormat;
	readonly #trace: Pick<OpenTrace, 'facts'>;
	readonly #providers: ProviderTable;
	readonly #csv: boolean;
	readonly #schemas: (SchemaWriter | null | undefined)[] = [];
	readonly #providerBytes: Uint8Array[] = [];
	readonly #kinds: Uint8Array[];
	/** A JSON string's quote, and `"0x` before hex digits: doubled in a CSV cell. */
	readonly #quote: Uint8Array;
	readonly #hexOpen: Uint8Array;
	readonly #names = new ValueNames();
	readonly #keys = {
		time: utf8Bytes('","time":"'),
		id: utf8Bytes('"id":'),
		version: utf8Bytes(',"version":'),
		level: utf8Bytes(',"level":'),
		opcode: utf8Bytes(',"opcode":'),
		task: utf8Bytes(',"task":'),
		keyword: utf8Bytes(',"keyword":"0x'),
		pid: utf8Bytes('","pid":'),
		tid: utf8Bytes(',"tid":'),
		cpu: utf8Bytes(',"cpu":'),
		null: utf8Bytes('null'),
		true: utf8Bytes('true'),
		false: utf8Bytes('false'),
	};
	// The second the last record's time fell in, and what is written around it.
	readonly #second = new CurrentSecond();
	/** `Z","filetime":"` (CSV: `Z,`) and the seconds' digits. */
	#filetimeHead = new Piece(new Uint8Array(0));
	/** By kind: the line's start up to the time's seconds, made once per second. */
	#timeHeads: (Piece | null)[] = [];
	/** PID and TID as written, by thread (type 1 marks a slot in use). */
	readonly #threads = new RecentValues();
	/** Where the parts made once are written first. */
	readonly #scratch = new ByteSink(256);

	/**
	 * `trace` and `providers` are those recordJson is given for these buffers (the providers of
	 * the decoder that decoded them).
	 */
	constructor(format: ExportFormat, trace: Pick<OpenTrace, 'facts'>, providers: ProviderTable) {
		this.format = format;
		this.#trace = trace;
		this.#providers = providers;
		this.#csv = format === 'csv';
		this.#quote = quoted('"', format);
		this.#hexOpen = quoted('"0x', format);
		this.#kinds = KIND_NAMES.map((k) => utf8Bytes(this.#csv ? `${k},` : `{"kind":"${k}`));
	}

	/** Record i of buf, one line. pid and tid replace the record's own unless OWN. */
	record(sink: ByteSink, buf: DecodedBuffer, i: number, pid = OWN, tid = OWN): void {
		if (this.fast(sink, buf, i, pid, tid)) return;
		const r = recordJson(buf, i, this.#trace, this.#providers);
		if (pid !== OWN) r.pid = pid === NO_ID ? null : pid;
		if (tid !== OWN) r.tid = tid === NO_ID ? null : tid;
		sink.utf8(recordLine(r, this.format));
		sink.byte(10);
	}

	/**
	 * Writes record i when it is a schema-decoded event without damage or extended items whose
	 * fields are all there; otherwise writes nothing and returns false.
	 */
	fast(sink: ByteSink, buf: DecodedBuffer, i: number, pid = OWN, tid = OWN): boolean {
		// The record's entries read through the table's views in this body, as the fields are.
		const r8 = buf.recordBytes;
		const r16 = buf.recordHalves;
		const r32 = buf.recordWords;
		const at = i * RecordOut.SIZE;
		if (
			r8[at + RecordOut.layout]! !== PayloadLayout.schema ||
			r16[(at + RecordOut.extCount) >> 1]! !== 0 ||
			r16[(at + RecordOut.damage) >> 1]! !== 0
		)
			return false;
		const schemaIndex = r16[(at + RecordOut.schemaIndex) >> 1]!;
		let schema = this.#schemas[schemaIndex];
		if (schema === undefined)
			this.#schemas[schemaIndex] = schema = schemaWriter(schemaIndex, this.format);
		if (schema === null || !this.#moveSecond(buf, i)) return false;
		const kindCode = r8[at + RecordOut.kind]!;
		if (kindCode >= this.#kinds.length) return false;
		const start = sink.length;
		const csv = this.#csv;
		// Kind, time up to its seconds; the fraction; FILETIME up to its seconds; the fraction.
		sink.piece(this.#timeHeads[kindCode] ?? this.#timeHead(kindCode));
		const ticks = this.#second.ticks(buf, i);
		const fractionAt = sink.length;
		fraction(sink, ticks);
		sink.piece(this.#filetimeHead);
		sink.again(fractionAt, 7);
		sink.piece(this.#head(schema, buf, i));
		this.#ids(
			sink,
			pid === OWN ? r32[(at + RecordOut.pid) >> 2]! : pid,
			tid === OWN ? r32[(at + RecordOut.tid) >> 2]! : tid,
		);
		const count = r16[(at + RecordOut.fieldCount) >> 1]!;
		const first = r32[(at + RecordOut.fieldStart) >> 2]!;
		const cpu = buf.entry.cpu;
		if (count > 0 && count === schema.fields.length) {
			sink.piece(schema.tails[cpu] ?? this.#tail(schema, cpu));
			if (this.#everyField(sink, buf, schema, first, count)) return true;
			sink.length = start;
			return false;
		}
		sink.raw(csv ? COMMA : this.#keys.cpu);
		sink.uint(cpu);
		sink.raw(COMMA);
		sink.raw(schema.name);
		// In CSV the fields' JSON is one cell, quoted (its keys hold quotes) unless it is {}.
		const cell = csv && count > 0;
		if (cell) sink.raw(CELL_OPEN);
		else if (csv) sink.byte(123);
		if (!this.#fields(sink, buf, schema, first, count)) {
			sink.length = start;
			return false;
		}
		sink.raw(cell ? CELL_CLOSE : csv ? CLOSE_LINE : CLOSE_CLOSE_LINE);
		return true;
	}

	/** `{"kind":"K","time":"` and the time's date and seconds (CSV: `K,` and the same). */
	#timeHead(kind: number): Piece {
		const s = this.#scratch;
		s.length = 0;
		s.raw(this.#kinds[kind]!);
		if (!this.#csv) s.raw(this.#keys.time);
		s.raw(this.#second.iso);
		return (this.#timeHeads[kind] = new Piece(s.bytes.slice(0, s.length)));
	}

	/**
	 * What comes between the FILETIME and the PID: made again when a record's provider or header
	 * values differ from the last of its schema's (the header values of an event type rarely
	 * change).
	 */
	#head(schema: SchemaWriter, buf: DecodedBuffer, i: number): Piece {
		const r8 = buf.recordBytes;
		const r16 = buf.recordHalves;
		const r32 = buf.recordWords;
		const at = i * RecordOut.SIZE;
		const provider = r16[(at + RecordOut.providerIndex) >> 1]!;
		const id = r16[(at + RecordOut.id) >> 1]!;
		const version = r8[at + RecordOut.version]!;
		const level = r8[at + RecordOut.level]!;
		const opcode = r8[at + RecordOut.opcode]!;
		const task = r16[(at + RecordOut.task) >> 1]!;
		// Version, level, opcode and task in one number (8 + 8 + 8 + 16 bits).
		const codes = ((version << 24) | (level << 16) | (opcode << 8)) * 0x10000 + task;
		const keywordHi = r32[(at + RecordOut.keyword + 4) >> 2]!;
		const keywordLo = r32[(at + RecordOut.keyword) >> 2]!;
		if (
			schema.head !== null &&
			schema.headProvider === provider &&
			schema.headId === id &&
			schema.headCodes === codes &&
			schema.headKeywordHi === keywordHi &&
			schema.headKeywordLo === keywordLo
		)
			return schema.head;
		const csv = this.#csv;
		const k = this.#keys;
		const s = this.#scratch;
		s.length = 0;
		s.raw(this.#provider(provider));
		if (!csv) s.raw(k.id);
		s.uint(id);
		s.raw(csv ? COMMA : k.version);
		s.uint(version);
		s.raw(csv ? COMMA : k.level);
		s.uint(level);
		s.raw(csv ? COMMA : k.opcode);
		s.uint(opcode);
		s.raw(csv ? COMMA : k.task);
		s.uint(task);
		s.raw(csv ? COMMA_HEX : k.keyword);
		s.hex64(keywordHi, keywordLo);
		s.raw(csv ? COMMA : k.pid);
		schema.head = new Piece(s.bytes.slice(0, s.length));
		schema.headProvider = provider;
		schema.headId = id;
		schema.headCodes = codes;
		schema.headKeywordHi = keywordHi;
		schema.headKeywordLo = keywordLo;
		return schema.head;
	}

	/** From the CPU to the first field's key, for a record with every field of its schema. */
	#tail(schema: SchemaWriter, cpu: number): Piece {
		const s = this.#scratch;
		s.length = 0;
		s.raw(this.#csv ? COMMA : this.#keys.cpu);
		s.uint(cpu);
		s.raw(COMMA);
		s.raw(schema.name);
		if (this.#csv) s.raw(CELL_OPEN);
		s.raw(schema.fields[0]!.key);
		const b = new Piece(s.bytes.slice(0, s.length));
		schema.tails[cpu] = b;
		return b;
	}

	/**
	 * Every field of the schema, each value followed by what comes after it (the next key, or
	 * the end of the line): recent values of a field are copied as written before.
	 */
	#everyField(
		sink: ByteSink,
		buf: DecodedBuffer,
		schema: SchemaWriter,
		first: number,
		count: number,
	): boolean {
		const fields = schema.fields;
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

	/** The payload fields as a JSON object's members; false when one is missing. */
	#fields(
		sink: ByteSink,
		buf: DecodedBuffer,
		schema: SchemaWriter,
		first: number,
		count: number,
	): boolean {
		for (let f = 0; f < count; f++) {
			const w = schema.fields[f];
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
				if (a === null) sink.raw(this.#keys.null);
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
				sink.raw(hi !== 0 || lo !== 0 ? this.#keys.true : this.#keys.false);
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

	/** PID, `,"tid":` and TID: copied as written before for the threads seen lately. */
	#ids(sink: ByteSink, pid: number, tid: number): void {
		const r = this.#threads;
		const slot = (tid ^ (tid >>> 6) ^ (pid >>> 2)) & (RECENT_SLOTS - 1);
		const at = slot * SLOT_WORDS;
		const kept = r.words;
		const tag = kept[at + 2]!;
		if (kept[at] === pid && kept[at + 1] === tid && (tag & 255) === 1) {
			sink.words(kept, at + 3, tag >>> 8);
			return;
		}
		const from = sink.length;
		this.#id(sink, pid);
		sink.raw(this.#csv ? COMMA : this.#keys.tid);
		this.#id(sink, tid);
		const n = sink.length - from;
		sink.keep(from, n, kept, at + 3);
		kept[at] = pid;
		kept[at + 1] = tid;
		kept[at + 2] = (n << 8) | 1;
	}

	#id(sink: ByteSink, v: number): void {
		if (v !== NO_ID) sink.uint(v);
		else if (!this.#csv) sink.raw(this.#keys.null);
	}

	/** `,"providerGuid":…,"provider":…,` (NDJSON) or `guid,name,` (CSV), made once per provider. */
	#provider(index: number): Uint8Array {
		let b = this.#providerBytes[index];
		if (!b) {
			const guid = this.#providers.guid(index);
			const name = providerName(guid);
			b = utf8Bytes(
				this.#csv
					? `,${csvCell(guid)},${csvCell(name)},`
					: `","providerGuid":${JSON.stringify(guid)},"provider":${JSON.stringify(name)},`,
			);
			this.#providerBytes[index] = b;
		}
		return b;
	}

	/** Makes the second of record i's time current (CurrentSecond.move); false when it has none. */
	#moveSecond(buf: DecodedBuffer, i: number): boolean {
		const moved = this.#second.move(buf, i);
		if (moved === 'moved') {
			this.#filetimeHead = new Piece(
				utf8Bytes(`${this.#csv ? 'Z,' : 'Z","filetime":"'}${this.#second.seconds.toString()}`),
			);
			this.#timeHeads = [];
		}
		return moved !== null;
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

const COMMA = utf8Bytes(',');
const COMMA_HEX = utf8Bytes(',0x');
const CELL_OPEN = utf8Bytes('"{');
const CELL_CLOSE = utf8Bytes('}"\n');
const CLOSE_LINE = utf8Bytes('}\n');
const CLOSE_CLOSE_LINE = utf8Bytes('}}\n');
