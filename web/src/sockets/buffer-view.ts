// The tracker's views over the decoder's tables (DecodedBuffer), for the CLI and the worker:
// one reused view object per kind, numbers read straight from the FieldOut table (no bigint),
// pointer strings cached, so a 10 M-event trace does not build an object per event.
import { FieldOut, FieldType, PayloadLayout, RecordKind, RecordOut } from '../generated/layouts.ts';
import { EVENT_SCHEMAS, PROVIDERS } from '../generated/schemas.ts';
import { ipv4, ipv6 } from '../net/ip.ts';
import { socketAddress } from '../net/sockaddr.ts';
import { BytesTable } from '../lib/bytes-table.ts';
import { pointerText, PointerTable } from '../lib/pointer-table.ts';
import { Clock, type DecodedBuffer } from '../decoder/decoded-buffer.ts';
import type { SocketTracker } from './tracker.ts';
import { isNetSchema, NetCollector } from './enrich.ts';
import {
	isKernelProcessEvent,
	isMofProcessClass,
	isMofProcessHook,
	KERNEL_PROCESS_GUID,
	FIELD_NAMES,
	type AfdEventView,
	type ProcessEventView,
} from './view.ts';

const NO_ID = 0xffffffff;
const TWO32 = 4294967296;
const AFD_CODE = PROVIDERS.find((p) => p.key === 'afd')!.code;

/** Per schema index, the position of each of the tracker's fields (-1: none). */
const POSITIONS: readonly Int16Array[] = EVENT_SCHEMAS.map((s) => {
	const names = s.fields.map((f) => f.name);
	return Int16Array.from(FIELD_NAMES, (name) => names.indexOf(name));
});

/** Pointer text by high and low halves; bounded, since endpoints repeat but buffers do not. */
class PointerCache {
	#table = new PointerTable();
	#texts: string[] = [];

	/** The text of the pointer at words[at] (low half first): looked up without passing halves. */
	textAt(words: Uint32Array, at: number): string {
		const k = this.#table.getAt(words, at);
		if (k >= 0) return this.#texts[k]!;
		if (this.#texts.length >= 65536) {
			this.#table = new PointerTable();
			this.#texts = [];
		}
		const [lo, hi] = [words[at]!, words[at + 1]!];
		const s = pointerText(hi, lo);
		this.#table.set(hi, lo, this.#texts.push(s) - 1);
		return s;
	}
}

export class BufferAfdView implements AfdEventView {
	index = 0;
	ticks = 0;
	id = 0;
	version = 0;
	headerPid: number | null = null;
	tid: number | null = null;
	#buf: DecodedBuffer | null = null;
	/** The buffer's field table, as set() found it. */
	#fieldBytes: Uint8Array = new Uint8Array(0);
	#fieldWords: Uint32Array = new Uint32Array(0);
	#start = 0;
	#count = 0;
	#positions: Int16Array = new Int16Array(FIELD_NAMES.length).fill(-1);
	readonly #pointers = new PointerCache();
	#addresses = new BytesTable();
	#addressText: (string | undefined)[] = [];

	/**
	 * Points the view at record i of a buffer (whose layout must be an AFD schema). The tables are
	 * read through their typed views, not a call per value: this runs for every event.
	 */
	set(buf: DecodedBuffer, i: number, index: number, ticks: number): void {
		this.#buf = buf;
		this.index = index;
		this.ticks = ticks;
		const o = i * RecordOut.SIZE;
		const halves = buf.recordHalves;
		const words = buf.recordWords;
		this.id = halves[(o + RecordOut.id) >> 1]!;
		this.version = buf.recordBytes[o + RecordOut.version]!;
		const pid = words[(o + RecordOut.pid) >> 2]!;
		const tid = words[(o + RecordOut.tid) >> 2]!;
		this.headerPid = pid === NO_ID ? null : pid;
		this.tid = tid === NO_ID ? null : tid;
		this.#start = words[(o + RecordOut.fieldStart) >> 2]!;
		this.#count = halves[(o + RecordOut.fieldCount) >> 1]!;
		this.#positions = POSITIONS[halves[(o + RecordOut.schemaIndex) >> 1]!]!;
		this.#fieldBytes = buf.fieldBytes;
		this.#fieldWords = buf.fieldWords;
	}

	/** The FieldOut row of a field, or -1 when the record lacks it. */
	#row(field: number): number {
		const k = this.#positions[field]!;
		if (k < 0 || k >= this.#count) return -1;
		const j = this.#start + k;
		return this.#fieldBytes[j * FieldOut.SIZE + FieldOut.missing] ? -1 : j;
	}

	num(field: number): number | undefined {
		const j = this.#row(field);
		if (j < 0) return undefined;
		const words = this.#fieldWords;
		const w = (j * FieldOut.SIZE + FieldOut.value) >> 2;
		const lo = words[w]!;
		switch (this.#fieldBytes[j * FieldOut.SIZE + FieldOut.type]) {
			case FieldType.Int32:
				return lo | 0;
			case FieldType.Boolean:
				return lo !== 0 ? 1 : 0;
			case FieldType.IPv4:
			case FieldType.IPv6:
			case FieldType.SocketAddress:
			case FieldType.UnicodeString:
			case FieldType.AnsiString:
			case FieldType.Guid:
			case FieldType.Binary:
				return undefined;
			default:
				return words[w + 1]! * TWO32 + lo;
		}
	}

