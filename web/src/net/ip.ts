// IP addresses as users write them and read them: dotted IPv4 and RFC 5952 IPv6, parsed from text
// and written from bytes, and one canonical text for each address.

export function ipv4(b: Uint8Array, at: number): string {
	return `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;
}

/** RFC 5952: lowercase, no leading zeros, the longest run (≥ 2) of zero groups as "::". */
export function ipv6(b: Uint8Array, at: number): string {
	const groups: number[] = [];
	for (let i = 0; i < 8; i++) groups.push((b[at + 2 * i]! << 8) | b[at + 2 * i + 1]!);
	// IPv4-mapped addresses keep their dotted tail.
	if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
		return `::ffff:${ipv4(b, at + 12)}`;
	let bestStart = -1;
	let bestLen = 0;
	for (let i = 0; i < 8;) {
		if (groups[i] !== 0) {
			i++;
			continue;
		}
		let j = i;
		while (j < 8 && groups[j] === 0) j++;
		if (j - i > bestLen && j - i >= 2) {
			bestStart = i;
			bestLen = j - i;
		}
		i = j;
	}
	const hex = (g: number[]) => g.map((x) => x.toString(16)).join(':');
	if (bestStart < 0) return hex(groups);
	return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLen))}`;
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

/** An address in one canonical text: dotted IPv4 (also for IPv4-mapped IPv6), else RFC 5952. */
export function canonicalAddress(text: string): string | null {
	let t = text.trim();
	const bracket = /^\[([^\]]+)\](?::\d+)?$/.exec(t);
	if (bracket) t = bracket[1]!;
	else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(t)) t = t.slice(0, t.lastIndexOf(':'));
	t = t.replace(/%.*$/, '');
	const b = parseIp(t);
	if (!b) return null;
	if (b.length === 4) return ipv4(b, 0);
	const mapped = b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
	return mapped ? ipv4(b, 12) : ipv6(b, 0);
}

/** The address part of a socket's `a.b.c.d:port` or `[v6]:port`, canonical; null for others. */
export function addressOfEndpoint(endpoint: string | null): string | null {
	if (endpoint === null) return null;
	return canonicalAddress(endpoint);
}
