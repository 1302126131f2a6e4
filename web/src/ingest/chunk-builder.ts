// Turns decoded records into column rows: header facts for every record, and for Winsock-AFD
// events the socket columns (endpoint, process, addresses, status, bytes) read from the
// schema interpreter's field table by field name.
import { FieldOut, FieldType, PayloadLayout, RecordKind, RecordOut } from '../generated/layouts.ts';
import { EVENT_SCHEMAS, PROVIDERS } from '../generated/schemas.ts';
import { AFD_EVENTS } from '../generated/afd-semantics.ts';
import {
	AF_INET,
	AF_INET6,
	socketAddressAt,
	socketAddressBytes,
	socketPort,
} from '../net/sockaddr.ts';
import { ipv4, ipv6 } from '../net/ip.ts';
import type { DecodedBuffer } from '../decoder/decoded-buffer.ts';
import { providerName, type ProviderTable } from '../decoder/record-json.ts';
import { decodeTraceLogging, extItems } from '../decoder/tracelogging.ts';
import {
	chunkCapacity,
	COLUMN_NAMES,
	FLAG_BYTES,
	FLAG_ENTER,
	FLAG_NOT_TRANSFER,
	FLAG_TRANSFER_AT_ENTER,
	FLAG_ERROR,
	FLAG_EXIT,
	FLAG_STATUS,
	makeColumns,
	NO_PID,
	TICK_SPAN,
	type Chunk,
	type Columns,
} from '../columns/layout.ts';
import { CAT_ERRORS, CATEGORIES, categoryOf } from '../columns/categories.ts';
import { summarizeChunk } from '../columns/chunk-summary.ts';
import { ColumnPool } from '../columns/column-pool.ts';
import { BytesTable } from '../lib/bytes-table.ts';
import { pointerText, PointerTable } from '../lib/pointer-table.ts';
import { eventTypeKey, type TraceTables } from './trace-tables.ts';
import { kernelEventName } from './kernel-names.ts';
import { callerPhase, headerPidTrust, ownerCandidate } from '../sockets/header-pid.ts';
import { doubleCounts } from '../sockets/send-nesting.ts';

const AFD_CODE = PROVIDERS.find((p) => p.key === 'afd')!.code;
/** Per EPROCESS: not looked up yet, and none learned (PIDs are never negative). */
const UNKNOWN = -1;
const NONE = -2;

/** Where the socket facts sit in one schema's fields (-1 when absent). */
interface SocketFields {
	process: number;
	endpoint: number;
	pidField: number;
	status: number;
	bytes: number;
	address: number;
	port: number;
	family: number;
	enterExit: number;
	location: number;
	/** The phase whose bytes are the transfer (AFD enter/exit events; null: not a transfer). */
	bytesAt: 'enter' | 'exit' | null;
	/** Whether its header PID is the caller's context: at its enter, at any point, or not known. */
	callerPhase: 'enter' | 'any' | null;
	/** Bind events name the local address; every other address is the peer's. */
	local: boolean;
}

const SOCKET_FIELDS: SocketFields[] = EVENT_SCHEMAS.map((s) => {
	const at = (...names: string[]) => s.fields.findIndex((f) => names.includes(f.name));
	return {
		process: at('Process'),
		endpoint: at('Endpoint', 'Listen Endpoint'),
		pidField: at('UserModePid', 'ProcessId'),
		// NTSTATUS fields only: DNS-Client and NameResolution statuses are Win32/WSA numbers.
		status: s.fields.findIndex(
			(f) => (f.name === 'Status' || f.name === 'Error') && f.type === FieldType.NTStatus,
		),
		bytes: at('BufferLength', 'Bytes Indicated', 'PacketSize'),
		address: at('Address'),
		port: at('Port'),
		family: at('AddressFamily'),
		enterExit: at('EnterExit'),
		location: at('Location'),
		bytesAt: s.provider === AFD_CODE ? (AFD_EVENTS[s.id]?.bytes ?? null) : null,
		callerPhase: s.provider === AFD_CODE ? callerPhase(s.id) : null,
		local: /bind/i.test(s.name) || /^bind/i.test(s.label ?? ''),
	};
});

/** RecordOut fields as word and half-word indexes within a record (every one is aligned). */
const R_TIME_LO = RecordOut.time >> 2;
const R_TIME_HI = R_TIME_LO + 1;
const R_PID = RecordOut.pid >> 2;
const R_TID = RecordOut.tid >> 2;
const R_OFFSET = RecordOut.recordOffset >> 2;
const R_FIELD_START = RecordOut.fieldStart >> 2;
const R_SCHEMA = RecordOut.schemaIndex >> 1;

