// IP addresses and CIDR blocks for the `addr:` filters.

export interface IpPattern {
	readonly bytes: Uint8Array;
	/** Prefix length in bits (32 or 128 for one address). */
	readonly prefix: number;
}

export function parseIp(text: string): Uint8Array | null {
	if (/^\d{1,3}(\.\d{1,3}){3}$/.test(text)) {
		const parts = text.split('.').map(Number);
		return parts.every((x) => x <= 255) ? Uint8Array.from(parts) : null;
	}
	if (!/^[0-9a-fA-F:.]+$/.test(text) || !text.includes(':')) return null;
	// An embedded IPv4 tail (::ffff:192.0.2.1) becomes its two hex groups.
	let head = text;
	const v4 = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
	if (v4) {
		const b = parseIp(v4[1]!);
		if (!b) return null;
		const hex = (x: number) => x.toString(16);
		head =
			text.slice(0, -v4[1]!.length) + `${hex((b[0]! << 8) | b[1]!)}:${hex((b[2]! << 8) | b[3]!)}`;
	}
	const sides = head.split('::');
	if (sides.length > 2) return null;
	const parse = (s: string) =>
		s === '' ? [] : s.split(':').map((g) => (/^[0-9a-fA-F]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
	const left = parse(sides[0]!);
	const right = sides.length === 2 ? parse(sides[1]!) : [];
	const fill = 8 - left.length - right.length;
	if (sides.length === 2 ? fill < 1 : fill !== 0) return null;
	const all = [...left, ...new Array<number>(fill).fill(0), ...right];
	if (all.some((g) => Number.isNaN(g))) return null;
	const out = new Uint8Array(16);
	all.forEach((g, i) => {
		out[2 * i] = g >> 8;
		out[2 * i + 1] = g & 0xff;
	});
	return out;
}

export function parseIpPattern(text: string): IpPattern | null {
	const [addr, bits, extra] = text.split('/');
	if (extra !== undefined) return null;
	const bytes = parseIp(addr!);
	if (!bytes) return null;
	const max = bytes.length * 8;
	const prefix = bits === undefined ? max : Number(bits);
	if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) return null;
	return { bytes, prefix };
}

export function ipMatches(p: IpPattern, address: Uint8Array): boolean {
	if (address.length !== p.bytes.length) return false;
	let bits = p.prefix;
	for (let i = 0; bits > 0; i++, bits -= 8) {
		const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
		if ((address[i]! & mask) !== (p.bytes[i]! & mask)) return false;
	}
	return true;
}
