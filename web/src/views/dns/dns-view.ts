// The DNS panel's logic, apart from its markup: which names the list shows for the words typed
// and the "failed only" switch, the lookups of the picked name, and how a lookup is written.
import type { DnsLookupRow, DnsNameRow, DnsReport } from '../../dns/dns-report.ts';

/** Lookups listed at most at once (a trace may hold hundreds of thousands). */
export const MAX_LOOKUPS_SHOWN = 500;

/** Names whose text, process or address holds every word typed; failed ones only when asked. */
export function shownNames(
	report: DnsReport,
	words: string,
	failedOnly: boolean,
): readonly DnsNameRow[] {
	const terms = words.toLowerCase().split(/\s+/).filter(Boolean);
	return report.names.filter((n) => {
		if (failedOnly && n.failed === 0) return false;
		if (terms.length === 0) return true;
		const text = [
			n.name,
			...n.addresses,
			...n.processes.map((p) => `${p.name ?? ''} ${p.pid ?? ''}`),
			...n.statuses.map((s) => s.name),
		]
			.join(' ')
			.toLowerCase();
		return terms.every((t) => text.includes(t));
	});
}

/** The lookups of one name (case ignored), or every lookup; the first MAX_LOOKUPS_SHOWN. */
export function shownLookups(
	report: DnsReport,
	name: string | null,
): { rows: readonly DnsLookupRow[]; total: number } {
	const key = name?.toLowerCase() ?? null;
	const all =
		key === null ? report.lookups : report.lookups.filter((l) => l.name.toLowerCase() === key);
	return { rows: all.slice(0, MAX_LOOKUPS_SHOWN), total: all.length };
}

/** The filter that shows a lookup's provider in the Events panel (the lookup itself selected). */
export const DNS_EVENTS_FILTER =
	// i18n: data (a filter)
	'provider:Microsoft-Windows-DNS-Client or provider:Microsoft-Windows-Winsock-NameResolution';