/** FieldOut as 32-bit words: a field's value (low then high half) and where its bytes start. */
const F_WORDS = FieldOut.SIZE >> 2;
const F_VALUE = FieldOut.value >> 2;
const F_OFFSET = FieldOut.offset >> 2;

/**
 * What an AFD event's header PID says of its Process while no create has named it
 * (sockets/header-pid.ts, as the tracker asks it): the caller's PID at a reliable Location, as
 * the legacy events without Locations were always read, or as the weak guess of the caller's own
 * event at an unknown Location; never at a Location known to be unreliable; otherwise it is only
 * shown. `location`: the event's Location, -1 when it has none.
 */
function headerTrust(
	location: number,
	s: SocketFields,
	flags: number,
): 'teaches' | 'shown' | 'never' {
	const own = s.callerPhase === 'any' || (s.callerPhase === 'enter' && (flags & FLAG_ENTER) !== 0);
	switch (headerPidTrust(location < 0 ? undefined : location, own)) {
		case 'caller':
		case 'guess':
		case 'no-location':
			return 'teaches';
		case 'not-caller':
			return 'never';
		default:
			return 'shown';
	}
}

export class ChunkBuilder {
	readonly index: number;
	readonly columns: Columns;
	rows = 0;
	#tMin = Infinity;
	#tMax = -Infinity;
	readonly #tables: TraceTables;
	/** The origin FILETIME's halves (StartTime): times are ticks since it. */
	readonly #originHi: number;
	readonly #originLo: number;
	readonly #providers: ProviderTable;
	/**
	 * Event types by the record's header facts (strings only on a miss): per provider and kind, by
	 * id, version and opcode (a small integer key, which V8 hashes fastest).
	 */
	readonly #typeCache: Map<number, number>[];
	readonly #schemaTypes: Int32Array;
	/** Pointer text → string index, keyed by the pointer's high then low 32 bits. */
	readonly #pointers: PointerTable;
	/** Address bytes (IPv4 or IPv6) → string index. */
	readonly #addresses: BytesTable;
	readonly #categories: number[];
	readonly #pids: { table: Float64Array };
	readonly #capacity: number;

