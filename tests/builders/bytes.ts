// Little byte-level helpers shared by the test builders: a growable writer, GUIDs, strings,
// IP addresses and FILETIME values. Test-only code: it throws on bad input instead of returning
// errors.

import { AF_INET, AF_INET6 } from './afd-vocabulary.ts';

/** A growable little-endian byte writer. */
export class ByteWriter {
	private buf: Uint8Array;
	private view: DataView;
	private pos = 0;

	constructor(capacity = 256) {
		this.buf = new Uint8Array(Math.max(16, capacity));
		this.view = new DataView(this.buf.buffer);
	}

	get length(): number {
		return this.pos;
	}

	private ensure(extra: number): void {
		const need = this.pos + extra;
		if (need <= this.buf.length) return;
		let size = this.buf.length * 2;
		while (size < need) size *= 2;
		const next = new Uint8Array(size);
		next.set(this.buf.subarray(0, this.pos));
		this.buf = next;
		this.view = new DataView(next.buffer);
	}

	u8(v: number): this {
		checkInt(v, 0, 0xff, 'u8');
		this.ensure(1);
		this.buf[this.pos++] = v;
		return this;
	}

	u16(v: number): this {
		checkInt(v, 0, 0xffff, 'u16');
		this.ensure(2);
		this.view.setUint16(this.pos, v, true);
		this.pos += 2;
		return this;
	}

	u16be(v: number): this {
		checkInt(v, 0, 0xffff, 'u16');
		this.ensure(2);
		this.view.setUint16(this.pos, v, false);
		this.pos += 2;
		return this;
	}

	u32(v: number): this {
		checkInt(v, 0, 0xffffffff, 'u32');
		this.ensure(4);
		this.view.setUint32(this.pos, v, true);
		this.pos += 4;
		return this;
	}

	i32(v: number): this {
		checkInt(v, -0x80000000, 0x7fffffff, 'i32');
		this.ensure(4);
		this.view.setInt32(this.pos, v, true);
		this.pos += 4;
		return this;
	}

	u64(v: bigint): this {
		if (v < 0n || v > 0xffffffffffffffffn) throw new RangeError(`u64 out of range: ${v}`);
		this.ensure(8);
		this.view.setBigUint64(this.pos, v, true);
		this.pos += 8;
		return this;
	}

	i64(v: bigint): this {
		if (v < -(1n << 63n) || v >= 1n << 63n) throw new RangeError(`i64 out of range: ${v}`);
		this.ensure(8);
		this.view.setBigInt64(this.pos, v, true);
		this.pos += 8;
		return this;
	}

	/** An unsigned pointer-sized value (4 or 8 bytes). */
	ptr(v: bigint | number, size: 4 | 8): this {
		const b = BigInt(v);
		if (size === 4) {
			if (b < 0n || b > 0xffffffffn) throw new RangeError(`pointer does not fit 32 bits: ${b}`);
			return this.u32(Number(b));
		}
		return this.u64(b);
	}

	bytes(b: Uint8Array): this {
		this.ensure(b.length);
		this.buf.set(b, this.pos);
		this.pos += b.length;
		return this;
	}

	fill(byte: number, count: number): this {
		this.ensure(count);
		this.buf.fill(byte, this.pos, this.pos + count);
		this.pos += count;
		return this;
	}

	guid(g: string): this {
		return this.bytes(guidBytes(g));
	}

	utf16z(s: string): this {
		return this.bytes(utf16z(s));
	}

	ansiz(s: string): this {
		return this.bytes(ansiz(s));
	}

	/** Patches a u16 at an absolute position already written. */
	setU16(at: number, v: number): this {
		checkInt(v, 0, 0xffff, 'u16');
		this.view.setUint16(at, v, true);
		return this;
	}

	/** Patches a u32 at an absolute position already written. */
	setU32(at: number, v: number): this {
		checkInt(v, 0, 0xffffffff, 'u32');
		this.view.setUint32(at, v, true);
		return this;
	}

	/** Patches bytes at an absolute position already written. */
	setBytes(at: number, b: Uint8Array): this {
		if (at + b.length > this.pos) throw new RangeError('setBytes past the written end');
		this.buf.set(b, at);
		return this;
	}

	finish(): Uint8Array {
		return this.buf.slice(0, this.pos);
	}
}

function checkInt(v: number, min: number, max: number, what: string): void {
	if (!Number.isInteger(v) || v < min || v > max)
		throw new RangeError(`${what} out of range: ${v}`);
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
	let n = 0;
	for (const p of parts) n += p.length;
	const out = new Uint8Array(n);
	let o = 0;
	for (const p of parts) {
		out.set(p, o);
		o += p.length;
	}
	return out;
}

