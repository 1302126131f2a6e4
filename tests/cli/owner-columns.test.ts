// `sockscope decode` and `export` with the events table's columns: --columns remote, owner_pid,
// owner, owner_source (the owner through the event's socket or TCP connection, from a first pass
// of the tracker), --filter owner:, and DuckDB reading the owner columns of the Parquet export.
// Expected owners come from the Windows-like script (tests/builders/windows-owners.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownerScript, SYSTEM, type OwnerScript } from '../builders/windows-owners.ts';
import { query } from '../export/duckdb.ts';
import { sockscope } from './run.ts';

const AFD = 'Microsoft-Windows-Winsock-AFD';
const TCPIP = 'Microsoft-Windows-TCPIP';

interface Line {
	provider: string | null;
	pid: number | null;
	fields: Record<string, unknown>;
}

let s: OwnerScript;
let file: string;
let dir: string;
let lines: Line[];

/** The owner the script gives a record of `decode`'s default output (null: none it knows). */
function scriptOwner(l: Line): number | null | undefined {
	if (l.provider === AFD) return s.ownerOf.get(String(l.fields['Endpoint']));
	if (l.provider === TCPIP && l.fields['LocalAddress'] === s.tcp.local) return s.tcp.pid;
	return undefined;
}

beforeAll(async () => {
	s = ownerScript();
	dir = mkdtempSync(join(tmpdir(), 'sockscope-owner-'));
	file = join(dir, 'owners.etl');
	writeFileSync(file, s.bytes);
	const whole = await sockscope('decode', file);
	expect(whole.code).toBe(0);
	lines = whole.stdout
		.trim()
		.split('\n')
		.map((l) => JSON.parse(l) as Line);
}, 60_000);

describe('decode --columns with the events table', () => {
	it("owner_pid, owner and owner_source: a completion under PID 4 is its socket's", async () => {
		const r = await sockscope(
			'decode',
			file,
			'--format',
			'csv',
			'--columns',
			'pid,Endpoint,owner_pid,owner,owner_source,remote',
		);
		expect(r.code).toBe(0);
		const [header, ...rows] = r.stdout.trim().split('\n');
		expect(header).toBe('pid,Endpoint,owner_pid,owner,owner_source,remote');
		expect(rows).toHaveLength(lines.length);
		let inSystem = 0;
		rows.forEach((row, k) => {
			const [pid, , ownerPid, owner, source] = row.split(',');
			const want = scriptOwner(lines[k]!);
			if (want === undefined || want === null) return;
			expect({ ownerPid, source }, `record ${k}`).toEqual({
				ownerPid: String(want),
				source: lines[k]!.provider === AFD ? 'socket' : 'tcpip',
			});
			if (want === s.tcp.pid) expect(owner).toBe(s.tcp.name);
			if (pid === String(SYSTEM)) inSystem++;
		});
		expect(inSystem).toBeGreaterThan(0);
	});

	it('remote is the address the filter field raddr/rport tests', async () => {
		const r = await sockscope('decode', file, '--columns', 'name,remote,raddr,rport');
		expect(r.code).toBe(0);
		const rows = r.stdout
			.trim()
			.split('\n')
			.map((l) => JSON.parse(l) as Record<string, unknown>);
		const connect = rows.find((x) => x['remote'] === '20.190.160.1:443');
		expect(connect).toMatchObject({ remote_address: '20.190.160.1', remote_port: 443 });
	});

	it('--filter owner: selects what the script says the process owns', async () => {
		const owned = lines.filter((l) => scriptOwner(l) === s.tcp.pid).length;
		const [byPid, byName] = await Promise.all([
			sockscope('decode', file, '--filter', `owner:${s.tcp.pid}`, '--columns', 'owner_pid'),
			sockscope('decode', file, '--filter', `owner:${s.tcp.name}`),
		]);
		expect(byPid.stdout.trim().split('\n')).toHaveLength(owned);
		expect(new Set(byPid.stdout.trim().split('\n'))).toEqual(
			new Set([JSON.stringify({ owner_pid: s.tcp.pid })]),
		);
		// The records themselves, as decode prints them: no owner fields added.
		const printed = byName.stdout.trim().split('\n');
		expect(printed).toHaveLength(owned);
		expect(printed.every((l) => !('owner' in JSON.parse(l)))).toBe(true);
	});
});

describe('export with owners', () => {
	it('DuckDB reads owner_pid, owner and owner_source from the Parquet events table', async () => {
		const out = join(dir, 'out');
		const r = await sockscope('export', '--format', 'parquet', '--out', out, '--quiet', file);
		expect(r.code).toBe(0);
		const rows = await query(
			`select pid, owner_pid, owner, owner_source, payload->>'Endpoint' as endpoint, provider
			 from read_parquet('${out}/events/*/*.parquet') order by index`,
		);
		expect(rows).toHaveLength(lines.length);
		let checked = 0;
		rows.forEach((row, k) => {
			const want = scriptOwner(lines[k]!);
			if (want === undefined || want === null) return;
			expect(Number(row['owner_pid']), `record ${k}`).toBe(want);
			expect(row['owner_source']).toBe(lines[k]!.provider === AFD ? 'socket' : 'tcpip');
			checked++;
		});
		expect(checked).toBeGreaterThan(0);
		const system = rows.filter(
			(x) => Number(x['pid']) === SYSTEM && x['owner_source'] === 'socket',
		);
		expect(system.length).toBeGreaterThan(0);
		expect(system.every((x) => Number(x['owner_pid']) !== SYSTEM)).toBe(true);
	});
});