	constructor(
		index: number,
		tables: TraceTables,
		startFiletime: bigint,
		providers: ProviderTable,
		caches: BuilderCaches = newBuilderCaches(),
	) {
		this.index = index;
		this.#tables = tables;
		this.#originHi = Number(startFiletime >> 32n);
		this.#originLo = Number(startFiletime & 0xffffffffn);
		this.#providers = providers;
		this.#typeCache = caches.types;
		this.#schemaTypes = caches.schemaTypes;
		this.#pointers = caches.pointers;
		this.#addresses = caches.addresses;
		this.#categories = caches.categories;
		this.#pids = caches.pids;
		this.#capacity = chunkCapacity(index);
		this.columns = makeColumns(COLUMN_NAMES, (name) => caches.columns.take(name, this.#capacity));
	}

	get full(): boolean {
		return this.rows >= this.#capacity;
	}

	/**
	 * Row `rows` from record i. The record table is read through its typed views here, in one body:
	 * the per-field calls it made before were not all inlined, and a value of 2^30 or more (times,
	 * PIDs of none) returned from one is boxed where small integers are 31 bits wide (browsers).
	 */
	add(b: DecodedBuffer, i: number): void {
		const c = this.columns;
		const r = this.rows++;
		const o = i * RecordOut.SIZE;
		const words = b.recordWords;
		const bytes = b.recordBytes;
		const w = o >> 2;
		// Ticks since the origin, exactly (as Clock computes them), without a bigint.
		const t =
			((words[w + R_TIME_HI]! | 0) - this.#originHi) * 0x100000000 +
			(words[w + R_TIME_LO]! - this.#originLo);
		c.time[r] = t;
		if (t < this.#tMin) this.#tMin = t;
		if (t > this.#tMax) this.#tMax = t;
		const kind = bytes[o + RecordOut.kind]!;
		const opcode = bytes[o + RecordOut.opcode]!;
		c.kind[r] = kind;
		c.level[r] = bytes[o + RecordOut.level]!;
		c.opcode[r] = opcode;
		c.cpu[r] = b.entry.cpu;
		const pid = words[w + R_PID]!;
		c.pid[r] = pid;
		c.tid[r] = words[w + R_TID]!;
		c.process[r] = pid;
		// The socket columns stay 0 unless set: each builder's columns start zeroed (ColumnPool).
		let etype: number;
		if (bytes[o + RecordOut.layout] === PayloadLayout.schema) {
			// Almost every event of a Winsock trace: its type by schema, kind and opcode, in a table.
			const schema = b.recordHalves[(o >> 1) + R_SCHEMA]!;
			const k = ((schema * 16 + kind) << 8) | opcode;
			const known = this.#schemaTypes[k]!;
			if (known > 0) etype = known - 1;
			else this.#schemaTypes[k] = (etype = this.#typeByKey(b, i, kind)) + 1;
			c.etype[r] = etype;
			this.#socketColumns(b, schema, words[w + R_FIELD_START]!, r);
		} else c.etype[r] = etype = this.#eventType(b, i, kind);
		c.cat[r] = c.flags[r]! & FLAG_ERROR ? CAT_ERRORS : this.#category(etype);
		c.buffer[r] = b.entry.index;
		// Relative to the slice's first record when the buffer was decoded a slice at a time.
		c.recOffset[r] = words[w + R_OFFSET]! + b.offsetBase;
	}

	/** Category number per event type index, learned as types appear. */
	#category(etype: number): number {
		let k = this.#categories[etype];
		if (k === undefined)
			k = this.#categories[etype] = CATEGORIES.indexOf(categoryOf(this.#tables.eventTypes[etype]!));
		return k;
	}

	finish(): Chunk {
		const n = this.rows;
		const { time, tick } = this.columns;
		const t0 = n ? this.#tMin : 0;
		for (let r = 0; r < n; r++) tick[r] = Math.min(time[r]! - t0, TICK_SPAN);
		return {
			index: this.index,
			rows: n,
			// A full chunk hands its columns on as they are (the builder is done with them).
			columns:
				n === this.#capacity
					? this.columns
					: makeColumns(COLUMN_NAMES, (name) => this.columns[name].slice(0, n)),
			tMin: n ? this.#tMin : 0,
			tMax: n ? this.#tMax : 0,
			summary: summarizeChunk(this.columns, n),
		};
	}

	/** The type of an event without a schema (add() looks up those with one itself). */
	#eventType(b: DecodedBuffer, i: number, kind: number): number {
		// TraceLogging events of one provider share header facts: their names need the metadata.
		if (b.u8(i, RecordOut.layout) === PayloadLayout.tracelogging)
			return this.#makeEventType(b, i, kind);
		return this.#typeByKey(b, i, kind);
	}

	/** An event's type by provider, kind, id, version and opcode. */
	#typeByKey(b: DecodedBuffer, i: number, kind: number): number {
		const group = b.u16(i, RecordOut.providerIndex) * 16 + kind;
		const types = (this.#typeCache[group] ??= new Map());
		const key =
			(b.u16(i, RecordOut.id) * 256 + b.u8(i, RecordOut.version)) * 256 + b.u8(i, RecordOut.opcode);
		const known = types.get(key);
		if (known !== undefined) return known;
		const made = this.#makeEventType(b, i, kind);
		types.set(key, made);
		return made;
	}

	#makeEventType(b: DecodedBuffer, i: number, kind: number): number {
		const providerIndex = b.u16(i, RecordOut.providerIndex);
		const guid = this.#providers.guid(providerIndex);
		const id = b.u16(i, RecordOut.id);
		const version = b.u8(i, RecordOut.version);
		const opcode = b.u8(i, RecordOut.opcode);
		const layout = b.u8(i, RecordOut.layout);
		const schemaIndex = layout === PayloadLayout.schema ? b.u16(i, RecordOut.schemaIndex) : -1;
		let name: string;
		let pname = providerName(guid);
		if (schemaIndex >= 0) name = EVENT_SCHEMAS[schemaIndex]!.name;
		else if (layout === PayloadLayout.tracelogging) {
			const items = extItems(b.image, b.u32(i, RecordOut.extOffset), b.u32(i, RecordOut.extSize));
			const tl = decodeTraceLogging(b.image, items, 0, 0);
			name = tl.name ?? 'TraceLogging';
			pname = tl.provider ?? pname;
		} else if (kind === RecordKind.header) name = 'TraceLogfileHeader';
		else if (
			kind === RecordKind.system ||
			kind === RecordKind.compact ||
			kind === RecordKind.perfinfo
		)
			name = kernelEventName(id);
		else if (kind === RecordKind.wpp) name = `WPP message ${id}`;
		else
			name = `${pname ?? guid ?? 'event'} ${kind === RecordKind.event ? `#${id}` : `opcode ${opcode}`}`;
		const t = {
			kind,
			provider: guid,
			providerName: pname,
			id,
			version,
			opcode,
			name,
			afd: schemaIndex >= 0 && EVENT_SCHEMAS[schemaIndex]!.provider === AFD_CODE,
			schema: schemaIndex,
		};
		return this.#tables.eventType(eventTypeKey(t), () => t);
	}

	/**
	 * The socket columns of row r from the record's payload fields. The field table is read
	 * through its word and byte views here, in one body: a call per field read (and the large
	 * values it returned, boxed) cost more than the rest of the row.
	 */
	#socketColumns(b: DecodedBuffer, schema: number, start: number, r: number): void {
		const c = this.columns;
		const s = SOCKET_FIELDS[schema]!;
		const words = b.fieldWords;
		const bytes = b.fieldBytes;
		// Field k of the record is present when bytes[missing + k * FieldOut.SIZE] is 0; its value
		// is then words[value + k * F_WORDS] (low half) and the word after it (written out at each
		// use below: a helper for it was left a call of its own, past the inliner's budget).
		const missing = start * FieldOut.SIZE + FieldOut.missing;
		const value = start * F_WORDS + F_VALUE;
		let flags = 0;
		const enterExit =
			s.enterExit >= 0 && bytes[missing + s.enterExit * FieldOut.SIZE] === 0
				? value + s.enterExit * F_WORDS
				: -1;
		if (enterExit >= 0)
			flags |= words[enterExit] === 0 && words[enterExit + 1] === 0 ? FLAG_ENTER : FLAG_EXIT;
		const locationAt =
			s.location >= 0 && bytes[missing + s.location * FieldOut.SIZE] === 0
				? value + s.location * F_WORDS
				: -1;
		const location =
			locationAt >= 0 ? words[locationAt + 1]! * 0x100000000 + words[locationAt]! : -1;
		const endpoint =
			s.endpoint >= 0 && bytes[missing + s.endpoint * FieldOut.SIZE] === 0
				? value + s.endpoint * F_WORDS
				: -1;
		if (endpoint >= 0) c.endpoint[r] = this.#pointer(words, endpoint);
		const process =
			s.process >= 0 && bytes[missing + s.process * FieldOut.SIZE] === 0
				? value + s.process * F_WORDS
				: -1;
		if (process >= 0) {
			const eprocess = this.#pointer(words, process);
			const headerPid = c.pid[r]!;
			let pid = this.#pidOf(eprocess);
			const pidField =
				s.pidField >= 0 && bytes[missing + s.pidField * FieldOut.SIZE] === 0
					? value + s.pidField * F_WORDS
					: -1;
			if (pidField >= 0) {
				const named = words[pidField + 1]! * 0x100000000 + words[pidField]!;
				if (named !== pid) this.#learnPid(eprocess, (pid = named));
			} else if (pid === NONE) {
				const trust = headerTrust(location, s, flags);
				if (trust === 'teaches' && headerPid !== NO_PID && ownerCandidate(headerPid))
					this.#learnPid(eprocess, (pid = headerPid));
				// At a Location where it is known not to be the caller's, it names no one.
				else if (trust === 'never') pid = NO_PID;
			}
			c.process[r] = pid === NONE ? headerPid : pid;
		}
		// The columns below are 32 bits wide or narrower: the low half of each value is what they keep.
		const status =
			s.status >= 0 && bytes[missing + s.status * FieldOut.SIZE] === 0
				? value + s.status * F_WORDS
				: -1;
		if (status >= 0) {
			const st = words[status]!;
			c.status[r] = st;
			flags |= FLAG_STATUS;
			// Enter events carry no outcome yet; an error is a failed status on anything else.
			if (st >>> 30 === 3 && !(flags & FLAG_ENTER)) flags |= FLAG_ERROR;
		}
		const byteCount =
			s.bytes >= 0 && bytes[missing + s.bytes * FieldOut.SIZE] === 0
				? value + s.bytes * F_WORDS
				: -1;
		if (byteCount >= 0) {
			c.bytes[r] = words[byteCount]!;
			flags |= FLAG_BYTES;
			if (s.bytesAt === 'enter')
				flags |= flags & FLAG_ENTER ? FLAG_TRANSFER_AT_ENTER : FLAG_NOT_TRANSFER;
			else if (s.bytesAt === 'exit' && doubleCounts(location)) flags |= FLAG_NOT_TRANSFER;
		}
		const family =
			s.family >= 0 && bytes[missing + s.family * FieldOut.SIZE] === 0
				? value + s.family * F_WORDS
				: -1;
		if (family >= 0) c.family[r] = words[family]!;
		const address =
			s.address >= 0 && bytes[missing + s.address * FieldOut.SIZE] === 0
				? value + s.address * F_WORDS
				: -1;
		if (address >= 0) {
			const j = start + s.address;
			const type = bytes[j * FieldOut.SIZE + FieldOut.type]!;
			const off = words[j * F_WORDS + F_OFFSET]!;
			const port =
				s.port >= 0 && bytes[missing + s.port * FieldOut.SIZE] === 0
					? value + s.port * F_WORDS
					: -1;
			let portValue = port >= 0 ? words[port]! : 0;
			// The address as it sits in the record is the key to its string: text is made once per
			// distinct address, not per event.
			const image = b.image;
			let keyAt = off;
			let keyLength: 0 | 4 | 16 = 0; // 4: IPv4, 16: IPv6, 0: no address
			if (type === FieldType.IPv4) keyLength = 4;
			else if (type === FieldType.IPv6) keyLength = 16;
			else if (type === FieldType.SocketAddress) {
				keyLength = socketAddressBytes(image, off, b.fieldSize(j));
				if (keyLength) {
					keyAt = socketAddressAt(off, keyLength);
					portValue = socketPort(image, off);
				}
			}
			if (keyLength) {
				let idx = this.#addresses.get(image, keyAt, keyLength);
				if (idx < 0) {
					const text = keyLength === 4 ? ipv4(image, keyAt) : ipv6(image, keyAt);
					idx = this.#tables.intern(text);
					this.#addresses.set(image, keyAt, keyLength, idx);
				}
				c.family[r] = keyLength === 4 ? AF_INET : AF_INET6;
				if (s.local) {
					c.laddr[r] = idx;
					c.lport[r] = portValue;
				} else {
					c.raddr[r] = idx;
					c.rport[r] = portValue;
				}
			}
		}
		c.flags[r] = flags;
	}

	/**
	 * The PID learned for an EPROCESS (by its string index), NONE when none: read from the
	 * trace's table once, then kept by index (a lookup per event by text cost a hash each time).
	 */
	#pidOf(eprocess: number): number {
		let pids = this.#pids.table;
		if (eprocess >= pids.length) {
			const grown = new Float64Array(Math.max(eprocess + 1, pids.length * 2)).fill(UNKNOWN);
			grown.set(pids);
			pids = this.#pids.table = grown;
		}
		let pid = pids[eprocess]!;
		if (pid === UNKNOWN)
			pid = pids[eprocess] = this.#tables.processOf.get(this.#tables.strings[eprocess]!) ?? NONE;
		return pid;
	}

	#learnPid(eprocess: number, pid: number): void {
		this.#pids.table[eprocess] = pid;
		this.#tables.processOf.set(this.#tables.strings[eprocess]!, pid);
	}

