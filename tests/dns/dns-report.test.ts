// The DNS view's report over a trace written with the test writer: every lookup with its process,
// status and time to answer, one row per name, failures by status, the sockets that used each
// answer, and a finding for a name no lookup resolved. Expected figures come from the script.
import { describe, expect, it } from 'vitest';
import { dnsStatus } from '../../web/src/dns/dns-status.ts';
import { findingsOf } from '../../web/src/sockets/findings.ts';
import { buildDnsTrace, CONNS, EDGE, LOOKUPS, NAME_ERROR, SYNC } from '../builders/dns-lookups.ts';
import { trackBytes } from '../sockets/track.ts';

describe('the DNS report', async () => {
	const { tracked, viaJson } = await trackBytes(buildDnsTrace().file.bytes);
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
