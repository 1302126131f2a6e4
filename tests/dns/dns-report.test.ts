// The DNS view's report over a trace written with the test writer: every lookup with its process,
// status and time to answer, one row per name, failures by status, the sockets that used each
// answer, and a finding for a name no lookup resolved. Expected figures come from the script.
import { describe, expect, it } from 'vitest';
import { dnsStatus } from '../../web/src/dns/dns-status.ts';
import { findingsOf } from '../../web/src/sockets/findings.ts';
import { Lifecycles } from '../builders/lifecycles.ts';
import { addDnsLookup, addGaiResult } from '../builders/net-payloads.ts';
import { trackBytes } from '../sockets/track.ts';

interface Lookup {
	ms: number;
	pid: number;
	name: string;
	address: string | null;
	status: number;
	/** Ticks from its 3006 to its 3008; null: a getaddrinfo result, which has no start. */
	gap: number | null;
}

const EDGE = { pid: 6100, name: 'msedge.exe', eprocess: 0xffffa50c61000080n };
const SYNC = { pid: 7300, name: 'OneDrive.exe', eprocess: 0xffffa50c73000080n };
const NAME_ERROR = 9003;
const TIMEOUT = 1460;
/** Every lookup's start (up to 2 s before its answer) falls after the trace's start. */
const START = 2500;

const LOOKUPS: Lookup[] = [
	{
		ms: 10,
		pid: EDGE.pid,
		name: 'www.example.com',
		address: '198.51.100.7',
		status: 0,
		gap: 150_000,
	},
	// Asked three times by two processes, never resolved: the finding's name.
	{ ms: 20, pid: EDGE.pid, name: 'typo.example', address: null, status: NAME_ERROR, gap: 40_000 },
	{ ms: 25, pid: SYNC.pid, name: 'typo.example', address: null, status: NAME_ERROR, gap: 30_000 },
	{ ms: 30, pid: EDGE.pid, name: 'typo.example', address: null, status: TIMEOUT, gap: 20_000_000 },
	// Failed once, then resolved: not a finding.
	{ ms: 40, pid: SYNC.pid, name: 'sync.example.net', address: null, status: TIMEOUT, gap: 50_000 },
	{
		ms: 60,
		pid: SYNC.pid,
		name: 'sync.example.net',
		address: '203.0.113.20',
		status: 0,
		gap: 10_000,
	},
	{ ms: 70, pid: EDGE.pid, name: 'v6.example.org', address: '2001:db8::44', status: 0, gap: null },
];
/** Sockets of the script: who connects where, when. */
const CONNS = [
	{ ms: 100, who: EDGE, remote: '198.51.100.7:443' },
	{ ms: 110, who: EDGE, remote: '198.51.100.7:443' },
	{ ms: 120, who: SYNC, remote: '203.0.113.20:443' },
	{ ms: 130, who: EDGE, remote: '[2001:db8::44]:443' },
];

function build() {
	const lc = new Lifecycles({ families: 'modern' });
	const procs = new Map([EDGE, SYNC].map((p) => [p.pid, lc.process(p)]));
	for (const l of LOOKUPS) {
		// Each lookup on a thread of its own, as concurrent queries are.
		const at = { time: lc.at(START + l.ms), pid: l.pid, tid: 100 + LOOKUPS.indexOf(l) };
		const items = l.address ? [{ address: l.address }] : [];
		if (l.gap === null) addGaiResult(lc.w, at, l.name, l.address ? [l.address] : [], l.status);
		else addDnsLookup(lc.w, at, l.name, items, { status: l.status, gapTicks: BigInt(l.gap) });
	}
	for (const c of CONNS) {
		const s = lc.socket(procs.get(c.who.pid)!, { at: START + c.ms });
		s.bind('10.0.0.5:0').connect(c.remote, { ms: 5, status: 0 });
	}
	return lc.finish();
}

