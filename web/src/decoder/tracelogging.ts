// TraceLogging (self-describing) events: the provider name is in extended item 0xC (PROV_TRAITS),
// the event name and field types in item 0xB (EVENT_SCHEMA_TL); the payload follows them.
// Byte format: TraceLoggingDynamic.h (microsoft/tracelogging), summarised in schema/README.md.
import type { Message } from '../lib/message.ts';
import { key } from './messages.ts';
import { ipv4, ipv6 } from '../net/ip.ts';
import { filetimeToIso } from './time.ts';
import { guidAt } from './wasm.ts';

export const EXT_EVENT_SCHEMA_TL = 0x0b;
export const EXT_PROV_TRAITS = 0x0c;

export interface ExtItem {
	readonly type: number;
	readonly offset: number;
	readonly size: number;
}

export interface TraceLoggingEvent {
	readonly provider: string | null;
	readonly name: string | null;
	readonly fields: Record<string, unknown>;
	/**
	 * Set when the metadata or payload ended early, or the fields would exceed the event's budget
	 * (overBudget); fields decoded before it are kept.
	 */
	readonly problem: string | null;
	/** The problem as a message, for the page to say in the reader's language. */
	readonly problemText?: Message;
	readonly overBudget?: boolean;
	/** What overran the budget, when overBudget. */
	readonly overrun?: Overrun;
}

/** The extended data items of an event, walked as the decoder validated them. */
export function extItems(b: Uint8Array, offset: number, size: number): ExtItem[] {
	const items: ExtItem[] = [];
	const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
	let q = offset;
	while (q + 8 <= offset + size) {
		const itemSize = v.getUint16(q, true);
		if (itemSize < 8) break;
		items.push({ type: v.getUint16(q + 2, true), offset: q + 8, size: v.getUint16(q + 6, true) });
		q += itemSize;
	}
	return items;
}

const utf8 = new TextDecoder('utf-8');
const utf16 = new TextDecoder('utf-16le');
const latin1 = new TextDecoder('latin1');

class Cursor {
	constructor(
		readonly b: Uint8Array,
		public at: number,
		readonly end: number,
	) {}
	get view(): DataView {
		return new DataView(this.b.buffer, this.b.byteOffset, this.b.byteLength);
	}
	need(n: number): void {
		if (this.at + n > this.end)
			throw new Unreadable('ended early', key('tracelogging.ended-early', {}));
	}
	u8(): number {
		this.need(1);
		return this.b[this.at++]!;
	}
	u16(): number {
		this.need(2);
		const x = this.view.getUint16(this.at, true);
		this.at += 2;
		return x;
	}
	zstring(decoder: TextDecoder): string {
		let q = this.at;
		while (q < this.end && this.b[q] !== 0) q++;
		if (q >= this.end)
			throw new Unreadable('unterminated string', key('tracelogging.unterminated', {}));
		const s = decoder.decode(this.b.subarray(this.at, q));
		this.at = q + 1;
		return s;
	}
	zstring16(): string {
		let q = this.at;
		while (q + 1 < this.end && (this.b[q] !== 0 || this.b[q + 1] !== 0)) q += 2;
		if (q + 1 >= this.end)
			throw new Unreadable('unterminated string', key('tracelogging.unterminated', {}));
		const s = utf16.decode(this.b.subarray(this.at, q));
		this.at = q + 2;
		return s;
	}
	bytes(n: number): Uint8Array {
		this.need(n);
		const out = this.b.subarray(this.at, this.at + n);
		this.at += n;
		return out;
	}
}

/**
 * Values (scalars, array elements, struct instances) one event may decode into, whatever its
 * payload: the stated per-event limit.
 */
export const MAX_VALUES_PER_EVENT = 65536;
/**
 * Below that, an event's budget is tied to its payload: every scalar takes at least one payload
 * byte, so only struct arrays (whose members may take none, nested) could exceed it.
 */
const VALUES_PER_PAYLOAD_BYTE = 4;
const VALUES_SLACK = 256;

/** The number of values an event of `payloadSize` bytes may decode into. */
export function valueBudget(payloadSize: number): number {
	return Math.min(MAX_VALUES_PER_EVENT, VALUES_SLACK + VALUES_PER_PAYLOAD_BYTE * payloadSize);
}

/** A field that would take an event past its value budget: what, and the budget's figures. */
export interface Overrun {
	readonly field: string;
	readonly limit: number;
	readonly payloadSize: number;
}

/** Metadata or payload that cannot be read: its English, and the same as a message. */
class Unreadable extends RangeError {
	constructor(
		english: string,
		readonly text: Message,
	) {
		super(english);
	}
}

export class OverBudget extends Unreadable {
	constructor(readonly overrun: Overrun) {
		super(
			`field ${JSON.stringify(overrun.field)} would take the event past its budget of ${overrun.limit} values (payload of ${overrun.payloadSize} bytes)`,
			key('tracelogging.over-budget', {
				field: overrun.field,
				limit: overrun.limit,
				bytes: overrun.payloadSize,
			}),
		);
	}
}

