// SOCKADDR as Windows logs it: its family, and for IP the address and port as addr:port, [v6]:port.
import { ipv4, ipv6 } from './ip.ts';

export const AF_UNIX = 1;
export const AF_INET = 2;
export const AF_INET6 = 23;
export const AF_HYPERV = 34;
export const AF_VSOCK = 40;

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

const utf8 = new TextDecoder();

/** Lowercase GUID text of the 16 bytes at `at` (Data1..3 little-endian, Data4 as-is). */
function guidText(b: Uint8Array, at: number): string {
	const h = (i: number) => b[at + i]!.toString(16).padStart(2, '0');
	const run = (...is: number[]) => is.map(h).join('');
	return `${run(3, 2, 1, 0)}-${run(5, 4)}-${run(7, 6)}-${run(8, 9)}-${run(10, 11, 12, 13, 14, 15)}`;
}

const u32le = (b: Uint8Array, at: number) =>
	(b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

/**
 * The families that are not IP: AF_UNIX (sockaddr_un: the path, NUL-terminated, '@' for an
 * abstract name), AF_HYPERV (SOCKADDR_HV: reserved u16, VmId, ServiceId), AF_VSOCK (sockaddr_vm:
 * reserved u16, port u32le, cid u32le); null for any other.
 */
function otherFamily(
	b: Uint8Array,
	at: number,
	length: number,
	family: number,
): SocketAddress | null {
	if (family === AF_UNIX) {
		const body = b.subarray(at + 2, at + length);
		const abstract = body.length > 1 && body[0] === 0;
		const bytes = abstract ? body.subarray(1) : body;
		const end = bytes.indexOf(0);
		const path = utf8.decode(end < 0 ? bytes : bytes.subarray(0, end));
		const address = abstract ? `@${path}` : path;
		return { family, address, port: 0, text: address ? `unix:${address}` : 'unix: (unnamed)' };
	}
	if (family === AF_HYPERV && length >= 36) {
		const vm = guidText(b, at + 4);
		const service = guidText(b, at + 20);
		return { family, address: `${vm}/${service}`, port: 0, text: `VM ${vm} service ${service}` };
	}
	if (family === AF_VSOCK && length >= 12) {
		const port = u32le(b, at + 4);
		const cid = u32le(b, at + 8);
		return { family, address: String(cid), port, text: `vsock ${cid}:${port}` };
	}
	return null;
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
	const other = otherFamily(b, at, length, family);
	if (other) return other;
	const raw = Array.from(b.subarray(at + 2, at + length), (x) => x.toString(16).padStart(2, '0'));
	return { family, address: raw.join(''), port: 0, text: `family ${family}: ${raw.join('')}` };
}
