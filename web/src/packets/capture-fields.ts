// Reads the fields of a packet provider's event by name, straight from the FieldOut table the WASM
// interpreter wrote (no hex text for the bytes), with the schema generated from the field lists.
import { FieldOut, PayloadLayout, RecordOut } from '../generated/layouts.ts';
import { EVENT_SCHEMAS, PROVIDERS } from '../generated/schemas.ts';
import type { DecodedBuffer } from '../decoder/decoded-buffer.ts';
import { msg, type Msg } from '../i18n/render.ts';

export const NDISCAP_CODE = PROVIDERS.find((p) => p.key === 'ndiscap')!.code;
export const PKTMON_CODE = PROVIDERS.find((p) => p.key === 'pktmon')!.code;

const hex = (n: number) => `0x${n.toString(16)}`;

/** Field positions by name, per schema index. */
const positions = EVENT_SCHEMAS.map((s) => new Map(s.fields.map((f, k) => [f.name, k])));

/** One packet-provider event: its schema and where its fields are. */
export class CaptureEvent {
	buf!: DecodedBuffer;
	i = 0;
	provider = 0;
	id = 0;
	#schema = 0;
	#start = 0;
	#count = 0;

	/** Points at record i; false when it is not a schema-decoded packet-provider event. */
	set(buf: DecodedBuffer, i: number): boolean {
		if (buf.u8(i, RecordOut.layout) !== PayloadLayout.schema) return false;
		const index = buf.u16(i, RecordOut.schemaIndex);
		const schema = EVENT_SCHEMAS[index];
		if (!schema || (schema.provider !== NDISCAP_CODE && schema.provider !== PKTMON_CODE))
			return false;
		this.buf = buf;
		this.i = i;
		this.provider = schema.provider;
		this.id = schema.id;
		this.#schema = index;
		this.#start = buf.u32(i, RecordOut.fieldStart);
		this.#count = buf.u16(i, RecordOut.fieldCount);
		return true;
	}

	#row(name: string): number {
		const k = positions[this.#schema]!.get(name);
		if (k === undefined || k >= this.#count) return -1;
		const j = this.#start + k;
		return this.buf.fieldU8(j, FieldOut.missing) ? -1 : j;
	}

	/** An integer field, or null when it is absent (the payload ended before it). */
	num(name: string): number | null {
		const j = this.#row(name);
		return j < 0 ? null : Number(this.buf.fieldU64(j, FieldOut.value));
	}

	big(name: string): bigint | null {
		const j = this.#row(name);
		return j < 0 ? null : this.buf.fieldU64(j, FieldOut.value);
	}

	/** A byte field's bytes (a view into the buffer image: copy to keep), or null. */
	bytes(name: string): Uint8Array | null {
		const j = this.#row(name);
		if (j < 0) return null;
		const at = this.buf.fieldU32(j, FieldOut.offset);
		return this.buf.image.subarray(at, at + this.buf.fieldSize(j));
	}

	/** Where a field's bytes start in the file's buffer image (for messages), or null. */
	offset(name: string): number | null {
		const j = this.#row(name);
		return j < 0 ? null : this.buf.fieldU32(j, FieldOut.offset);
	}

	text(name: string): string | null {
		const b = this.bytes(name);
		return b === null ? null : new TextDecoder('utf-16le').decode(b).replace(/\0+$/, '');
	}

	/**
	 * Where the record is in the file, for notes: its file offset, or inside a compressed buffer
	 * the buffer's (only that is a file offset) with the record's place in the decompressed image.
	 */
	where(): { offset: number; text: Msg } {
		const e = this.buf.entry;
		const at = this.buf.u32(this.i, RecordOut.recordOffset) + this.buf.offsetBase;
		return e.compressed
			? {
					offset: e.offset,
					text: msg('capture.where-compressed', { at: hex(at), offset: hex(e.offset) }),
				}
			: { offset: e.offset + at, text: msg('capture.where', { offset: hex(e.offset + at) }) };
	}

	get keyword(): bigint {
		return this.buf.u64(this.i, RecordOut.keyword);
	}

	get time(): bigint {
		return this.buf.time(this.i);
	}

	get pid(): number | null {
		const v = this.buf.u32(this.i, RecordOut.pid);
		return v === 0xffffffff ? null : v;
	}

	get tid(): number | null {
		const v = this.buf.u32(this.i, RecordOut.tid);
		return v === 0xffffffff ? null : v;
	}
}