class Budget {
	left: number;
	constructor(readonly limit: number) {
		this.left = limit;
	}
	/** Takes n values, or throws naming the field that would overrun. */
	take(n: number, field: string, payloadSize: number): void {
		this.left -= n;
		if (this.left < 0) throw new OverBudget({ field, limit: this.limit, payloadSize });
	}
}

interface FieldMeta {
	readonly name: string;
	readonly inType: number;
	readonly outType: number;
	/** 0 scalar, 0x20 constant count, 0x40 variable count, 0x60 custom. */
	readonly array: number;
	readonly count: number;
}

function readMeta(c: Cursor): { name: string; fields: FieldMeta[] } {
	c.u16(); // total size of the metadata
	while (c.u8() & 0x80); // event tags: bytes until one has the high bit clear
	const name = c.zstring(utf8);
	const fields: FieldMeta[] = [];
	while (c.at < c.end) {
		const fieldName = c.zstring(utf8);
		const inMeta = c.u8();
		let outType = 0;
		if (inMeta & 0x80) {
			const outMeta = c.u8();
			outType = outMeta & 0x7f;
			if (outMeta & 0x80) while (c.u8() & 0x80); // field tags
		}
		const array = inMeta & 0x60;
		let count = 0;
		if (array === 0x20) count = c.u16();
		if (array === 0x60) c.bytes(c.u16()); // custom schema
		fields.push({ name: fieldName, inType: inMeta & 0x1f, outType, array, count });
	}
	return { name, fields };
}

function readScalar(c: Cursor, inType: number): unknown {
	const v = () => c.view;
	const at = () => c.at;
	const take = <T>(n: number, read: (p: number) => T): T => {
		c.need(n);
		const x = read(at());
		c.at += n;
		return x;
	};
	switch (inType) {
		case 1:
			return c.zstring16();
		case 2:
			return c.zstring(latin1);
		case 3:
			return take(1, (p) => v().getInt8(p));
		case 4:
			return take(1, (p) => v().getUint8(p));
		case 5:
			return take(2, (p) => v().getInt16(p, true));
		case 6:
			return take(2, (p) => v().getUint16(p, true));
		case 7:
			return take(4, (p) => v().getInt32(p, true));
		case 8:
			return take(4, (p) => v().getUint32(p, true));
		case 9:
			return safe(take(8, (p) => v().getBigInt64(p, true)));
		case 10:
			return safe(take(8, (p) => v().getBigUint64(p, true)));
		case 11:
			return take(4, (p) => v().getFloat32(p, true));
		case 12:
			return take(8, (p) => v().getFloat64(p, true));
		case 13:
			return take(4, (p) => v().getInt32(p, true) !== 0);
		case 14:
		case 25:
			return hexBytes(c.bytes(c.u16()));
		case 15:
			return take(16, (p) => guidAt(c.b, p));
		case 17:
			return take(8, (p) => filetimeToIso(v().getBigUint64(p, true)));
		case 18:
			return take(16, (p) => systemTime(v(), p));
		case 19: {
			c.need(2);
			const n = 8 + 4 * c.b[c.at + 1]!;
			return hexBytes(c.bytes(n));
		}
		case 20:
			return '0x' + take(4, (p) => v().getUint32(p, true)).toString(16);
		case 21:
			return '0x' + take(8, (p) => v().getBigUint64(p, true)).toString(16);
		case 22:
			return utf16.decode(c.bytes(c.u16()));
		case 23:
			return latin1.decode(c.bytes(c.u16()));
		default:
			throw new Unreadable(`unsupported InType ${inType}`, key('tracelogging.in-type', { inType }));
	}
}

function safe(x: bigint): number | string {
	return x <= BigInt(Number.MAX_SAFE_INTEGER) && x >= -BigInt(Number.MAX_SAFE_INTEGER)
		? Number(x)
		: x.toString();
}

