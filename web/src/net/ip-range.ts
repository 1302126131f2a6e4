// IP ranges (CIDR blocks) as the `addr:` filters write them.
import { parseIp } from './ip.ts';

export interface IpPattern {
	readonly bytes: Uint8Array;
	/** Prefix length in bits (32 or 128 for one address). */
	readonly prefix: number;
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
