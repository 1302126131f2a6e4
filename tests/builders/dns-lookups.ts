// A trace whose DNS lookups fail and succeed (written with the test writer): two processes ask
// for names, one never resolves (DNS_ERROR_RCODE_NAME_ERROR, then a timeout), one fails once and
// then resolves, and sockets connect to the answers. The DNS report's unit test and the DNS
// panel's e2e test read their expected figures from this script.
import { Lifecycles } from './lifecycles.ts';
import { addDnsLookup, addGaiResult } from './net-payloads.ts';

export interface Lookup {
	ms: number;
	pid: number;
	name: string;
	address: string | null;
	status: number;
	/** Ticks from its 3006 to its 3008; null: a getaddrinfo result, which has no start. */
	gap: number | null;
}

export const EDGE = { pid: 6100, name: 'msedge.exe', eprocess: 0xffffa50c61000080n };
export const SYNC = { pid: 7300, name: 'OneDrive.exe', eprocess: 0xffffa50c73000080n };
export const NAME_ERROR = 9003;
export const TIMEOUT = 1460;
/** Every lookup's start (up to 2 s before its answer) falls after the trace's start. */
export const START = 2500;

export const LOOKUPS: Lookup[] = [
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
export const CONNS = [
	{ ms: 100, who: EDGE, remote: '198.51.100.7:443' },
	{ ms: 110, who: EDGE, remote: '198.51.100.7:443' },
	{ ms: 120, who: SYNC, remote: '203.0.113.20:443' },
	{ ms: 130, who: EDGE, remote: '[2001:db8::44]:443' },
];

export function buildDnsTrace() {
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
