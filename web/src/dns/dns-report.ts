// The DNS view's answer: every lookup with its process, status, duration and the sockets that
// used its addresses, and one row per name (how often it was asked, by whom, how it failed).
// A pure function of the lookups, the sockets and the names the sockets were given.
import type { SocketSummary } from '../sockets/socket.ts';
import { dnsFailed, dnsStatus } from './dns-status.ts';
import type { DnsLookup, DnsSource } from './dns-log.ts';

const TICKS_PER_MS = 10_000;

export interface DnsLookupRow extends DnsLookup {
	/** Unique in the report: the record index of the completing event. */
	readonly key: string;
	readonly process: string | null;
	readonly statusName: string;
	readonly failed: boolean;
	/** From its start to its completion, when the start is logged. */
	readonly ms: number | null;
	/** Keys of the sockets whose remote name came from this answer. */
	readonly sockets: readonly string[];
}

export interface DnsNameRow {
	/** The name itself: unique in the report. */
	readonly key: string;
	readonly name: string;
	/** Lookups counted for the name (those of its most direct source, see `source`). */
	readonly lookups: number;
	readonly failed: number;
	readonly source: DnsSource;
	readonly statuses: readonly { key: string; status: number; name: string; count: number }[];
	readonly processes: readonly {
		key: string;
		pid: number | null;
		name: string | null;
		count: number;
	}[];
	readonly addresses: readonly string[];
	readonly sockets: number;
	/** Slowest and median time to an answer, when starts are logged. */
	readonly p50Ms: number | null;
	readonly maxMs: number | null;
	readonly firstTicks: number;
	readonly lastTicks: number;
	/** Every lookup of the name failed. */
	readonly neverResolved: boolean;
}

export interface DnsFailureRow {
	readonly key: string;
	readonly status: number;
	readonly name: string;
	readonly count: number;
	/** The names that failed with it, most often first. */
	readonly names: readonly string[];
}

export interface DnsReport {
	readonly lookups: readonly DnsLookupRow[];
	readonly names: readonly DnsNameRow[];
	readonly failures: readonly DnsFailureRow[];
}

/**
 * The lookup of a name that counts: an application's query logs a client event (3008), often a
 * getaddrinfo result and the DNS cache service's steps too. Counting all would count it up to
 * four times; the most direct source present for a name is the one counted.
 */
const SOURCE_RANK: Readonly<Record<DnsSource, number>> = {
	client: 0,
	getaddrinfo: 1,
	cache: 2,
	network: 3,
	wire: 4,
};

const median = (sorted: readonly number[]) =>
	sorted.length === 0 ? null : sorted[Math.floor((sorted.length - 1) / 2)]!;

/**
 * `answerOf` says which answer (record index) named each socket's remote, as the sockets were
 * named; `processName` gives a PID's image name.
 */
export function dnsReport(
	lookups: readonly DnsLookup[],
	sockets: readonly SocketSummary[],
	answerOf: (s: SocketSummary) => number | null,
	processName: (pid: number) => string | null,
): DnsReport {
	const socketsOf = new Map<number, string[]>();
	for (const s of sockets) {
		const at = answerOf(s);
		if (at === null) continue;
		const list = socketsOf.get(at);
		if (list) list.push(s.key);
		else socketsOf.set(at, [s.key]);
	}
	const rows: DnsLookupRow[] = lookups.map((l) => {
		const status = dnsStatus(l.status);
		return {
			...l,
			key: String(l.index),
			process: l.pid === null ? null : processName(l.pid),
			statusName: status.name,
			failed: dnsFailed(l.status),
			ms: l.startTicks === null ? null : (l.ticks - l.startTicks) / TICKS_PER_MS,
			sockets: socketsOf.get(l.index) ?? [],
		};
	});

	const byName = new Map<string, DnsLookupRow[]>();
	for (const r of rows) {
		const key = r.name.toLowerCase();
		const list = byName.get(key);
		if (list) list.push(r);
		else byName.set(key, [r]);
	}
	const names: DnsNameRow[] = [];
	const failures = new Map<number, { count: number; names: Map<string, number> }>();
	for (const [key, all] of byName) {
		const best = Math.min(...all.map((r) => SOURCE_RANK[r.source]));
		const counted = all.filter((r) => SOURCE_RANK[r.source] === best);
		const statuses = new Map<number, number>();
		const processes = new Map<number | null, number>();
		const addresses = new Set<string>();
		const socketKeys = new Set<string>();
		for (const r of all) for (const k of r.sockets) socketKeys.add(k);
		for (const r of counted) {
			statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
			processes.set(r.pid, (processes.get(r.pid) ?? 0) + 1);
			for (const a of r.addresses) addresses.add(a);
			if (!r.failed) continue;
			let f = failures.get(r.status);
			if (!f) failures.set(r.status, (f = { count: 0, names: new Map() }));
			f.count++;
			f.names.set(r.name, (f.names.get(r.name) ?? 0) + 1);
		}
		const ms = counted
			.map((r) => r.ms)
			.filter((x): x is number => x !== null)
			.sort((a, b) => a - b);
		const failed = counted.filter((r) => r.failed).length;
		names.push({
			key,
			name: counted[0]!.name,
			lookups: counted.length,
			failed,
			source: counted[0]!.source,
			statuses: [...statuses]
				.sort((a, b) => b[1] - a[1] || a[0] - b[0])
				.map(([status, count]) => ({
					key: String(status),
					status,
					name: dnsStatus(status).name,
					count,
				})),
			processes: [...processes]
				.sort((a, b) => b[1] - a[1] || (a[0] ?? -1) - (b[0] ?? -1))
				.map(([pid, count]) => ({
					key: String(pid),
					pid,
					name: pid === null ? null : processName(pid),
					count,
				})),
			addresses: [...addresses],
			sockets: socketKeys.size,
			p50Ms: median(ms),
			maxMs: ms.length ? ms.at(-1)! : null,
			firstTicks: Math.min(...counted.map((r) => r.ticks)),
			lastTicks: Math.max(...counted.map((r) => r.ticks)),
			neverResolved: failed === counted.length,
		});
	}
	names.sort(
		(a, b) =>
			Number(b.neverResolved) - Number(a.neverResolved) ||
			b.failed - a.failed ||
			b.lookups - a.lookups ||
			(a.key < b.key ? -1 : 1),
	);
	return {
		lookups: rows,
		names,
		failures: [...failures]
			.sort((a, b) => b[1].count - a[1].count || a[0] - b[0])
			.map(([status, f]) => ({
				key: String(status),
				status,
				name: dnsStatus(status).name,
				count: f.count,
				names: [...f.names].sort((a, b) => b[1] - a[1]).map(([n]) => n),
			})),
	};
}