	ptr(field: number): string | undefined {
		const j = this.#row(field);
		if (j < 0) return undefined;
		if (this.#fieldBytes[j * FieldOut.SIZE + FieldOut.type] !== FieldType.Pointer) return undefined;
		return this.#pointers.textAt(this.#fieldWords, (j * FieldOut.SIZE + FieldOut.value) >> 2);
	}

	text(field: number): string | undefined {
		const j = this.#row(field);
		if (j < 0) return undefined;
		const b = this.#buf!;
		const type = b.fieldU8(j, FieldOut.type);
		const length =
			type === FieldType.IPv4
				? 4
				: type === FieldType.IPv6
					? 16
					: type === FieldType.SocketAddress
						? b.fieldSize(j)
						: 0;
		if (!length) return undefined;
		// Addresses repeat: each distinct one is made text once, found again by its bytes.
		const image = b.image;
		const at = b.fieldU32(j, FieldOut.offset);
		const k = this.#addresses.get(image, at, length);
		if (k >= 0) return this.#addressText[k];
		const text =
			type === FieldType.IPv4
				? ipv4(image, at)
				: type === FieldType.IPv6
					? ipv6(image, at)
					: socketAddress(image, at, length)?.text;
		// Bounded like the pointer texts: datagram traffic can bring many addresses and ports.
		if (this.#addressText.length >= 65536) {
			this.#addresses = new BytesTable();
			this.#addressText = [];
		}
		this.#addresses.set(image, at, length, this.#addressText.push(text) - 1);
		return text;
	}
}

/**
 * Hands the records of a trace to a tracker: AFD events through a reused view, process events
 * (Kernel-Process, kernel MOF) as small objects (there are few of them).
 */
export class BufferFeeder {
	readonly #tracker: SocketTracker;
	readonly #clock: Clock;
	readonly #guidOf: (providerIndex: number) => string | null;
	readonly #afd = new BufferAfdView();
	readonly #sockets: boolean;
	/** Collects what other providers say about the sockets (enrich.ts). */
	readonly net: NetCollector;

	/**
	 * `guidOf`: provider index → GUID (record-json.ts ProviderTable.guid). `sockets` false feeds
	 * process events only.
	 */
	constructor(
		tracker: SocketTracker,
		origin: bigint,
		guidOf: (providerIndex: number) => string | null,
		sockets = true,
	) {
		this.#tracker = tracker;
		this.#sockets = sockets;
		this.net = new NetCollector(sockets);
		this.#clock = new Clock(origin);
		this.#guidOf = guidOf;
	}

	/** Record i of a buffer, the index-th record of the trace. */
	feed(buf: DecodedBuffer, i: number, index: number): void {
		const o = i * RecordOut.SIZE;
		const kind = buf.recordBytes[o + RecordOut.kind]!;
		if (buf.recordBytes[o + RecordOut.layout] === PayloadLayout.schema) {
			const schemaIndex = buf.recordHalves[(o + RecordOut.schemaIndex) >> 1]!;
			if (EVENT_SCHEMAS[schemaIndex]?.provider !== AFD_CODE) {
				// DNS-Client, TCPIP, NameResolution: names and TCP outcomes, joined after tracking
				// (names also for the `host:` filter when only process events are followed).
				if (isNetSchema(schemaIndex)) this.net.feed(buf, i, index, this.#clock.ticks(buf, i));
				return;
			}
			if (!this.#sockets) return;
			this.#afd.set(buf, i, index, this.#clock.ticks(buf, i));
			this.#tracker.afd(this.#afd);
			return;
		}
		let source: ProcessEventView['source'] | null = null;
		let id = buf.u16(i, RecordOut.id);
		if (kind === RecordKind.event) {
			if (!isKernelProcessEvent(id)) return;
			if (this.#guidOf(buf.u16(i, RecordOut.providerIndex)) === KERNEL_PROCESS_GUID)
				source = 'kernel-process';
		} else if (
			kind === RecordKind.system ||
			kind === RecordKind.perfinfo ||
			kind === RecordKind.compact
		) {
			if (isMofProcessHook(id)) [source, id] = ['mof', id & 0xff];
		} else if (kind === RecordKind.classic || kind === RecordKind.instance) {
			const type = buf.u8(i, RecordOut.opcode);
			if (isMofProcessClass(this.#guidOf(buf.u16(i, RecordOut.providerIndex)), type))
				[source, id] = ['mof', type];
		}
		if (!source) return;
		const at = buf.u32(i, RecordOut.payloadOffset);
		const pid = buf.u32(i, RecordOut.pid);
		this.#tracker.process({
			index,
			ticks: this.#clock.ticks(buf, i),
			source,
			id,
			version: buf.u8(i, RecordOut.version),
			headerPid: pid === NO_ID ? null : pid,
			pointerSize: buf.u8(i, RecordOut.pointerSize) === 4 ? 4 : 8,
			payload: buf.image.subarray(at, at + buf.u32(i, RecordOut.payloadSize)),
		});
	}
}