function hexBytes(b: Uint8Array): string {
	return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

function systemTime(v: DataView, p: number): string {
	const w = (i: number) => v.getUint16(p + 2 * i, true);
	const pad = (n: number, k = 2) => String(n).padStart(k, '0');
	return `${pad(w(0), 4)}-${pad(w(1))}-${pad(w(3))}T${pad(w(4))}:${pad(w(5))}:${pad(w(6))}.${pad(w(7), 3)}`;
}

/** Out-types that change how a value reads: boolean, character, IPv4/IPv6 address. */
function present(value: unknown, outType: number, raw: Uint8Array): unknown {
	if (outType === 3 && typeof value === 'number') return value !== 0;
	if (outType === 2 && typeof value === 'number') return String.fromCharCode(value);
	if (outType === 10 && raw.length === 4) return ipv4(raw, 0);
	if (outType === 11 && raw.length === 16) return ipv6(raw, 0);
	return value;
}

function readFields(
	c: Cursor,
	fields: FieldMeta[],
	from: number,
	count: number,
	out: Record<string, unknown>,
	budget: Budget,
): number {
	let i = from;
	const payloadSize = c.end - c.at;
	while (i < fields.length && count-- > 0) {
		const f = fields[i++]!;
		if (f.inType === 24) {
			// Struct: OutType holds the number of member fields that follow.
			const members = f.outType;
			const read = (target: Record<string, unknown>) =>
				readFields(c, fields, i, members, target, budget);
			if (f.array === 0) {
				budget.take(1, f.name, payloadSize);
				const nested: Record<string, unknown> = {};
				out[f.name] = nested;
				i = read(nested);
			} else {
				const n = f.array === 0x20 ? f.count : c.u16();
				budget.take(n, f.name, payloadSize);
				const list: Record<string, unknown>[] = [];
				let next = i;
				for (let k = 0; k < n; k++) {
					const nested: Record<string, unknown> = {};
					next = read(nested);
					list.push(nested);
				}
				if (n === 0) next = skipMembers(fields, i, members);
				out[f.name] = list;
				i = next;
			}
			continue;
		}
		const one = () => {
			const start = c.at;
			const value = readScalar(c, f.inType);
			return present(value, f.outType, c.b.subarray(start, c.at));
		};
		if (f.array === 0) {
			budget.take(1, f.name, payloadSize);
			out[f.name] = one();
		} else if (f.array === 0x60) {
			budget.take(1, f.name, payloadSize);
			out[f.name] = hexBytes(c.bytes(c.u16()));
		} else {
			const n = f.array === 0x20 ? f.count : c.u16();
			budget.take(n, f.name, payloadSize);
			const list: unknown[] = [];
			for (let k = 0; k < n; k++) list.push(one());
			out[f.name] = list;
		}
	}
	return i;
}

function skipMembers(fields: FieldMeta[], i: number, members: number): number {
	while (members-- > 0 && i < fields.length) {
		const f = fields[i++]!;
		if (f.inType === 24) i = skipMembers(fields, i, f.outType);
	}
	return i;
}

/** Decodes a TraceLogging event from its extended items and payload in the buffer image. */
export function decodeTraceLogging(
	b: Uint8Array,
	items: readonly ExtItem[],
	payloadOffset: number,
	payloadSize: number,
): TraceLoggingEvent {
	let provider: string | null = null;
	let name: string | null = null;
	const fields: Record<string, unknown> = {};
	try {
		const traits = items.find((x) => x.type === EXT_PROV_TRAITS);
		if (traits) {
			const c = new Cursor(b, traits.offset, traits.offset + traits.size);
			c.u16();
			provider = c.zstring(utf8);
		}
		const schema = items.find((x) => x.type === EXT_EVENT_SCHEMA_TL);
		if (!schema)
			return {
				provider,
				name,
				fields,
				problem: 'no TraceLogging metadata',
				problemText: key('tracelogging.no-metadata', {}),
			};
		const meta = readMeta(new Cursor(b, schema.offset, schema.offset + schema.size));
		name = meta.name;
		readFields(
			new Cursor(b, payloadOffset, payloadOffset + payloadSize),
			meta.fields,
			0,
			Infinity,
			fields,
			new Budget(valueBudget(payloadSize)),
		);
		return { provider, name, fields, problem: null };
	} catch (e) {
		const problem = e instanceof Error ? e.message : String(e);
		// A fault of the reading itself (a DataView past its end) is said as its English.
		const problemText: Message =
			e instanceof Unreadable ? e.text : key('tracelogging.other', { why: problem });
		return e instanceof OverBudget
			? { provider, name, fields, problem, problemText, overBudget: true, overrun: e.overrun }
			: { provider, name, fields, problem, problemText, overBudget: false };
	}
}

/**
 * The event decoded, when decoding it overruns its value budget; null when it stays within it.
 * Only struct and array fields can overrun (every other value takes at least one payload byte):
 * an event whose metadata has none is not decoded here.
 */
export function overBudgetEvent(
	b: Uint8Array,
	items: readonly ExtItem[],
	payloadOffset: number,
	payloadSize: number,
): TraceLoggingEvent | null {
	const schema = items.find((x) => x.type === EXT_EVENT_SCHEMA_TL);
	if (!schema) return null;
	try {
		const meta = readMeta(new Cursor(b, schema.offset, schema.offset + schema.size));
		if (!meta.fields.some((f) => f.array !== 0 || f.inType === 24)) return null;
	} catch {
		// Metadata that cannot be read is the decoding's problem, not the budget's.
		return null;
	}
	const tl = decodeTraceLogging(b, items, payloadOffset, payloadSize);
	return tl.overBudget ? tl : null;
}