describe('the DNS report', async () => {
	const { tracked, viaJson } = await trackBytes(build().file.bytes);
	const dns = tracked.dns!;
	const names = new Map(dns.names.map((n) => [n.name, n]));
	const lookupNames = [...new Set(LOOKUPS.map((l) => l.name))];

	it('is the same through the decoder tables and through RecordJson objects', () => {
		expect(viaJson.dns).toEqual(dns);
	});

	it('lists every lookup with its process, status and time to answer', () => {
		expect(dns.lookups.map((l) => [l.name, l.pid, l.status, l.ms])).toEqual(
			LOOKUPS.map((l) => [l.name, l.pid, l.status, l.gap === null ? null : l.gap / 10_000]),
		);
		expect(dns.lookups.map((l) => l.process)).toEqual(
			LOOKUPS.map((l) => (l.pid === EDGE.pid ? EDGE.name : SYNC.name)),
		);
		expect(dns.lookups.filter((l) => l.failed).length).toBe(
			LOOKUPS.filter((l) => l.status !== 0).length,
		);
	});

	it('sums each name: lookups, failures, statuses, processes, addresses', () => {
		expect(dns.names.map((n) => n.name).sort()).toEqual([...lookupNames].sort());
		for (const name of lookupNames) {
			const mine = LOOKUPS.filter((l) => l.name === name);
			const row = names.get(name)!;
			expect(row.lookups, name).toBe(mine.length);
			expect(row.failed, name).toBe(mine.filter((l) => l.status !== 0).length);
			expect(row.neverResolved, name).toBe(mine.every((l) => l.status !== 0));
			expect(Object.fromEntries(row.statuses.map((s) => [s.name, s.count])), name).toEqual(
				mine.reduce<Record<string, number>>((o, l) => {
					const n = dnsStatus(l.status).name;
					o[n] = (o[n] ?? 0) + 1;
					return o;
				}, {}),
			);
			expect(row.processes.map((p) => p.pid).sort(), name).toEqual(
				[...new Set(mine.map((l) => l.pid))].sort(),
			);
			expect(row.addresses, name).toEqual(mine.flatMap((l) => (l.address ? [l.address] : [])));
		}
		// The name that never resolved comes first.
		expect(dns.names[0]!.name).toBe('typo.example');
	});

	it('names the failures by status', () => {
		expect(dnsStatus(NAME_ERROR).name).toBe('DNS_ERROR_RCODE_NAME_ERROR');
		const byStatus = Object.fromEntries(dns.failures.map((f) => [f.status, f.count]));
		const want: Record<number, number> = {};
		for (const l of LOOKUPS) if (l.status !== 0) want[l.status] = (want[l.status] ?? 0) + 1;
		expect(byStatus).toEqual(want);
	});

	it('ties each answer to the sockets that connected to its address', () => {
		for (const name of lookupNames) {
			const want = CONNS.filter((c) => {
				const l = LOOKUPS.find((x) => x.name === name && x.address && c.remote.includes(x.address));
				return l !== undefined && l.ms < c.ms;
			}).length;
			expect(names.get(name)!.sockets, name).toBe(want);
		}
		const used = dns.lookups.filter((l) => l.sockets.length > 0);
		for (const l of used)
			for (const key of l.sockets)
				expect(tracked.sockets.find((s) => s.key === key)!.remoteName).toBe(l.name);
	});

	it('finds the name that never resolved, and only it', () => {
		const found = findingsOf(tracked).filter((f) => f.kind === 'dns-failure');
		const never = lookupNames.filter((n) =>
			LOOKUPS.filter((l) => l.name === n).every((l) => l.status !== 0),
		);
		expect(found.map((f) => f.subject)).toEqual(never);
		const typo = found[0]!;
		expect(typo.count).toBe(LOOKUPS.filter((l) => l.name === 'typo.example').length);
		expect(typo.explanation).toContain('DNS_ERROR_RCODE_NAME_ERROR');
		expect(typo.explanation).toContain(`${EDGE.name} (PID ${EDGE.pid})`);
		expect(typo.explanation).toContain(`${SYNC.name} (PID ${SYNC.pid})`);
		expect(typo.events.length).toBe(typo.count);
	});
});
