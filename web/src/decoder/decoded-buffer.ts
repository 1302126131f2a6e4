// One buffer's records, copied out of WASM memory so that several buffers (one per CPU) can be
// held at once while their records are merged in time order.
import { BufferOut, FieldOut, RecordOut, Status } from '../generated/layouts.ts';
import type { BufferEntry, OpenTrace } from './etl-file.ts';
import type { DamageInfo } from './messages.ts';

const R = RecordOut.SIZE;
const F = FieldOut.SIZE;

export class DecodedBuffer {
	readonly entry: BufferEntry;
	/** The buffer image (header + data, decompressed when compressed); record offsets index it. */
	readonly image: Uint8Array;
	readonly count: number;
	readonly records: DataView;
	readonly fields: DataView;
	readonly damage: DamageInfo | null;

	constructor(
		entry: BufferEntry,
		image: Uint8Array,
		records: Uint8Array,
		count: number,
		fields: Uint8Array,
		damage: DamageInfo | null,
	) {
		this.entry = entry;
		this.image = image;
		this.count = count;
		this.records = new DataView(records.buffer, records.byteOffset, records.byteLength);
		this.fields = new DataView(fields.buffer, fields.byteOffset, fields.byteLength);
		this.damage = damage;
	}

	/** UTC FILETIME of record i. */
	time(i: number): bigint {
		return this.records.getBigInt64(i * R + RecordOut.time, true);
	}
	/** High and low halves of the FILETIME, for fast comparisons without bigint. */
	timeHi(i: number): number {
		return this.records.getInt32(i * R + RecordOut.time + 4, true);
	}
	timeLo(i: number): number {
		return this.records.getUint32(i * R + RecordOut.time, true);
	}
	u8(i: number, field: number): number {
		return this.records.getUint8(i * R + field);
	}
	u16(i: number, field: number): number {
		return this.records.getUint16(i * R + field, true);
	}
	u32(i: number, field: number): number {
		return this.records.getUint32(i * R + field, true);
	}
	u64(i: number, field: number): bigint {
		return this.records.getBigUint64(i * R + field, true);
	}
	/** FieldOut j (absolute index within this buffer). */
	fieldU64(j: number, field: number): bigint {
		return this.fields.getBigUint64(j * F + field, true);
	}
	fieldU32(j: number, field: number): number {
		return this.fields.getUint32(j * F + field, true);
	}
	fieldU8(j: number, field: number): number {
		return this.fields.getUint8(j * F + field);
	}
}

/** Decodes one buffer: reads it from the source, walks its records in WASM, copies the tables out. */
export async function decodeBuffer(trace: OpenTrace, entry: BufferEntry): Promise<DecodedBuffer> {
	const { decoder, source } = trace;
	const bytes = await source.read(entry.offset, entry.available);
	decoder.load(bytes);
	const opened = decoder.openBuffer(bytes.length, entry.index === 0);
	const recordChunks: Uint8Array[] = [];
	const fieldChunks: Uint8Array[] = [];
	let count = 0;
	let fieldCount = 0;
	let image = new Uint8Array(0);
	if (opened === Status.Ok) {
		const v = decoder.view();
		const dataPtr = v.getUint32(decoder.bufferOut + BufferOut.dataPtr, true);
		const dataSize = v.getUint32(decoder.bufferOut + BufferOut.dataSize, true);
		image = decoder.bytes(dataPtr, dataSize).slice();
		for (let n = decoder.nextRecords(); n > 0; n = decoder.nextRecords()) {
			const recs = decoder.bytes(decoder.records, n * R).slice();
			const rv = new DataView(recs.buffer);
			// Field tables restart at 0 on every call: rebase this batch onto the fields kept so far.
			let used = 0;
			for (let i = 0; i < n; i++) {
				const start = rv.getUint32(i * R + RecordOut.fieldStart, true);
				const c = rv.getUint16(i * R + RecordOut.fieldCount, true);
				if (start + c > used) used = start + c;
				rv.setUint32(i * R + RecordOut.fieldStart, start + fieldCount, true);
			}
			recordChunks.push(recs);
			fieldChunks.push(decoder.bytes(decoder.fields, used * F).slice());
			count += n;
			fieldCount += used;
		}
	}
	const status = opened === Status.Ok ? decoder.bufferStatus : opened;
	let damage: DamageInfo | null = null;
	if (status !== Status.Ok) {
		const v = decoder.view();
		damage = {
			status,
			bufferIndex: entry.index,
			bufferOffset: entry.offset,
			at: v.getUint32(decoder.bufferOut + BufferOut.errorOffset, true),
			value: v.getUint32(decoder.bufferOut + BufferOut.errorValue, true),
			limit: v.getUint32(decoder.bufferOut + BufferOut.errorLimit, true),
			compressed: entry.compressed,
		};
	}
	return new DecodedBuffer(entry, image, concat(recordChunks), count, concat(fieldChunks), damage);
}

function concat(parts: Uint8Array[]): Uint8Array {
	if (parts.length === 1) return parts[0]!;
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}
	return out;
}
