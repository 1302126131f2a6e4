// Per-trace tables the columns point into: strings and event types. Both only grow, and each
// chunk records what it added, so a trace can be rebuilt (or an import resumed) chunk by chunk.
import type { EventType } from '../columns/layout.ts';

export class TraceTables {
	readonly strings: string[] = [''];
	readonly eventTypes: EventType[] = [];
	readonly #stringIndex = new Map<string, number>([['', 0]]);
	/**
	 * How many of `strings` the index holds. A stored trace's are replayed into `strings` alone,
	 * and indexed only once a string is looked up: opening a 25 M-event trace spent 0.1-0.2 s
	 * indexing 78,000 strings no one looked up.
	 */
	#indexed = 1;
	readonly #typeIndex = new Map<string, number>();
	/** EPROCESS pointer (as text) → PID, learned from create events and user-mode headers. */
	readonly processOf = new Map<string, number>();
	/** PID → image name, from process events in the trace. */
	readonly processNames = new Map<number, string>();
	/** Remote address (canonical text) → host names, from the trace's DNS answers (`host:`). */
	readonly hostNames = new Map<string, string[]>();
	#stringsMark = 1;
	#typesMark = 0;
	/** What earlier additions carried of the maps above: each chunk carries only what changed. */
	readonly #sentProcesses = new Map<string, number>();
	readonly #sentProcessNames = new Map<number, string>();
	readonly #sentHostNames = new Map<string, string[]>();

	intern(s: string): number {
		if (this.#indexed < this.strings.length) this.#indexRest();
		let i = this.#stringIndex.get(s);
		if (i === undefined) {
			i = this.strings.length;
			this.strings.push(s);
			this.#stringIndex.set(s, i);
			this.#indexed++;
		}
		return i;
	}

	#indexRest(): void {
		for (const strings = this.strings; this.#indexed < strings.length; this.#indexed++)
			this.#stringIndex.set(strings[this.#indexed]!, this.#indexed);
	}

	/** The index of a string the table holds, or undefined. */
	indexOf(s: string): number | undefined {
		if (this.#indexed < this.strings.length) this.#indexRest();
		return this.#stringIndex.get(s);
	}

	eventType(key: string, make: () => EventType): number {
		let i = this.#typeIndex.get(key);
		if (i === undefined) {
			i = this.eventTypes.length;
			this.eventTypes.push(make());
			this.#typeIndex.set(key, i);
		}
		return i;
	}

	/**
	 * Strings and event types added since the last call, and the map entries added or changed
	 * since (what the next chunk must carry; replayed in chunk order, they make the tables again).
	 * The maps were carried whole by every chunk: their size times the chunks, cloned and stored.
	 */
	takeAdditions(): {
		strings: string[];
		eventTypes: EventType[];
		processes: [string, number][];
		processNames: [number, string][];
		hostNames: [string, string[]][];
	} {
		const strings = this.strings.slice(this.#stringsMark);
		const eventTypes = this.eventTypes.slice(this.#typesMark);
		this.#stringsMark = this.strings.length;
		this.#typesMark = this.eventTypes.length;
		return {
			strings,
			eventTypes,
			processes: changes(this.processOf, this.#sentProcesses, Object.is),
			processNames: changes(this.processNames, this.#sentProcessNames, Object.is),
			hostNames: changes(this.hostNames, this.#sentHostNames, sameList),
		};
	}

	/** Replays what a stored chunk added. */
	apply(additions: {
		strings: string[];
		eventTypes: EventType[];
		processes?: [string, number][];
		processNames?: [number, string][];
		hostNames?: [string, string[]][];
	}): void {
		// Strings a chunk added are new (additions hold each once): indexed when one is looked up.
		for (const s of additions.strings) this.strings.push(s);
		for (const t of additions.eventTypes) this.eventType(eventTypeKey(t), () => t);
		for (const [p, pid] of additions.processes ?? []) {
			this.processOf.set(p, pid);
			this.#sentProcesses.set(p, pid);
		}
		for (const [pid, name] of additions.processNames ?? []) {
			this.processNames.set(pid, name);
			this.#sentProcessNames.set(pid, name);
		}
		for (const [address, names] of additions.hostNames ?? []) {
			this.hostNames.set(address, names);
			this.#sentHostNames.set(address, names);
		}
		this.#stringsMark = this.strings.length;
		this.#typesMark = this.eventTypes.length;
	}
}

export function eventTypeKey(t: {
	kind: number;
	provider: string | null;
	id: number;
	version: number;
	opcode: number;
	name: string;
}): string {
	return `${t.kind}|${t.provider}|${t.id}|${t.version}|${t.opcode}|${t.name}`;
}

/** The entries of `now` that `sent` does not hold as they are; `sent` then holds them. */
function changes<K, V>(now: Map<K, V>, sent: Map<K, V>, same: (a: V, b: V) => boolean): [K, V][] {
	const out: [K, V][] = [];
	for (const [k, v] of now) {
		const before = sent.get(k);
		if (before !== undefined && same(before, v)) continue;
		out.push([k, v]);
		sent.set(k, v);
	}
	return out;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
	return a.length === b.length && a.every((x, i) => x === b[i]);
}
