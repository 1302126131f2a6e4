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
import { hexOf, mapValue } from '../decoder/event-fields.ts';
import {
	KIND_NAMES,
	providerName,
	recordJson,
	type ProviderTable,
} from '../decoder/record-json.ts';
import { csvCell, recordLine, type ExportFormat } from './record-lines.ts';
import { explainStatus } from '../decoder/status.ts';
import { filetimeToIso } from '../decoder/time.ts';
import { guidAt } from '../decoder/wasm.ts';
import { ByteSink, utf8Bytes } from './byte-sink.ts';

/** pid/tid as the record has them (no override). */
export const OWN = -1;
/** The value printed as null (what the columns store for "no PID"). */
const NO_ID = 0xffffffff;
const TICKS_PER_SECOND = 10_000_000;
const SAFE_HI = 0x200000;

const utf16 = new TextDecoder('utf-16le');
const latin1 = new TextDecoder('latin1');

interface FieldWriter {
	/** `"Name":` (with the comma before it after the first field). */
	readonly key: Uint8Array;
	/** `,"NameName":`, for a named meaning. */
	readonly meaningKey: Uint8Array;
	readonly map: string | null;
}

interface SchemaWriter {
	/** `"name":"X","fields":{` (NDJSON) or `X,` (CSV). */
	readonly name: Uint8Array;
	readonly fields: readonly FieldWriter[];
}

const ARRAY_INDEX = /^(0|[1-9]\d*)$/;

/**
 * A schema's field writers, or null when its fields as object keys would not come out in schema
 * order, once each (two fields of one name, a field named like another's meaning, a key that
 * JavaScript orders first or treats specially): those records take the object path.
 */
