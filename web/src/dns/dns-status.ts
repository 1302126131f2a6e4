// What a DNS query's status means: the Win32 codes DNS-Client logs (schema/dns-status.json) and
// the WSA codes getaddrinfo returns (schema/winsock-codes.json).
import { DNS_STATUS, DNS_TYPES, WSA_ERRORS } from '../generated/codes.ts';

export interface DnsStatusInfo {
	readonly value: number;
	/** DNS_ERROR_RCODE_NAME_ERROR, WSAHOST_NOT_FOUND, … or the number when unknown. */
	readonly name: string;
	readonly message: string | null;
	/** What it means for the person reading the trace, in English and Simplified Chinese. */
	readonly plain: string | null;
	readonly zh: string | null;
}

export function dnsStatus(value: number): DnsStatusInfo {
	const d = DNS_STATUS[value];
	if (d) return { value, ...d };
	const w = WSA_ERRORS[value];
	if (w) return { value, name: w.name, message: w.message, plain: null, zh: null };
	return { value, name: String(value), message: null, plain: null, zh: null };
}

/** Whether a status means the name did not resolve (0 is success; a pending query is no answer yet). */
export const dnsFailed = (status: number): boolean => status !== 0 && status !== 9506;

/** A DNS record type's name (A, AAAA, …), or its number. */
export const dnsType = (type: number | null): string =>
	type === null ? '—' : (DNS_TYPES[type] ?? `TYPE${type}`);
