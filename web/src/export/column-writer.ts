// Picked columns (`sockscope decode --columns`: record columns, payload fields, and the events
// table's columns read from the chunk) of a record written straight from its decoded buffer into
// a ByteSink, byte for byte what pickedEventLine(recordJson(...), eventRow(...)) prints
// (tests/export/column-writer.test.ts holds the two side by side): no record object, no ISO time
// made per record, only the picked fields read. Schema-decoded events whose fields are all there
// take this path; every other record, and picks it does not know (`fields`, a header twice), the
// record object path.
import { FieldOut, FieldType, PayloadLayout, RecordOut } from '../generated/layouts.ts';
import { EVENT_SCHEMAS } from '../generated/schemas.ts';
import { ipv6 } from '../net/ip.ts';
import { socketAddress } from '../net/sockaddr.ts';
import type { DecodedBuffer } from '../decoder/decoded-buffer.ts';
import { hexOf } from '../decoder/event-fields.ts';
import { KIND_NAMES, providerName, type ProviderTable } from '../decoder/record-json.ts';
import { guidAt } from '../decoder/wasm.ts';
import { ByteSink, utf8Bytes } from './byte-sink.ts';
import { CurrentSecond, fraction } from './current-second.ts';
import { payloadKeys } from './payload-keys.ts';
import { PayloadWriter } from './fields-writer.ts';
import { ValueNames } from './value-names.ts';
import { csvCell, type ExportFormat, type PickedColumn } from './record-lines.ts';
import type { RowAt } from './tables.ts';

const NO_ID = 0xffffffff;
/** pid/tid as the record has them (no override). */
const OWN = -1;
const SAFE_HI = 0x200000;
const ARRAY_INDEX = /^(0|[1-9]\d*)$/;

const utf16 = new TextDecoder('utf-16le');
const latin1 = new TextDecoder('latin1');

/** A picked column in a schema's records: a record column, a field's value or meaning, or none. */
interface Cell {
	/** `{"header":` or `,"header":` (NDJSON), `,` or nothing (CSV). */
	readonly key: Uint8Array;
	/** The record column, or null for a payload field's. */
	readonly column: string | null;
	/** The field's index in the schema, -1 when the schema has no such key. */
	readonly field: number;
	/** Whether the key is the field's meaning (`<name>Name`). */
	readonly meaning: boolean;
	readonly map: string | null;
	/** A column of the events table read from the chunk, or null. */
	readonly row: RowPick['fromColumns'] | null;
	/** The events table's payload: the record's fields as one object. */
	readonly payload: boolean;
}

/** A column of the events table read from the chunk's columns (tables.ts COLUMN_VALUES). */
export interface RowPick {
	readonly header: string;
	readonly fromColumns: (a: RowAt) => string | number | boolean | null;
}

/** The events table's payload column: the record's fields as one object (PayloadWriter). */
export interface PayloadPick {
	readonly header: string;
	readonly payload: true;
}

/**
 * A record column under a header of its own (the events table's provider_guid is providerGuid).
 * FILETIME_INT64 is the events table's filetime, an INT64: JSON holds it as a number up to 2^53.
 */
export interface RecordPick {
	readonly header: string;
	readonly column: string;
}

export const FILETIME_INT64 = 'filetime:int64';
/** The last FILETIME second that holds values below 2^53 (in the year 1629). */
const NUMBER_SECONDS = 900719925n;

/** What ColumnWriter writes a column from. */
export type ColumnPick = PickedColumn | RowPick | PayloadPick | RecordPick;

const isRow = (c: ColumnPick): c is RowPick => 'fromColumns' in c;

export class ColumnWriter {
	readonly #csv: boolean;
	readonly #columns: readonly ColumnPick[];
	readonly #providers: ProviderTable;
	/** Whether the picks can be written here at all. */
	readonly usable: boolean;
	readonly #plans: (Cell[] | null | undefined)[] = [];
	readonly #names = new ValueNames();
	readonly #null = utf8Bytes('null');
	readonly #second = new CurrentSecond();
	/** The FILETIME's seconds' digits, for the current second. */
	#seconds: Uint8Array = new Uint8Array(0);
	readonly #payload: PayloadWriter;

	constructor(format: ExportFormat, columns: readonly ColumnPick[], providers: ProviderTable) {
		this.#csv = format === 'csv';
		this.#payload = new PayloadWriter(format);
		this.#columns = columns;
		this.#providers = providers;
		const headers = new Set(columns.map((c) => c.header));
		// A header twice (one object key), or one JavaScript orders first: the object path.
		this.usable =
			columns.length > 0 &&
			headers.size === columns.length &&
			columns.every(
				(c) =>
					(!('field' in c) || c.field || c.header !== 'fields') &&
					!ARRAY_INDEX.test(c.header) &&
					c.header !== '__proto__',
			);
	}