function schemaWriter(index: number, format: ExportFormat): SchemaWriter | null {
	const schema = EVENT_SCHEMAS[index];
	if (!schema) return null;
	const keys = new Set<string>();
	for (const f of schema.fields) {
		keys.add(f.name);
		keys.add(`${f.name}Name`);
	}
	const plain = (k: string) => !ARRAY_INDEX.test(k) && k !== '__proto__';
	if (keys.size !== schema.fields.length * 2 || ![...keys].every(plain)) return null;
	return {
		name: utf8Bytes(
			format === 'csv'
				? `${csvCell(schema.name)},`
				: `"name":${JSON.stringify(schema.name)},"fields":{`,
		),
		// In a CSV cell, the quotes doubled.
		fields: schema.fields.map((f, k) => ({
			key: quoted(`${k > 0 ? ',' : ''}${JSON.stringify(f.name)}:`, format),
			meaningKey: quoted(`,${JSON.stringify(`${f.name}Name`)}:`, format),
			map: f.map,
		})),
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
	readonly #statusNames = new Map<number, string>();
	readonly #meanings = new Map<string, Map<number, string | null>>();
	readonly #keys = {
		time: utf8Bytes('","time":"'),
		filetime: utf8Bytes('Z","filetime":"'),
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
	// The second the last record's time fell in: its FILETIME (hi, lo), ISO date and time up to
	// the seconds, and the seconds in decimal (the FILETIME's digits before the last seven).
	#secondHi = 0;
	#secondLo = 0;
	#secondKnown = false;
	#iso: Uint8Array = new Uint8Array(0);
	#seconds: Uint8Array = new Uint8Array(0);

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
		if (
			buf.u8(i, RecordOut.layout) !== PayloadLayout.schema ||
			buf.u16(i, RecordOut.extCount) !== 0 ||
			buf.u16(i, RecordOut.damage) !== 0
		)
			return false;
		const schemaIndex = buf.u16(i, RecordOut.schemaIndex);
		let schema = this.#schemas[schemaIndex];
		if (schema === undefined)
			this.#schemas[schemaIndex] = schema = schemaWriter(schemaIndex, this.format);
		if (schema === null || !this.#second(buf, i)) return false;
		const kind = this.#kinds[buf.u8(i, RecordOut.kind)];
		if (!kind) return false;
		const start = sink.length;
		const csv = this.#csv;
		const k = this.#keys;
		sink.raw(kind);
		// Time and FILETIME.
		if (!csv) sink.raw(k.time);
		const ticks = this.#ticks(buf, i);
		sink.raw(this.#iso);
		const fractionAt = sink.length;
		fraction(sink, ticks);
		sink.raw(csv ? Z_COMMA : k.filetime);
		sink.raw(this.#seconds);
		sink.again(fractionAt, 7);
		sink.raw(this.#provider(buf.u16(i, RecordOut.providerIndex)));
		if (!csv) sink.raw(k.id);
		sink.uint(buf.u16(i, RecordOut.id));
		sink.raw(csv ? COMMA : k.version);
		sink.uint(buf.u8(i, RecordOut.version));
		sink.raw(csv ? COMMA : k.level);
		sink.uint(buf.u8(i, RecordOut.level));
		sink.raw(csv ? COMMA : k.opcode);
		sink.uint(buf.u8(i, RecordOut.opcode));
		sink.raw(csv ? COMMA : k.task);
		sink.uint(buf.u16(i, RecordOut.task));
		sink.raw(csv ? COMMA_HEX : k.keyword);
		sink.hex64(buf.u32(i, RecordOut.keyword + 4), buf.u32(i, RecordOut.keyword));
		sink.raw(csv ? COMMA : k.pid);
		this.#id(sink, pid === OWN ? buf.u32(i, RecordOut.pid) : pid);
		sink.raw(csv ? COMMA : k.tid);
		this.#id(sink, tid === OWN ? buf.u32(i, RecordOut.tid) : tid);
		sink.raw(csv ? COMMA : k.cpu);
		sink.uint(buf.entry.cpu);
		sink.raw(COMMA);
		sink.raw(schema.name);
		const count = buf.u16(i, RecordOut.fieldCount);
		// In CSV the fields' JSON is one cell, quoted (its keys hold quotes) unless it is {}.
		const cell = csv && count > 0;
		if (cell) sink.raw(CELL_OPEN);
		else if (csv) sink.byte(123);
		if (!this.#fields(sink, buf, schema, buf.u32(i, RecordOut.fieldStart), count)) {
			sink.length = start;
			return false;
		}
		sink.raw(cell ? CELL_CLOSE : csv ? CLOSE_LINE : CLOSE_CLOSE_LINE);
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
		const image = buf.image;
		const k = this.#keys;
		const q = this.#quote;
		const doubled = this.#csv;
		for (let f = 0; f < count; f++) {
			const w = schema.fields[f];
			const j = first + f;
			if (!w || buf.fieldU8(j, FieldOut.missing) !== 0) return false;
			sink.raw(w.key);
			const type = buf.fieldU8(j, FieldOut.type);
			const lo = buf.fieldU32(j, FieldOut.value);
			const hi = buf.fieldU32(j, FieldOut.value + 4);
			const offset = buf.fieldU32(j, FieldOut.offset);
			let value: number;
			switch (type) {
				case FieldType.Pointer:
					sink.raw(this.#hexOpen);
					sink.hex64(hi, lo);
					sink.raw(q);
					continue;
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
					continue;
				case FieldType.IPv6:
					sink.jsonString(ipv6(image, offset), doubled);
					continue;
				case FieldType.SocketAddress: {
					const a = socketAddress(image, offset, buf.fieldU32(j, FieldOut.size));
					if (a === null) sink.raw(k.null);
					else sink.jsonString(a.text, doubled);
					continue;
				}
				case FieldType.Boolean:
					sink.raw(hi !== 0 || lo !== 0 ? k.true : k.false);
					continue;
				case FieldType.UnicodeString:
				case FieldType.AnsiString: {
					const bytes = image.subarray(offset, offset + buf.fieldU32(j, FieldOut.size));
					const text = (type === FieldType.UnicodeString ? utf16 : latin1).decode(bytes);
					sink.jsonString(text.replace(/\0$/, ''), doubled);
					continue;
				}
				case FieldType.Guid:
					sink.raw(q);
					sink.ascii(guidAt(image, offset));
					sink.raw(q);
					continue;
				case FieldType.Binary:
					sink.raw(q);
					sink.ascii(hexOf(image.subarray(offset, offset + buf.fieldU32(j, FieldOut.size))));
					sink.raw(q);
					continue;
				case FieldType.NTStatus: {
					if (hi >= SAFE_HI) return false;
					value = hi * 0x100000000 + lo;
					sink.uint(value);
					sink.raw(w.meaningKey);
					sink.jsonString(this.#statusName(value), doubled);
					continue;
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
				const meaning = this.#meaning(w.map, value);
				if (meaning !== null) {
					sink.raw(w.meaningKey);
					sink.jsonString(meaning, doubled);
				}
			}
		}
		return true;
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

	#statusName(value: number): string {
		let name = this.#statusNames.get(value);
		if (name === undefined) this.#statusNames.set(value, (name = explainStatus(value).name));
		return name;
	}

	#meaning(map: string, value: number): string | null {
		let byValue = this.#meanings.get(map);
		if (!byValue) this.#meanings.set(map, (byValue = new Map()));
		let m = byValue.get(value);
		if (m === undefined) byValue.set(value, (m = mapValue(map, value)));
		return m;
	}

	/** Ticks of record i past the start of the second it falls in (#second made it current). */
	#ticks(buf: DecodedBuffer, i: number): number {
		return (buf.timeHi(i) - this.#secondHi) * 0x100000000 + (buf.timeLo(i) - this.#secondLo);
	}

	/**
	 * Makes the second of record i's time current; false when the time has no ISO form or is
	 * below one second (where the FILETIME's digits are not seconds and seven more).
	 */
	#second(buf: DecodedBuffer, i: number): boolean {
		if (this.#secondKnown) {
			const t = this.#ticks(buf, i);
			if (t >= 0 && t < TICKS_PER_SECOND) return true;
		}
		const time = buf.time(i);
		const iso = filetimeToIso(time);
		const seconds = time / BigInt(TICKS_PER_SECOND);
		if (iso === null || seconds === 0n) return false;
		const base = seconds * BigInt(TICKS_PER_SECOND);
		this.#secondHi = Number(BigInt.asIntN(32, base >> 32n));
		this.#secondLo = Number(base & 0xffffffffn);
		this.#secondKnown = true;
		// "2026-03-14T09:26:53." and "13417954013"
		this.#iso = utf8Bytes(iso.slice(0, 20));
		this.#seconds = utf8Bytes(seconds.toString());
		return true;
	}
}

const COMMA = utf8Bytes(',');
const COMMA_HEX = utf8Bytes(',0x');
const Z_COMMA = utf8Bytes('Z,');
const CELL_OPEN = utf8Bytes('"{');
const CELL_CLOSE = utf8Bytes('}"\n');
const CLOSE_LINE = utf8Bytes('}\n');
const CLOSE_CLOSE_LINE = utf8Bytes('}}\n');

/** The seven digits of ticks (0 ≤ ticks < 10^7), zero-padded. */
function fraction(sink: ByteSink, ticks: number): void {
	sink.reserve(7);
	const out = sink.bytes;
	let at = sink.length + 7;
	sink.length = at;
	let x = ticks;
	for (let d = 0; d < 7; d++) {
		const q = (x / 10) | 0;
		out[--at] = 48 + (x - q * 10);
		x = q;
	}
}
