// `sockscope sockets` and `sockscope findings`, run as a user would, on the bundled sample.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sockscope } from './run.ts';
import type { SampleTruth } from '../builders/sample.ts';
import { CLI_PROCESS_MS } from '../timeouts.ts';

const root = join(import.meta.dirname, '../..');
const sample = join(root, 'public/sample.etl');
const truth = JSON.parse(
	readFileSync(join(root, 'tests/fixtures/sample/sample.truth.json'), 'utf8'),
) as SampleTruth;

/** Splits one CSV line (quoted cells may hold commas). */
function cells(line: string): string[] {
	const out: string[] = [];
	for (const m of line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g))
		out.push(m[1]!.startsWith('"') ? m[1]!.slice(1, -1).replace(/""/g, '"') : m[1]!);
	return out;
}

describe('sockscope sockets', { timeout: CLI_PROCESS_MS }, () => {
	it('--format csv: the issue columns, one row per socket', async () => {
		const r = await sockscope('sockets', sample, '--format', 'csv');
		expect(r.code).toBe(0);
		expect(r.stderr).toBe('');
		const [header, ...rows] = r.stdout.trim().split('\n');
		expect(header).toBe(
			'pid,process,endpoint,generation,family,type,protocol,local,remote,opened,closed,state,connect_ms,bytes_sent,bytes_received,sends,receives,error,ended_by,remote_name,remote_names',
		);
		expect(rows).toHaveLength(truth.sockets.length);
		const cols = header!.split(',');
		const byEndpoint = new Map(
			rows.map((l) => {
				const c = cells(l);
				return [c[2]!, Object.fromEntries(cols.map((k, i) => [k, c[i]!]))];
			}),
		);
		for (const t of truth.sockets) {
			const row = byEndpoint.get(t.endpoint)!;
			expect(row.pid).toBe(String(t.pid));
			expect(row.process).toBe(t.process);
			expect(row.local).toBe(t.local ?? '');
			expect(row.remote).toBe(t.remote ?? '');
			expect(row.bytes_sent).toBe(String(t.bytesSent));
			expect(row.bytes_received).toBe(String(t.bytesReceived));
			expect(row.error).toBe(t.error ?? '');
			expect(row.opened).toBe(t.openedIso ?? '');
			expect(row.closed).toBe(t.closedIso ?? '');
		}
		expect(byEndpoint.get('0xffffa50c1e2f6e10')).toMatchObject({
			family: 'AF_INET',
			type: 'SOCK_STREAM',
			protocol: 'IPPROTO_TCP',
			state: 'failed',
			connect_ms: '',
			ended_by: 'application',
		});
		expect(byEndpoint.get('0xffffa50c1e2f4010')!.state).toBe('open at end of trace');
	});

	it('ndjson (the default): one object per socket, with its story', async () => {
		const r = await sockscope('sockets', sample);
		expect(r.code).toBe(0);
		const lines = r.stdout
			.trim()
			.split('\n')
			.map((l) => JSON.parse(l));
		expect(lines).toHaveLength(truth.sockets.length);
		const legacy = lines.find((l) => l.endpoint === '0x8b2d7e08');
		expect(legacy).toMatchObject({
			pid: 2222,
			process: 'legacyapp.exe',
			generation: 0,
			state: 'closed',
			ended_by: 'application',
			bytes_sent: 1130,
			bytes_received: 20732,
			key: '0x8b2d7e08#0',
			origin: 'created',
		});
		expect(legacy.connect_ms).toBeGreaterThan(90);
		// Added keys: how the PID was learnt, and a datagram socket's remotes.
		expect(legacy.pid_source).toBe('create');
		const dns = truth.sockets.find((s) => s.origin === 'before-trace')!;
		const row = lines.find((l) => l.endpoint === dns.endpoint);
		expect(row).toMatchObject({ pid: dns.pid, pid_source: 'process-map', opened: null });
		expect(
			row.peers.map((p: { remote: string; bytes_sent: number; bytes_received: number }) => ({
				remote: p.remote,
				bytesSent: p.bytes_sent,
				bytesReceived: p.bytes_received,
			})),
		).toEqual(dns.peers);
		expect(legacy.story).toMatch(
			/^legacyapp\.exe \(PID 2222\) connected to 93\.184\.216\.34:80 in/,
		);
	});
});

describe('sockscope findings', { timeout: CLI_PROCESS_MS }, () => {
	it('--json: findings with counts, explanations, sockets and event indexes', async () => {
		const r = await sockscope('findings', sample, '--json');
		expect(r.code).toBe(0);
		const out = JSON.parse(r.stdout);
		expect(out.sockets).toBe(truth.sockets.length);
		const kinds = out.findings.map((f: { kind: string }) => f.kind);
		expect(kinds).toEqual([
			'connect-refused',
			'connect-timeout',
			'datagram-dropped',
			'transport-abort',
			'open-at-end',
			'open-at-end',
		]);
		const refused = out.findings[0];
		expect(refused).toMatchObject({
			subject: 'curl.exe (PID 5200) → 10.0.0.5:8081',
			count: 1,
			sockets: ['0xffffa50c1e2f6e10#0'],
		});
		expect(refused.explanation).toMatch(/refused/);
		// The event indexes are record positions in `sockscope decode` output.
		const decoded = (await sockscope('decode', sample)).stdout.trim().split('\n');
		const exit = JSON.parse(decoded[refused.events.at(-1)]!);
		expect(exit).toMatchObject({ name: 'AfdConnectWithAddress', fields: { EnterExit: 1 } });
		expect(exit.fields.StatusName).toBe('STATUS_CONNECTION_REFUSED');
		expect(exit.fields.Endpoint).toBe('0xffffa50c1e2f6e10');
	});

	it('without --json: a readable list', async () => {
		const r = await sockscope('findings', sample);
		expect(r.code).toBe(0);
		expect(r.stdout).toContain(
			'[warning] Connections refused: curl.exe (PID 5200) → 10.0.0.5:8081 (1)',
		);
		expect(r.stdout).toContain('sockets: 0xffffa50c1e2f6e10#0');
	});

	it('usage lists the commands; bad options exit 2', async () => {
		const [sockets, findings] = await Promise.all([
			sockscope('sockets', '--help'),
			sockscope('findings', '--help'),
		]);
		expect(sockets.stdout).toContain(
			'sockscope sockets FILE [--format ndjson|csv|table] [--columns LIST]',
		);
		expect(findings.stdout).toContain('sockscope findings FILE [--json]');
		const bad = await sockscope('sockets', sample, '--format', 'xml');
		expect(bad.code).toBe(2);
	});
});