	/**
	 * Writes record i's line and returns true, or writes nothing and returns false. pid and tid
	 * replace the record's own unless OWN (NO_ID: null), as the columns' do for a stored event;
	 * `at`, the event's row in its chunk, is where columns of the events table are read.
	 */
	write(
		sink: ByteSink,
		buf: DecodedBuffer,
		i: number,
		pid = OWN,
		tid = OWN,
		at: RowAt | null = null,
	): boolean {
		if (
			!this.usable ||
			buf.u8(i, RecordOut.layout) !== PayloadLayout.schema ||
			buf.u16(i, RecordOut.extCount) !== 0 ||
			buf.u16(i, RecordOut.damage) !== 0
		)
			return false;
		const schemaIndex = buf.u16(i, RecordOut.schemaIndex);
		let plan = this.#plans[schemaIndex];
		if (plan === undefined) this.#plans[schemaIndex] = plan = this.#plan(schemaIndex);
		const count = buf.u16(i, RecordOut.fieldCount);
		if (plan === null || count !== EVENT_SCHEMAS[schemaIndex]!.fields.length) return false;
		const second = this.#second.move(buf, i);
		if (second === null) return false;
		if (second === 'moved') this.#seconds = utf8Bytes(this.#second.seconds.toString());
		const start = sink.length;
		const first = buf.u32(i, RecordOut.fieldStart);
		for (const cell of plan) {
			sink.raw(cell.key);
			const ok =
				cell.row !== null
					? at !== null && this.#rowValue(sink, cell.row(at))
					: cell.payload
						? this.#payload.write(sink, buf, i)
						: cell.column !== null
							? this.#column(sink, buf, i, cell.column, schemaIndex, pid, tid)
							: this.#field(sink, buf, cell, first);
			if (!ok) {
				sink.length = start;
				return false;
			}
		}
		if (!this.#csv) sink.byte(125);
		sink.byte(10);
		return true;
	}

	/** The cells of a schema's records, or null when its fields are not one key each. */
	#plan(index: number): Cell[] | null {
		const schema = EVENT_SCHEMAS[index];
		if (!schema) return null;
		if (!payloadKeys(schema)) return null;
		return this.#columns.map((c, k) => {
			const key = utf8Bytes(
				this.#csv ? (k > 0 ? ',' : '') : `${k > 0 ? ',' : '{'}${JSON.stringify(c.header)}:`,
			);
			const cell = { key, column: null, field: -1, meaning: false, map: null, row: null };
			if (isRow(c)) return { ...cell, row: c.fromColumns, payload: false };
			if ('payload' in c) return { ...cell, payload: true };
			if ('column' in c) return { ...cell, column: c.column, payload: false };
			if (!c.field) return { ...cell, column: c.header, payload: false };
			let field = schema.fields.findIndex((f) => f.name === c.header);
			let meaning = false;
			if (field < 0) {
				field = schema.fields.findIndex((f) => `${f.name}Name` === c.header);
				meaning = field >= 0;
			}
			return {
				key,
				column: null,
				field,
				meaning,
				map: schema.fields[field]?.map ?? null,
				row: null,
				payload: false,
			};
		});
	}

	/** A value of the events table's row, as pickedEventLine writes it. */
	#rowValue(sink: ByteSink, v: string | number | boolean | null): true {
		if (typeof v === 'string') this.#text(sink, v);
		else if (this.#csv) sink.ascii(csvCell(v));
		else sink.ascii(JSON.stringify(v));
		return true;
	}

	/** A string value: JSON, or a CSV cell. */
	#text(sink: ByteSink, s: string | null): void {
		if (s === null) {
			if (!this.#csv) sink.raw(this.#null);
		} else if (this.#csv) sink.csvCell(s);
		else sink.jsonString(s);
	}

	#quote(sink: ByteSink): void {
		if (!this.#csv) sink.byte(34);
	}

	#id(sink: ByteSink, v: number): void {
		if (v !== NO_ID) sink.uint(v);
		else if (!this.#csv) sink.raw(this.#null);
	}

	#column(
		sink: ByteSink,
		buf: DecodedBuffer,
		i: number,
		column: string,
		schema: number,
		pid: number,
		tid: number,
	): boolean {
		switch (column) {
			case 'kind':
				this.#text(sink, KIND_NAMES[buf.u8(i, RecordOut.kind)] ?? 'unknown');
				return true;
			case 'time':
				this.#quote(sink);
				sink.raw(this.#second.iso);
				fraction(sink, this.#second.ticks(buf, i));
				sink.byte(90);
				this.#quote(sink);
				return true;
			case FILETIME_INT64:
				// Where JSON would hold it as a number, the object path writes it; elsewhere, as the
				// digits of a string, as the record's filetime is.
				if (!this.#csv && this.#second.seconds <= NUMBER_SECONDS) return false;
				this.#filetime(sink, buf, i);
				return true;
			case 'filetime':
				this.#filetime(sink, buf, i);
				return true;
			case 'providerGuid':
				this.#text(sink, this.#providers.guid(buf.u16(i, RecordOut.providerIndex)));
				return true;
			case 'provider':
				this.#text(sink, providerName(this.#providers.guid(buf.u16(i, RecordOut.providerIndex))));
				return true;
			case 'id':
				sink.uint(buf.u16(i, RecordOut.id));
				return true;
			case 'version':
				sink.uint(buf.u8(i, RecordOut.version));
				return true;
			case 'level':
				sink.uint(buf.u8(i, RecordOut.level));
				return true;
			case 'opcode':
				sink.uint(buf.u8(i, RecordOut.opcode));
				return true;
			case 'task':
				sink.uint(buf.u16(i, RecordOut.task));
				return true;
			case 'keyword':
				this.#quote(sink);
				sink.byte(48);
				sink.byte(120);
				sink.hex64(buf.u32(i, RecordOut.keyword + 4), buf.u32(i, RecordOut.keyword));
				this.#quote(sink);
				return true;
			case 'pid':
				this.#id(sink, pid === OWN ? buf.u32(i, RecordOut.pid) : pid);
				return true;
			case 'tid':
				this.#id(sink, tid === OWN ? buf.u32(i, RecordOut.tid) : tid);
				return true;
			case 'cpu':
				sink.uint(buf.entry.cpu);
				return true;
			case 'name':
				this.#text(sink, EVENT_SCHEMAS[schema]!.name);
				return true;
		}
		return false;
	}

	/** The FILETIME's digits (a JSON string). */
	#filetime(sink: ByteSink, buf: DecodedBuffer, i: number): void {
		this.#quote(sink);
		sink.raw(this.#seconds);
		fraction(sink, this.#second.ticks(buf, i));
		this.#quote(sink);
	}

	/** A payload field's value or meaning (JSON null, or an empty cell, when there is none). */
	#field(sink: ByteSink, buf: DecodedBuffer, cell: Cell, first: number): boolean {
		if (cell.field < 0) {
			if (!this.#csv) sink.raw(this.#null);
			return true;
		}
		const j = first + cell.field;
		if (buf.fieldU8(j, FieldOut.missing) !== 0) return false;
		const type = buf.fieldU8(j, FieldOut.type);
		const lo = buf.fieldU32(j, FieldOut.value);
		const hi = buf.fieldU32(j, FieldOut.value + 4);
		const offset = buf.fieldU32(j, FieldOut.offset);
		const size = buf.fieldSize(j);
		const image = buf.image;
		let value: number;
		switch (type) {
			case FieldType.Pointer:
				if (cell.meaning) return this.#none(sink);
				this.#quote(sink);
				sink.byte(48);
				sink.byte(120);
				sink.hex64(hi, lo);
				this.#quote(sink);
				return true;
			case FieldType.IPv4:
				if (cell.meaning) return this.#none(sink);
				this.#quote(sink);
				for (let k = 0; k < 4; k++) {
					if (k > 0) sink.byte(46);
					sink.uint(image[offset + k]!);
				}
				this.#quote(sink);
				return true;
			case FieldType.IPv6:
				return cell.meaning ? this.#none(sink) : (this.#text(sink, ipv6(image, offset)), true);
			case FieldType.SocketAddress:
				if (cell.meaning) return this.#none(sink);
				this.#text(sink, socketAddress(image, offset, size)?.text ?? null);
				return true;
			case FieldType.Boolean:
				if (cell.meaning) return this.#none(sink);
				sink.ascii(hi !== 0 || lo !== 0 ? 'true' : 'false');
				return true;
			case FieldType.UnicodeString:
			case FieldType.AnsiString: {
				if (cell.meaning) return this.#none(sink);
				const bytes = image.subarray(offset, offset + size);
				const text = (type === FieldType.UnicodeString ? utf16 : latin1).decode(bytes);
				this.#text(sink, text.replace(/\0$/, ''));
				return true;
			}
			case FieldType.Guid:
				if (cell.meaning) return this.#none(sink);
				this.#quote(sink);
				sink.ascii(guidAt(image, offset));
				this.#quote(sink);
				return true;
			case FieldType.Binary:
				if (cell.meaning) return this.#none(sink);
				this.#quote(sink);
				sink.ascii(hexOf(image.subarray(offset, offset + size)));
				this.#quote(sink);
				return true;
			case FieldType.NTStatus:
				if (hi >= SAFE_HI) return false;
				value = hi * 0x100000000 + lo;
				if (cell.meaning) this.#text(sink, this.#names.status(value));
				else sink.uint(value);
				return true;
			case FieldType.Int32:
				value = lo | 0;
				break;
			default:
				// Above 2^53 the object holds the decimal text.
				if (hi >= SAFE_HI) return false;
				value = hi * 0x100000000 + lo;
		}
		if (!cell.meaning) sink.int(value);
		else {
			const m = cell.map === null ? null : this.#names.meaning(cell.map, value);
			if (m === null) return this.#none(sink);
			this.#text(sink, m);
		}
		return true;
	}

	/** A key the record's fields do not hold. */
	#none(sink: ByteSink): true {
		if (!this.#csv) sink.raw(this.#null);
		return true;
	}
}
