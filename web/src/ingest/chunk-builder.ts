// Turns decoded records into column rows: header facts for every record, and for Winsock-AFD
// events the socket columns (endpoint, process, addresses, status, bytes) read from the
// schema interpreter's field table by field name.
import { FieldOut, FieldType, PayloadLayout, RecordKind, RecordOut } from '../generated/layouts.ts';
import { EVENT_SCHEMAS, PROVIDERS } from '../generated/schemas.ts';
import { AFD_EVENTS, AFD_LOCATIONS } from '../generated/afd-semantics.ts';
import {
	AF_INET,
	AF_INET6,
	ipv4,
	ipv6,
	socketAddressAt,
	socketAddressBytes,
	socketPort,
} from '../decoder/addresses.ts';
import { Clock, type DecodedBuffer } from '../decoder/decoded-buffer.ts';
import { providerName, type ProviderTable } from '../decoder/record-json.ts';
import { decodeTraceLogging, extItems } from '../decoder/tracelogging.ts';
import {
	allocateColumn,
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
} from './columns.ts';
import { CAT_ERRORS, CATEGORIES, categoryOf } from './categories.ts';
import { BytesTable } from '../lib/bytes-table.ts';
import { pointerText, PointerTable } from '../lib/pointer-table.ts';
import { eventTypeKey, type TraceTables } from './trace-tables.ts';
import { kernelEventName } from './kernel-names.ts';

const AFD_CODE = PROVIDERS.find((p) => p.key === 'afd')!.code;
const SYSTEM_PID = 4;
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
	/** An AFD call the application makes (its enter runs in the caller's thread). */
	call: boolean;
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
		call: s.provider === AFD_CODE && (AFD_EVENTS[s.id]?.call ?? false),
		local: /bind/i.test(s.name) || /^bind/i.test(s.label ?? ''),
	};
});

/**
 * What an AFD event's header PID says of its Process while no create has named it: the caller's
 * PID at a reliable Location (and, without Locations, as the legacy events were always read) or
 * at an unknown Location on the enter of an application call; never at a Location known to be
 * unreliable; otherwise it is only shown.
 */
function headerTrust(
	b: DecodedBuffer,
	start: number,
	s: SocketFields,
	flags: number,
): 'teaches' | 'shown' | 'never' {
	if (!present(b, start, s.location)) return 'teaches';
	const loc = AFD_LOCATIONS[num(b, start, s.location)];
	if (loc)
		return loc.pid === 'reliable' || loc.pid === 'reliable-unless-system'
			? 'teaches'
			: loc.pid === 'unreliable'
				? 'never'
				: 'shown';
	return flags & FLAG_ENTER && s.call ? 'teaches' : 'shown';
}

