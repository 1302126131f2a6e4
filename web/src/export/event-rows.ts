// The events table's row of a schema-decoded event made straight from its decoded buffer: the
// values eventRow (tables.ts) gives from the record object, but for the time, given as its
// microseconds since 1970, and the payload, given as its JSON text, as the Parquet writer stores
// both. No record object, no ISO time, no JSON.stringify per event.
import { RecordOut } from '../generated/layouts.ts';
import { EVENT_SCHEMAS } from '../generated/schemas.ts';
import type { DecodedBuffer } from '../decoder/decoded-buffer.ts';
import { KIND_NAMES, providerName, type ProviderTable } from '../decoder/record-json.ts';
import { ByteSink } from './byte-sink.ts';
import { CurrentSecond } from './current-second.ts';
import { PayloadWriter } from './fields-writer.ts';
import { COLUMN_VALUES, type RowAt } from './tables.ts';
import type { Row } from './table-writer.ts';

/** The value the columns store for "no PID". */
const NO_ID = 0xffffffff;
/** Seconds from 1601 to 1970. */
const EPOCH_SECONDS = 11_644_473_600n;
const V = COLUMN_VALUES;
/** The memory payloads are copied to (a longer payload gets its own). */
const SLAB_BYTES = 1 << 16;

export class BufferEventRows {
	readonly #providers: ProviderTable;
	readonly #payload = new PayloadWriter('ndjson');
	readonly #sink = new ByteSink(1 << 12);
	readonly #second = new CurrentSecond();
	/**
	 * Where payloads are copied to, one after another: a row's payload is a view of it, so that a
	 * row costs no memory of its own (an ArrayBuffer each cost more than the copy). A full slab is
	 * left to the rows that view it; a new one is taken.
	 */
	#slab = new Uint8Array(SLAB_BYTES);
	#slabAt = 0;
	/** The current second's start, in microseconds since 1970. */
	#micros = 0n;

	/** `providers`: those of the decoder that decoded the buffers. */
	constructor(providers: ProviderTable) {
		this.#providers = providers;
	}

	/**
	 * Record i's row, its PID and TID those of the columns (NO_ID: none), the rest read where `at`
	 * says; null when it is not a schema-decoded event whose fields are all there, without damage
	 * or extended items, with a time in the ISO range (eventRow makes those).
	 */
	row(buf: DecodedBuffer, i: number, pid: number, tid: number, at: RowAt): Row | null {
		const sink = this.#sink;
		sink.length = 0;
		if (!this.#payload.write(sink, buf, i)) return null;
		const second = this.#second.move(buf, i);
		if (second === null) return null;
		if (second === 'moved') this.#micros = (this.#second.seconds - EPOCH_SECONDS) * 1_000_000n;
		const guid = this.#providers.guid(buf.u16(i, RecordOut.providerIndex));
		return {
			index: at.index,
			filetime: buf.time(i),
			// The 100 ns digit dropped, as from the ISO time (the second's start is whole).
			time: this.#micros + BigInt(Math.floor(this.#second.ticks(buf, i) / 10)),
			kind: KIND_NAMES[buf.u8(i, RecordOut.kind)] ?? 'unknown',
			provider: providerName(guid),
			provider_guid: guid,
			id: buf.u16(i, RecordOut.id),
			version: buf.u8(i, RecordOut.version),
			name: EVENT_SCHEMAS[buf.u16(i, RecordOut.schemaIndex)]!.name,
			level: buf.u8(i, RecordOut.level),
			opcode: buf.u8(i, RecordOut.opcode),
			pid: pid === NO_ID ? null : pid,
			tid: tid === NO_ID ? null : tid,
			cpu: buf.entry.cpu,
			process_id: V.process_id!(at),
			process: V.process!(at),
			owner_pid: V.owner_pid!(at),
			owner: V.owner!(at),
			owner_source: V.owner_source!(at),
			endpoint: V.endpoint!(at),
			local: V.local!(at),
			remote: V.remote!(at),
			remote_address: V.remote_address!(at),
			remote_port: V.remote_port!(at),
			remote_name: V.remote_name!(at),
			bytes: V.bytes!(at),
			status: V.status!(at),
			status_name: V.status_name!(at),
			error: V.error!(at),
			payload: this.#keep(sink.bytes, sink.length),
		};
	}

	/** A copy of bytes[0, n) in the current slab (or, longer than a slab, alone). */
	#keep(bytes: Uint8Array, n: number): Uint8Array {
		if (n > SLAB_BYTES / 4) return bytes.slice(0, n);
		if (this.#slabAt + n > SLAB_BYTES) {
			this.#slab = new Uint8Array(SLAB_BYTES);
			this.#slabAt = 0;
		}
		const at = this.#slabAt;
		this.#slab.set(bytes.subarray(0, n), at);
		this.#slabAt = at + n;
		return this.#slab.subarray(at, at + n);
	}
}
