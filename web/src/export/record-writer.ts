// Records as NDJSON lines or CSV rows written straight from a decoded buffer into a ByteSink,
// byte for byte what recordLine(recordJson(...)) prints (tests/export/record-writer.test.ts holds
// the two side by side). Schema-decoded events, nearly every record of a Winsock trace, go through
// writers made once per schema: constant keys and cells as bytes, numbers and addresses written
// as digits, the time's date and seconds made once per second. Every other record (TraceLogging,
// strings, raw payloads, damage, extended items, a field cut short) takes the record object path.
import { PayloadLayout, RecordOut } from '../generated/layouts.ts';
import { EVENT_SCHEMAS } from '../generated/schemas.ts';
import type { DecodedBuffer } from '../decoder/decoded-buffer.ts';
import type { OpenTrace } from '../decoder/etl-file.ts';
import {
	KIND_NAMES,
	providerName,
	recordJson,
	type ProviderTable,
} from '../decoder/record-json.ts';
import { csvCell, recordLine, type ExportFormat } from './record-lines.ts';
import { ByteSink, Piece, utf8Bytes } from './byte-sink.ts';
import { CurrentSecond, fraction } from './current-second.ts';
import {
	FieldsWriter,
	RECENT_SLOTS,
	RecentValues,
	SLOT_WORDS,
	type FieldWriter,
} from './fields-writer.ts';

/** pid/tid as the record has them (no override). */
export const OWN = -1;
/** The value printed as null (what the columns store for "no PID"). */
const NO_ID = 0xffffffff;

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
 * What a schema's lines are written with: its field writers (FieldsWriter.schema), or null when
 * its records take the object path.
 */
function schemaWriter(
	index: number,
	format: ExportFormat,
	fields: FieldsWriter,
): SchemaWriter | null {
	const schema = EVENT_SCHEMAS[index];
	const writers = fields.schema(index);
	if (!schema || !writers) return null;
	return {
		name: utf8Bytes(
			format === 'csv'
				? `${csvCell(schema.name)},`
				: `"name":${JSON.stringify(schema.name)},"fields":{`,
		),
		fields: writers,
		tails: [],
		head: null,
		headProvider: -1,
		headId: -1,
		headCodes: -1,
		headKeywordHi: -1,
		headKeywordLo: -1,
	};
}

export class RecordWriter {
	readonly format: ExportFormat;
	readonly #trace: Pick<OpenTrace, 'facts'>;
	readonly #providers: ProviderTable;
	readonly #csv: boolean;
	readonly #schemas: (SchemaWriter | null | undefined)[] = [];
	readonly #providerBytes: Uint8Array[] = [];
	readonly #kinds: Uint8Array[];
	/** A JSON string's quote, and `"0x` before hex digits: doubled in a CSV cell. */
	readonly #fields: FieldsWriter;
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
		this.#fields = new FieldsWriter(format, this.#csv ? CELL_CLOSE : CLOSE_CLOSE_LINE);
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
			this.#schemas[schemaIndex] = schema = schemaWriter(schemaIndex, this.format, this.#fields);
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
			if (this.#fields.every(sink, buf, schema.fields, first, count)) return true;
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
		if (!this.#fields.some(sink, buf, schema.fields, first, count)) {
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

const COMMA = utf8Bytes(',');
const COMMA_HEX = utf8Bytes(',0x');
const CELL_OPEN = utf8Bytes('"{');
const CELL_CLOSE = utf8Bytes('}"\n');
const CLOSE_LINE = utf8Bytes('}\n');
const CLOSE_CLOSE_LINE = utf8Bytes('}}\n');
