// Provider GUIDs seen in the trace, interned so that records carry a small index.
import { MAX_PROVIDERS } from './memory-map';
import { PROVIDERS } from './memory-map';
import {
	PROVIDER_AFD,
	PROVIDER_AFD_GUID_HI,
	PROVIDER_AFD_GUID_LO,
	PROVIDER_CODES,
	PROVIDER_COUNT,
	PROVIDER_GUIDS_HI,
	PROVIDER_GUIDS_LO,
	PROVIDER_PARTIAL,
} from './generated/event-layouts';

export const NO_PROVIDER: u32 = 0xffff;

let count: u32 = 0;
let lastIndex: u32 = 0;

export function providerCount(): u32 {
	return count;
}

export function resetProviders(): void {
	count = 0;
	lastIndex = 0;
}

/** Index of the GUID at p in the provider table, adding it when new; NO_PROVIDER when full. */
export function internGuid(p: usize): u32 {
	const lo = load<u64>(p);
	const hi = load<u64>(p + 8);
	if (lastIndex < count) {
		const q = PROVIDERS + <usize>lastIndex * 16;
		if (load<u64>(q) == lo && load<u64>(q + 8) == hi) return lastIndex;
	}
	for (let i: u32 = 0; i < count; i++) {
		const q = PROVIDERS + <usize>i * 16;
		if (load<u64>(q) == lo && load<u64>(q + 8) == hi) {
			lastIndex = i;
			return i;
		}
	}
	if (count >= MAX_PROVIDERS) return NO_PROVIDER;
	const q = PROVIDERS + <usize>count * 16;
	store<u64>(q, lo);
	store<u64>(q + 8, hi);
	lastIndex = count;
	return count++;
}

/** The schema provider code (AFD, WS2HELP, DNS-Client, TCPIP, NameResolution) of the GUID at p, or 0. */
export function knownProvider(p: usize): u32 {
	const lo = load<u64>(p);
	const hi = load<u64>(p + 8);
	// AFD first: it is most of a Winsock trace.
	if (lo == PROVIDER_AFD_GUID_LO && hi == PROVIDER_AFD_GUID_HI) return PROVIDER_AFD;
	for (let i = 1; i < PROVIDER_COUNT; i++)
		if (lo == unchecked(PROVIDER_GUIDS_LO[i]) && hi == unchecked(PROVIDER_GUIDS_HI[i]))
			return <u32>unchecked(PROVIDER_CODES[i]);
	return 0;
}

/** Whether provider `index` (interned) is Microsoft-Windows-Winsock-AFD. */
export function isAfd(index: u32): bool {
	if (index >= count) return false;
	const q = PROVIDERS + <usize>index * 16;
	return load<u64>(q) == PROVIDER_AFD_GUID_LO && load<u64>(q + 8) == PROVIDER_AFD_GUID_HI;
}

/** Whether only some events of the provider have layouts (the others are left raw). */
export function partialProvider(code: u32): bool {
	for (let i = 0; i < PROVIDER_COUNT; i++)
		if (<u32>unchecked(PROVIDER_CODES[i]) == code) return unchecked(PROVIDER_PARTIAL[i]) != 0;
	return false;
}