export function align8(n: number): number {
	return (n + 7) & ~7;
}

// ---- GUIDs ----

const GUID_RE = /^\{?([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\}?$/i;

/** Normalises a GUID string to lower case without braces; throws when malformed. */
export function normGuid(g: string): string {
	const m = GUID_RE.exec(g.trim());
	if (!m) throw new Error(`not a GUID: ${g}`);
	return `${m[1]}-${m[2]}-${m[3]}-${m[4]}-${m[5]}`.toLowerCase();
}

/** The 16 on-disk bytes of a GUID: Data1 u32le, Data2 u16le, Data3 u16le, Data4[8] as written. */
export function guidBytes(g: string): Uint8Array {
	const m = GUID_RE.exec(g.trim());
	if (!m) throw new Error(`not a GUID: ${g}`);
	const hex = (s: string): number[] => s.match(/../g)!.map((h) => parseInt(h, 16));
	const d1 = hex(m[1]!).reverse();
	const d2 = hex(m[2]!).reverse();
	const d3 = hex(m[3]!).reverse();
	return Uint8Array.from([...d1, ...d2, ...d3, ...hex(m[4]!), ...hex(m[5]!)]);
}

/** Inverse of guidBytes. */
export function guidFromBytes(b: Uint8Array, at = 0): string {
	const h = (i: number): string => b[at + i]!.toString(16).padStart(2, '0');
	const seq = (idx: number[]): string => idx.map(h).join('');
	return [
		seq([3, 2, 1, 0]),
		seq([5, 4]),
		seq([7, 6]),
		seq([8, 9]),
		seq([10, 11, 12, 13, 14, 15]),
	].join('-');
}

// ---- strings ----

export function utf16z(s: string): Uint8Array {
	const out = new Uint8Array((s.length + 1) * 2);
	const v = new DataView(out.buffer);
	for (let i = 0; i < s.length; i++) v.setUint16(i * 2, s.charCodeAt(i), true);
	return out;
}

/** An 8-bit zero-terminated string (code points above 0xFF are rejected). */
export function ansiz(s: string): Uint8Array {
	const out = new Uint8Array(s.length + 1);
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		if (c > 0xff) throw new RangeError(`not an 8-bit string: ${JSON.stringify(s)}`);
		out[i] = c;
	}
	return out;
}

export function utf8z(s: string): Uint8Array {
	const b = new TextEncoder().encode(s);
	if (b.includes(0)) throw new Error(`string contains NUL: ${JSON.stringify(s)}`);
	const out = new Uint8Array(b.length + 1);
	out.set(b);
	return out;
}

// ---- IP addresses ----

/** 'a.b.c.d' → 4 bytes in network order. */
export function ipv4Bytes(s: string): Uint8Array {
	const parts = s.split('.');
	if (parts.length !== 4) throw new Error(`not an IPv4 address: ${s}`);
	return Uint8Array.from(
		parts.map((p) => {
			if (!/^\d{1,3}$/.test(p) || Number(p) > 255) throw new Error(`not an IPv4 address: ${s}`);
			return Number(p);
		}),
	);
}

/**
 * Any RFC 4291 / 5952 text form ('::', '::1', 'fe80::1', '2001:db8::a:b', '::ffff:1.2.3.4',
 * full 8-group form, upper or lower case) → 16 bytes in network order. A '%zone' suffix is not
 * accepted here (see parseIpv6WithScope).
 */
export function ipv6Bytes(s: string): Uint8Array {
	const text = s.trim();
	if (text.includes('%')) throw new Error(`IPv6 zone not allowed here: ${s}`);
	const bad = (): never => {
		throw new Error(`not an IPv6 address: ${s}`);
	};
	const groupsOf = (part: string, last: boolean): number[] => {
		if (part === '') return [];
		if (!last && part.includes('.')) bad();
		const out: number[] = [];
		const items = part.split(':');
		items.forEach((g, i) => {
			if (g.includes('.')) {
				if (i !== items.length - 1) bad();
				const b = ipv4Bytes(g);
				out.push((b[0]! << 8) | b[1]!, (b[2]! << 8) | b[3]!);
			} else {
				if (!/^[0-9a-fA-F]{1,4}$/.test(g)) bad();
				out.push(parseInt(g, 16));
			}
		});
		return out;
	};
	const halves = text.split('::');
	let groups: number[];
	if (halves.length === 1) {
		groups = groupsOf(text, true);
		if (groups.length !== 8) bad();
	} else if (halves.length === 2) {
		const head = groupsOf(halves[0]!, false);
		const tail = groupsOf(halves[1]!, true);
		if (head.length + tail.length > 7) bad();
		groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
	} else {
		return bad();
	}
	const out = new Uint8Array(16);
	groups.forEach((g, i) => {
		out[i * 2] = g >> 8;
		out[i * 2 + 1] = g & 0xff;
	});
	return out;
}

/** 'addr%scope' → bytes and numeric scope (0 when absent). Only numeric zone ids are supported. */
export function parseIpv6WithScope(s: string): { addr: Uint8Array; scope: number } {
	const i = s.indexOf('%');
	if (i < 0) return { addr: ipv6Bytes(s), scope: 0 };
	const zone = s.slice(i + 1);
	if (!/^\d+$/.test(zone)) throw new Error(`only numeric IPv6 zone ids are supported: ${s}`);
	return { addr: ipv6Bytes(s.slice(0, i)), scope: Number(zone) };
}

/** RFC 5952 canonical text of 16 address bytes (lower case, longest zero run compressed). */
export function ipv6Text(b: Uint8Array): string {
	const g: number[] = [];
	for (let i = 0; i < 8; i++) g.push((b[i * 2]! << 8) | b[i * 2 + 1]!);
	let bestAt = -1;
	let bestLen = 0;
	for (let i = 0; i < 8;) {
		if (g[i] !== 0) {
			i++;
			continue;
		}
		let j = i;
		while (j < 8 && g[j] === 0) j++;
		if (j - i > bestLen && j - i >= 2) {
			bestAt = i;
			bestLen = j - i;
		}
		i = j;
	}
	const hex = (x: number[]): string => x.map((v) => v.toString(16)).join(':');
	if (bestAt < 0) return hex(g);
	return `${hex(g.slice(0, bestAt))}::${hex(g.slice(bestAt + bestLen))}`;
}

export { AF_INET, AF_INET6 };

/**
 * 'a.b.c.d:port' → SOCKADDR_IN (16 bytes: u16le family 2, u16be port, 4 address bytes, 8 zero);
 * '[v6]:port' or '[v6%scope]:port' → SOCKADDR_IN6 (28 bytes: u16le family 23, u16be port,
 * u32 flowinfo 0, 16 address bytes, u32le scope id).
 */
export function sockaddrBytes(s: string): Uint8Array {
	const text = s.trim();
	const w = new ByteWriter(28);
	if (text.startsWith('[')) {
		const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(text);
		if (!m || Number(m[2]) > 0xffff) throw new Error(`not an IPv6 socket address: ${s}`);
		const { addr, scope } = parseIpv6WithScope(m[1]!);
		w.u16(AF_INET6).u16be(Number(m[2])).u32(0).bytes(addr).u32(scope);
	} else {
		const m = /^([\d.]+):(\d{1,5})$/.exec(text);
		if (!m || Number(m[2]) > 0xffff) throw new Error(`not an IPv4 socket address: ${s}`);
		w.u16(AF_INET).u16be(Number(m[2])).bytes(ipv4Bytes(m[1]!)).fill(0, 8);
	}
	return w.finish();
}

// ---- time ----

/** 100 ns intervals between 1601-01-01 and 1970-01-01. */
export const FILETIME_UNIX_EPOCH = 116444736000000000n;

/**
 * ISO-8601 UTC text with up to 7 fractional digits ('2026-03-14T09:26:53.5897932Z') → FILETIME
 * bigint, exactly (no floating point).
 */
export function filetimeFromIso(iso: string): bigint {
	const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?Z$/.exec(iso);
	if (!m) throw new Error(`expected UTC ISO time with at most 7 fractional digits: ${iso}`);
	const ms = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
	const frac = BigInt((m[7] ?? '').padEnd(7, '0'));
	return FILETIME_UNIX_EPOCH + BigInt(ms) * 10000n + frac;
}

/** FILETIME bigint → ISO-8601 UTC text with 7 fractional digits. */
export function filetimeToIso(ft: bigint): string {
	const rel = ft - FILETIME_UNIX_EPOCH;
	const secs = rel / 10000000n;
	const frac = rel % 10000000n;
	const d = new Date(Number(secs) * 1000);
	return `${d.toISOString().slice(0, 19)}.${frac.toString().padStart(7, '0')}Z`;
}

/**
 * Where two byte arrays first differ (their shorter length when one is a prefix of the other),
 * or null when they are equal: a deep equality compares element by element, thousands of times
 * slower on arrays of megabytes, and a failure still names the offset.
 */
export function firstDifference(a: Uint8Array, b: Uint8Array): number | null {
	if (Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b)) return null;
	const n = Math.min(a.length, b.length);
	for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
	return n;
}
