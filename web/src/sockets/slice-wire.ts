// A decoded slice as it crosses to the sockets worker: its image and its record and field tables
// copied into one transferable piece of memory (a few percent of the decoding's time: the
// tables are read by the chunk builder and the tracker at once, on two cores, so one of them
// needs its own copy), and made a DecodedBuffer again on the other side.
import { RecordOut } from '../generated/layouts.ts';
import { DecodedBuffer } from '../decoder/decoded-buffer.ts';
import type { BufferEntry } from '../decoder/etl-file.ts';

export interface WireSlice {
	readonly id: number;
	readonly entry: BufferEntry;
	readonly count: number;
	/** Image bytes at 0, then (8-byte aligned) the records, then the fields. */
	readonly memory: ArrayBuffer;
	readonly imageLength: number;
	readonly fieldsLength: number;
}

const align8 = (n: number) => (n + 7) & ~7;

/** The bytes a slice takes on the wire. */
export function wireBytes(b: DecodedBuffer): number {
	return align8(b.image.byteLength) + b.recordBytes.byteLength + b.fieldBytes.byteLength;
}

/** Copies slice `b` out, into `spare` when it is large enough (memory given back by the worker). */
export function packSlice(id: number, b: DecodedBuffer, spare: ArrayBuffer | null): WireSlice {
	const imageLength = b.image.byteLength;
	const at = align8(imageLength);
	const records = b.recordBytes.byteLength;
	const fieldsLength = b.fieldBytes.byteLength;
	const need = at + records + fieldsLength;
	const memory = spare && spare.byteLength >= need ? spare : new ArrayBuffer(Math.max(need, 8));
	const bytes = new Uint8Array(memory);
	bytes.set(b.image, 0);
	bytes.set(b.recordBytes, at);
	bytes.set(b.fieldBytes, at + records);
	return { id, entry: b.entry, count: b.count, memory, imageLength, fieldsLength };
}

export function unpackSlice(w: WireSlice): DecodedBuffer {
	const at = align8(w.imageLength);
	const records = w.count * RecordOut.SIZE;
	return new DecodedBuffer(
		w.entry,
		new Uint8Array(w.memory, 0, w.imageLength),
		new Uint8Array(w.memory, at, records),
		w.count,
		new Uint8Array(w.memory, at + records, w.fieldsLength),
		null,
	);
}