export class ChunkBuilder {
	readonly index: number;
	readonly columns: Columns;
	rows = 0;
	#tMin = Infinity;
	#tMax = -Infinity;
	readonly #tables: TraceTables;
	readonly #clock: Clock;
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
		this.#clock = new Clock(startFiletime);
		this.#providers = providers;
		this.#typeCache = caches.types;
		this.#schemaTypes = caches.schemaTypes;
		this.#pointers = caches.pointers;
		this.#addresses = caches.addresses;
		this.#categories = caches.categories;
		this.#pids = caches.pids;
		this.#capacity = chunkCapacity(index);
		this.columns = makeColumns(COLUMN_NAMES, (name) => allocateColumn(name, this.#capacity));
	}

	get full(): boolean {
		return this.rows >= this.#capacity;
	}

	add(b: DecodedBuffer, i: number): void {
		const c = this.columns;
		const r = this.rows++;
		const t = this.#clock.ticks(b, i);
		c.time[r] = t;
		if (t < this.#tMin) this.#tMin = t;
		if (t > this.#tMax) this.#tMax = t;
		const kind = b.u8(i, RecordOut.kind);
		c.kind[r] = kind;
		c.level[r] = b.u8(i, RecordOut.level);
		c.opcode[r] = b.u8(i, RecordOut.opcode);
		c.cpu[r] = b.entry.cpu;
		const pid = b.u32(i, RecordOut.pid);
		c.pid[r] = pid;
		c.tid[r] = b.u32(i, RecordOut.tid);
		c.process[r] = pid;
		// The socket columns stay 0 unless set: each builder's columns are new (zeroed).
		const etype = (c.etype[r] = this.#eventType(b, i, kind));
		if (b.u8(i, RecordOut.layout) === PayloadLayout.schema) this.#socketColumns(b, i, r);
		c.cat[r] = c.flags[r]! & FLAG_ERROR ? CAT_ERRORS : this.#category(etype);
		c.buffer[r] = b.entry.index;
		c.recOffset[r] = b.u32(i, RecordOut.recordOffset) + b.offsetBase;
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
		};
	}

	#eventType(b: DecodedBuffer, i: number, kind: number): number {
		// TraceLogging events of one provider share header facts: their names need the metadata.
		const layout = b.u8(i, RecordOut.layout);
		if (layout === PayloadLayout.tracelogging) return this.#makeEventType(b, i, kind);
		// An event with a schema: its type by schema, kind and opcode, in a table (almost every
		// event of a Winsock trace), else as below.
		if (layout === PayloadLayout.schema) {
			const k = ((b.u16(i, RecordOut.schemaIndex) * 16 + kind) << 8) | b.u8(i, RecordOut.opcode);
			const known = this.#schemaTypes[k]!;
			return known >= 0 ? known : (this.#schemaTypes[k] = this.#typeByKey(b, i, kind));
		}
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

	#socketColumns(b: DecodedBuffer, i: number, r: number): void {
		const c = this.columns;
		const s = SOCKET_FIELDS[b.u16(i, RecordOut.schemaIndex)]!;
		const start = b.u32(i, RecordOut.fieldStart);
		let flags = 0;
		if (present(b, start, s.enterExit))
			flags |= num(b, start, s.enterExit) === 0 ? FLAG_ENTER : FLAG_EXIT;
		if (present(b, start, s.endpoint)) c.endpoint[r] = this.#pointer(b, start + s.endpoint);
		if (present(b, start, s.process)) {
			const eprocess = this.#pointer(b, start + s.process);
			const headerPid = c.pid[r]!;
			let pid = this.#pidOf(eprocess);
			if (present(b, start, s.pidField)) {
				const named = num(b, start, s.pidField);
				if (named !== pid) this.#learnPid(eprocess, (pid = named));
			} else if (pid === NONE) {
				const trust = headerTrust(b, start, s, flags);
				if (trust === 'teaches' && headerPid !== NO_PID && headerPid > SYSTEM_PID)
					this.#learnPid(eprocess, (pid = headerPid));
				// At a Location where it is known not to be the caller's, it names no one.
				else if (trust === 'never') pid = NO_PID;
			}
			c.process[r] = pid === NONE ? headerPid : pid;
		}
		if (present(b, start, s.status)) {
			const st = num(b, start, s.status);
			c.status[r] = st;
			flags |= FLAG_STATUS;
			// Enter events carry no outcome yet; an error is a failed status on anything else.
			if (st >>> 30 === 3 && !(flags & FLAG_ENTER)) flags |= FLAG_ERROR;
		}
		if (present(b, start, s.bytes)) {
			c.bytes[r] = num(b, start, s.bytes);
			flags |= FLAG_BYTES;
			if (s.bytesAt === 'enter')
				flags |= flags & FLAG_ENTER ? FLAG_TRANSFER_AT_ENTER : FLAG_NOT_TRANSFER;
			else if (
				s.bytesAt === 'exit' &&
				present(b, start, s.location) &&
				AFD_LOCATIONS[num(b, start, s.location)]?.bytes === 'double-count'
			)
				flags |= FLAG_NOT_TRANSFER;
		}
		if (present(b, start, s.family)) c.family[r] = num(b, start, s.family);
		if (present(b, start, s.address)) {
			const j = start + s.address;
			const type = b.fieldU8(j, FieldOut.type);
			const off = b.fieldU32(j, FieldOut.offset);
			let port = present(b, start, s.port) ? num(b, start, s.port) : 0;
			// The address as it sits in the record is the key to its string: text is made once per
			// distinct address, not per event.
			const image = b.image;
			let keyAt = off;
			let keyLength: 0 | 4 | 16 = 0; // 4: IPv4, 16: IPv6, 0: no address
			if (type === FieldType.IPv4) keyLength = 4;
			else if (type === FieldType.IPv6) keyLength = 16;
			else if (type === FieldType.SocketAddress) {
				keyLength = socketAddressBytes(image, off, b.fieldU32(j, FieldOut.size));
				if (keyLength) {
					keyAt = socketAddressAt(off, keyLength);
					port = socketPort(image, off);
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
					c.lport[r] = port;
				} else {
					c.raddr[r] = idx;
					c.rport[r] = port;
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

	/** The string index of a pointer field's value as lowercase 0x-hex text. */
	#pointer(b: DecodedBuffer, j: number): number {
		const lo = b.fieldU32(j, FieldOut.value);
		const hi = b.fieldU32(j, FieldOut.value + 4);
		let index = this.#pointers.get(hi, lo);
		if (index < 0) {
			index = this.#tables.intern(pointerText(hi, lo));
			this.#pointers.set(hi, lo, index);
		}
		return index;
	}
}

/** Whether field k of the record whose fields start at `start` was present in the payload. */
function present(b: DecodedBuffer, start: number, k: number): boolean {
	return k >= 0 && b.fieldU8(start + k, FieldOut.missing) === 0;
}

/** A field's integer value (ports, statuses, lengths: all well below 2^53). */
function num(b: DecodedBuffer, start: number, k: number): number {
	const j = start + k;
	return b.fieldU32(j, FieldOut.value + 4) * 0x100000000 + b.fieldU32(j, FieldOut.value);
}

/** Lookups that outlive one chunk (the tables they point into do too). */
export interface BuilderCaches {
	readonly types: Map<number, number>[];
	/** Event type by (schema index × 16 + kind) × 256 + opcode; -1 not looked up yet. */
	readonly schemaTypes: Int32Array;
	readonly pointers: PointerTable;
	readonly addresses: BytesTable;
	readonly categories: number[];
	/** PID per EPROCESS string index (UNKNOWN: not looked up yet). */
	readonly pids: { table: Float64Array };
}

export function newBuilderCaches(): BuilderCaches {
	return {
		types: [],
		schemaTypes: new Int32Array(EVENT_SCHEMAS.length * 16 * 256).fill(-1),
		pointers: new PointerTable(),
		addresses: new BytesTable(),
		categories: [],
		pids: { table: new Float64Array(0) },
	};
}