	/** The string index of the pointer at words[at] (low half first), as lowercase 0x-hex text. */
	#pointer(words: Uint32Array, at: number): number {
		let index = this.#pointers.getAt(words, at);
		if (index < 0) {
			const lo = words[at]!;
			const hi = words[at + 1]!;
			index = this.#tables.intern(pointerText(hi, lo));
			this.#pointers.set(hi, lo, index);
		}
		return index;
	}
}

/** Lookups that outlive one chunk (the tables they point into do too). */
export interface BuilderCaches {
	readonly types: Map<number, number>[];
	/** Event type + 1 by (schema index × 16 + kind) × 256 + opcode; 0 not looked up yet. */
	readonly schemaTypes: Int32Array;
	readonly pointers: PointerTable;
	readonly addresses: BytesTable;
	readonly categories: number[];
	/** PID per EPROCESS string index (UNKNOWN: not looked up yet). */
	readonly pids: { table: Float64Array };
	/** Where builders take their columns: the arrays of chunks done with, when given back. */
	readonly columns: ColumnPool;
}

export function newBuilderCaches(columns = new ColumnPool()): BuilderCaches {
	return {
		columns,
		types: [],
		// Zero-filled, so its pages cost nothing until used (filled with -1, it cost an import 15 ms).
		schemaTypes: new Int32Array(EVENT_SCHEMAS.length * 16 * 256),
		pointers: new PointerTable(),
		addresses: new BytesTable(),
		categories: [],
		pids: { table: new Float64Array(0) },
	};
}
