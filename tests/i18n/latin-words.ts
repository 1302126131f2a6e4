// What may stay Latin in the Chinese page: data and names, not prose. Shared by the unit tests
// over rendered messages and tests/e2e/zh.test.ts over what the page shows.

/**
 * Latin words that are data or names: the product, protocols, identifiers Windows or Winsock
 * spell so (NTSTATUS and WSA codes, socket options, API names), units.
 */
export const DATA_WORD =
	/^(Sockscope|Windows|Winsock|TraceLogging|EPROCESS|CPU|QPC|UTC|AFD|TCP|UDP|IP|IPv4|IPv6|TCP\/IP|SYN|DNS|PID|ID|RIO|NRT|GUID|FILETIME|ETW|ETL|I\/O|Ethernet|ICMP|ARP|NDIS|PktMon|pcapng|Parquet|CSV|NDJSON|JSON|select|poll|sendto|recvfrom|sendmsg|recv|send|WSASendMsg|WSAEventSelect|TransmitPackets\/TransmitFile|TransmitPackets|TransmitFile|SOCK_[A-Z]+|STATUS_[A-Z0-9_]+|WSA[A-Z0-9_]+|SO_[A-Z]+|SD_[A-Z]+|SIO_[A-Z_]+|AFD_[A-Z0-9_]+|ms|s|MB|KB|GB|KiB|MiB|GiB|TiB|Hz|kHz|MHz|GHz|bytes?)$/;

/**
 * The Latin words in `texts` that are not data: hex, file names, host names and addresses (v4,
 * v6) cut out first.
 */
export function latinWords(texts: readonly string[], allow: readonly string[] = []): string[] {
	const out = new Set<string>();
	for (const text of texts)
		for (const w of text
			.replace(/\b0x[0-9a-f]+\b/gi, ' ')
			.replace(/\S+\.(exe|dll|etl|pcapng|json|csv|parquet)\b/gi, ' ')
			.replace(/\[?[0-9a-f]*(?::[0-9a-f]*){2,}(?:%\d+)?\]?(?::\d+)?/gi, ' ')
			.replace(/\b[a-z0-9-]+(?:\.[a-z0-9-]+)+\b/gi, ' ')
			.replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, ' ')
			.match(/[A-Za-z][A-Za-z0-9_/]*[A-Za-z0-9]|[A-Za-z]{2,}/g) ?? [])
			if (!DATA_WORD.test(w) && !allow.includes(w) && !/^[A-Z]?\d/.test(w)) out.add(w);
	return [...out];
}
