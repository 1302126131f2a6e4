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
import { tableRow, type EventHead, type RowAt } from './tables.ts';
import type { Row } from './table-writer.ts';

/** The value the columns store for "no PID". */
const NO_ID = 0xffffffff;
/** Seconds from 1601 to 1970. */
const EPOCH_SECONDS = 11_644_473_600n;
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
	readonly #head: EventHead = {
		filetime: 0n,
		time: null,
		kind: '',
		provider: null,
		provider_guid: null,
		id: 0,
		version: 0,
		name: null,
		level: 0,
		opcode: 0,
		pid: null,
		tid: null,
		cpu: 0,
	};

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
		// One head, filled again for each row: tableRow copies its values.
		const h = this.#head;
		h.filetime = buf.time(i);
		// The 100 ns digit dropped, as from the ISO time (the second's start is whole).
		h.time = this.#micros + BigInt(Math.floor(this.#second.ticks(buf, i) / 10));
		h.kind = KIND_NAMES[buf.u8(i, RecordOut.kind)] ?? 'unknown';
		h.provider = providerName(guid);
		h.provider_guid = guid;
		h.id = buf.u16(i, RecordOut.id);
		h.version = buf.u8(i, RecordOut.version);
		h.name = EVENT_SCHEMAS[buf.u16(i, RecordOut.schemaIndex)]!.name;
		h.level = buf.u8(i, RecordOut.level);
		h.opcode = buf.u8(i, RecordOut.opcode);
		h.pid = pid === NO_ID ? null : pid;
		h.tid = tid === NO_ID ? null : tid;
		h.cpu = buf.entry.cpu;
		return tableRow(h, at, this.#keep(sink.bytes, sink.length));
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
