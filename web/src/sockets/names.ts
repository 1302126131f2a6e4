// Host names from the trace's own lookups: DNS-Client query results (3008, 3013, 3018, 3020) and
// Winsock-NameResolution getaddrinfo results (1001, 1004), kept as a table address → answers in
// trace order, so a socket's remote address can be named by the answer in force when it was used.
import { canonicalAddress } from '../net/ip.ts';
import type { EventIndex, Ticks } from '../decoder/units.ts';

/** One successful lookup that returned an address. */
export interface NameAnswer {
	/** Record index (trace order) and ticks of the event that carried the answer. */
	readonly index: EventIndex;
	readonly ticks: Ticks;
	/** The name the application looked up. */
	readonly query: string;
	/** CNAMEs the answer passed through, in order (query → … → the addresses). */
	readonly chain: readonly string[];
}

/** The names of an address as a socket reads them. */
export interface RemoteNames {
	/** The query name of the latest answer holding the address before the bound; null when none. */
	readonly name: string | null;
	/** That answer's CNAME chain, then every other name an answer gave for the address. */
	readonly names: readonly string[];
	/** Record index of the answer `name` comes from. */
	readonly index: EventIndex | null;
}

/**
 * DNS-Client `QueryResults`: items ending in ';', IPv4 as `::ffff:a.b.c.d`, IPv6 plainly, a CNAME
 * as `type:  5 name`; other record types (`type: N …`) are skipped.
 */
export function parseQueryResults(text: string): { addresses: string[]; chain: string[] } {
	const addresses: string[] = [];
	const chain: string[] = [];
	for (const raw of text.split(';')) {
		const item = raw.trim();
		if (!item) continue;
		const typed = /^type:\s*(\d+)\s+(.*)$/.exec(item);
		if (typed) {
			if (typed[1] === '5' && typed[2]!.trim()) chain.push(typed[2]!.trim().replace(/\.$/, ''));
			continue;
		}
		const a = canonicalAddress(item);
		if (a !== null && !addresses.includes(a)) addresses.push(a);
	}
	return { addresses, chain };
}

/** getaddrinfo's `Result`: addresses separated by ';' or ',' or spaces, maybe with ports. */
export function parseGaiResult(text: string): string[] {
	const out: string[] = [];
	for (const raw of text.split(/[;,\s]+/)) {
		const a = raw ? canonicalAddress(raw) : null;
		if (a !== null && !out.includes(a)) out.push(a);
	}
	return out;
}

/** Address → the answers that held it, built as the trace is read (answers arrive in order). */
export class NameTable {
	readonly #byAddress = new Map<string, NameAnswer[]>();
	#answers = 0;

	get answers(): number {
		return this.#answers;
	}

	get size(): number {
		return this.#byAddress.size;
	}

	/** A DNS-Client answer; a failed status (≠ 0) or a name that is itself an address adds nothing. */
	dnsAnswer(index: EventIndex, ticks: Ticks, query: string, status: number, results: string): void {
		if (status !== 0) return;
		const { addresses, chain } = parseQueryResults(results);
		this.#add(index, ticks, query, chain, addresses);
	}

	/** A getaddrinfo result (NameResolution 1001/1004). */
	gaiResult(index: EventIndex, ticks: Ticks, node: string, status: number, result: string): void {
		if (status !== 0) return;
		this.#add(index, ticks, node, [], parseGaiResult(result));
	}

	#add(index: EventIndex, ticks: Ticks, query: string, chain: string[], addresses: string[]): void {
		const name = query.trim().replace(/\.$/, '');
		// IP literals resolve to themselves: no name in them.
		if (!name || canonicalAddress(name) !== null || addresses.length === 0) return;
		const answer: NameAnswer = { index, ticks, query: name, chain };
		this.#answers++;
		for (const a of addresses) {
			const list = this.#byAddress.get(a);
			if (list) list.push(answer);
			else this.#byAddress.set(a, [answer]);
		}
	}

	/** Every answer holding an address (canonical text), in trace order. */
	answersFor(address: string): readonly NameAnswer[] {
		return this.#byAddress.get(address) ?? [];
	}

	/** Address → every name given for it (for filters), each address canonical. */
	allNames(): Map<string, string[]> {
		const out = new Map<string, string[]>();
		for (const [a, list] of this.#byAddress) out.set(a, namesOf(list, null));
		return out;
	}

	/**
	 * The names of `address` for a socket that first used it at record `before`: the query name of
	 * the latest answer holding it at or before that record, and all names known for it.
	 */
	lookup(address: string | null, before: EventIndex): RemoteNames {
		const list = address === null ? undefined : this.#byAddress.get(address);
		if (!list) return { name: null, names: [], index: null };
		let chosen: NameAnswer | null = null;
		for (const a of list) if (a.index <= before) chosen = a;
		return {
			name: chosen?.query ?? null,
			names: namesOf(list, chosen),
			index: chosen?.index ?? null,
		};
	}
}

/** The chosen answer's query and chain first, then the other answers' names, each once. */
function namesOf(list: readonly NameAnswer[], chosen: NameAnswer | null): string[] {
	const out: string[] = [];
	const add = (n: string) => {
		if (!out.includes(n)) out.push(n);
	};
	if (chosen) [chosen.query, ...chosen.chain].forEach(add);
	for (const a of list) [a.query, ...a.chain].forEach(add);
	return out;
}

/** `name (address:port)` when the remote has a name, else the address as it was. */
export function namedEndpoint(name: string | null | undefined, endpoint: string | null): string {
	// i18n: data (a value the CLI prints)
	if (endpoint === null) return name ?? 'unknown peer';
	return name ? `${name} (${endpoint})` : endpoint;
}
