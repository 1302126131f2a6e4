// Network addresses as users write them: dotted IPv4, RFC 5952 IPv6, and SOCKADDR as addr:port.

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

export const AF_INET = 2;
export const AF_INET6 = 23;

export interface SocketAddress {
	readonly family: number;
	readonly address: string;
	readonly port: number;
	/** addr:port, [v6]:port ([v6%scope]:port with a scope id), or the family and raw bytes. */
	readonly text: string;
}

/**
 * How many address bytes a SOCKADDR of `length` bytes at `at` holds: 4 (AF_INET), 16 (AF_INET6),
 * or 0 (another family, or too short). Makes no text, for code that keys on the bytes.
 */
export function socketAddressBytes(b: Uint8Array, at: number, length: number): 0 | 4 | 16 {
	if (length < 2) return 0;
	const family = b[at]! | (b[at + 1]! << 8);
	if (family === AF_INET && length >= 8) return 4;
	if (family === AF_INET6 && length >= 24) return 16;
	return 0;
}

/** Where the address of a SOCKADDR at `at` starts, given its size (socketAddressBytes). */
export function socketAddressAt(at: number, bytes: 4 | 16): number {
	return at + (bytes === 4 ? 4 : 8);
}

/** The port of a SOCKADDR at `at` (big-endian, after the family). */
export function socketPort(b: Uint8Array, at: number): number {
	return (b[at + 2]! << 8) | b[at + 3]!;
}

/** SOCKADDR: u16le family, then for AF_INET/AF_INET6 a big-endian port and the address. */
export function socketAddress(b: Uint8Array, at: number, length: number): SocketAddress | null {
	if (length < 2) return null;
	const family = b[at]! | (b[at + 1]! << 8);
	const bytes = socketAddressBytes(b, at, length);
	if (bytes === 4) {
		const address = ipv4(b, socketAddressAt(at, bytes));
		const port = socketPort(b, at);
		return { family, address, port, text: `${address}:${port}` };
	}
	if (bytes === 16) {
		const address = ipv6(b, socketAddressAt(at, bytes));
		const port = socketPort(b, at);
		// sin6_scope_id (little-endian), written as %n the way ping and netstat show it.
		const scope =
			length >= 28
				? (b[at + 24]! | (b[at + 25]! << 8) | (b[at + 26]! << 16) | (b[at + 27]! << 24)) >>> 0
				: 0;
		return { family, address, port, text: `[${address}${scope ? `%${scope}` : ''}]:${port}` };
	}
	const raw = Array.from(b.subarray(at + 2, at + length), (x) => x.toString(16).padStart(2, '0'));
	return { family, address: raw.join(''), port: 0, text: `family ${family}: ${raw.join('')}` };
}
