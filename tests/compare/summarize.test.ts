// A trace's pairs and their figures, from the sockets the tracker rebuilds: the same whether the
// sockets stream by (the command line) or come stored (the page), with every lookup's status as
// the DNS panel's report counts and names it.
import { describe, expect, it } from 'vitest';
import { dnsFigures, summarizeTracked, spread } from '../../web/src/compare/summarize.ts';
import { DNS_OK } from '../../web/src/compare/summary.ts';
import type { DnsReport } from '../../web/src/dns/dns-report.ts';
import { dnsStatus } from '../../web/src/dns/dns-status.ts';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { trackTrace } from '../../web/src/sockets/track-trace.ts';
import { Lifecycles, SOCK_DGRAM, STATUS_CONNECTION_REFUSED } from '../builders/lifecycles.ts';
import { addDnsLookup } from '../builders/net-payloads.ts';
import { open } from '../decoder/load.ts';
import { summaryOf } from './summary-of.ts';
import { DNS_NAME_ERROR } from './workload.ts';

/** The scenario's lookups: names answered, and names that fail with DNS_NAME_ERROR. */
const ANSWERED = { 'api.contoso.com': 1 };
const FAILING = { 'gone.contoso.com': 2 };

async function scenario() {
	const lc = new Lifecycles({ families: 'modern' });
	const app = lc.process({ pid: 3000, name: 'App.exe', eprocess: 0xffffa50c44440080n });
	const srv = lc.process({ pid: 3100, name: 'srv.exe', eprocess: 0xffffa50c55550080n });
	const at = (ms: number) => ({ time: lc.at(ms), pid: app.pid });
	addDnsLookup(lc.w, at(5), 'api.contoso.com', [{ address: '10.1.0.10' }]);
	let ms = 6;
	for (const [name, n] of Object.entries(FAILING))
		for (let k = 0; k < n; k++) addDnsLookup(lc.w, at(ms++), name, [], { status: DNS_NAME_ERROR });
	const latencies = [12, 30, 18];
	latencies.forEach((ms, k) =>
		lc
			.socket(app, { at: 10 + k * 50 })
			.bind(`10.0.0.5:${50000 + k}`)
			.connect('10.1.0.10:443', { ms })
			.send(100 + k)
			.recv(1000)
			.close(),
	);
	lc.socket(app, { at: 200 }).bind('10.0.0.5:50010').connect('10.1.0.10:443', {
		status: STATUS_CONNECTION_REFUSED,
	});
	// Left open at the end; an unnamed remote.
	lc.socket(app, { at: 210 }).bind('10.0.0.5:50011').connect('192.168.5.5:8080', { ms: 2 });
	const u = lc.socket(app, { at: 220, type: SOCK_DGRAM }).bind('0.0.0.0:53000');
	u.sendto('10.0.0.53:53', 40).recvfrom('10.0.0.53:53', 90).drop('10.0.0.53:53', 90, 2).close();
	const l = lc.socket(srv, { at: 1 }).bind('0.0.0.0:8443').listen();
	l.accept('10.2.0.7:50123').recv(10).close();
	l.accept('10.2.0.8:50999').recv(20).close();
	return lc.finish().file.bytes;
}

describe('trace summary', () => {
	it('pairs: image, protocol, remote by name (else address) and port, servers by listening port', async () => {
		const s = await summaryOf(await scenario());
		const pair = (remote: string) => s.pairs.find((p) => p.remote === remote)!;
		expect(s.pairs.map((p) => `${p.process}|${p.protocol}|${p.remote}`).sort()).toEqual([
			'App.exe|TCP|192.168.5.5:8080',
			'App.exe|TCP|api.contoso.com:443',
			'App.exe|UDP|10.0.0.53:53',
			'srv.exe|TCP|listening :8443',
		]);
		expect(pair('api.contoso.com:443').key).toBe('app.exe|tcp|api.contoso.com:443');
		expect(pair('api.contoso.com:443').figures).toMatchObject({
			connections: 4,
			connected: 3,
			failures: { STATUS_CONNECTION_REFUSED: 1 },
			latency: { count: 3, min: 12, max: 30, p50: 18, p90: 30 },
			latencySample: [12, 18, 30],
			bytesSent: 303,
			bytesReceived: 3000,
			closed: 3,
			open: 0,
			dns: { ok: ANSWERED['api.contoso.com'] },
			remotes: ['10.1.0.10:443'],
		});
		expect(pair('192.168.5.5:8080').figures).toMatchObject({ connections: 1, open: 1 });
		expect(pair('10.0.0.53:53').figures).toMatchObject({
			datagramsSent: 1,
			datagramsReceived: 1,
			datagramsDropped: 1,
			dropReasons: { 'Insufficient local buffer space': 1 },
		});
		expect(pair('listening :8443').figures).toMatchObject({
			listening: 1,
			connections: 2,
			connected: 2,
			bytesReceived: 30,
		});
		// Failed lookups are kept by name, even with no socket to name, their status named from the
		// generated DNS status table as the DNS panel names it.
		const failed = dnsStatus(DNS_NAME_ERROR).name;
		expect(failed).toBe('DNS_ERROR_RCODE_NAME_ERROR');
		for (const [name, n] of Object.entries(FAILING)) expect(s.dns[name]).toEqual({ [failed]: n });
	});

	it('the stored sockets (the page) give the same summary as the streamed ones (the CLI)', async () => {
		const bytes = await scenario();
		const trace = await open(bytes);
		const tracked = await trackTrace(trace, (await indexBuffers(trace)).buffers);
		expect(summarizeTracked('trace.etl', tracked)).toEqual(await summaryOf(bytes));
	});

	it('a latency sample past its cap keeps its spread', () => {
		const sorted = Array.from({ length: 10 }, (_, k) => k);
		expect(spread(sorted, 4)).toEqual([0, 3, 6, 9]);
		expect(spread(sorted, 20)).toEqual(sorted);
	});
});

describe("a pair's DNS figures", () => {
	it('count answers and failures by status, and leave a pending query out, as the DNS panel does', () => {
		const row = (statuses: { status: number; count: number }[]) => ({
			key: 'api.contoso.com',
			statuses: statuses.map((s) => ({
				...s,
				key: String(s.status),
				name: dnsStatus(s.status).name,
			})),
		});
		const report = {
			names: [
				row([
					{ status: 0, count: 3 },
					{ status: DNS_NAME_ERROR, count: 2 },
					{ status: 9506, count: 4 },
				]),
			],
		} as unknown as DnsReport;
		expect(dnsFigures(report)).toEqual({
			'api.contoso.com': { [DNS_OK]: 3, [dnsStatus(DNS_NAME_ERROR).name]: 2 },
		});
		expect(dnsFigures(null)).toEqual({});
	});
});
