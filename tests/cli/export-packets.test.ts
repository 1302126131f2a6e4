// The `packets` table of `sockscope export`, read back with DuckDB: one row per frame the script
// of the netsh-like capture logged (tests/builders/netsh-capture.ts), each with the pid, process
// and socket the script says own it, the same as `sockscope packets` joins; the real PktMon
// fixture's frames all there; a trace without a capture has an empty table.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realFixturesDir } from '../fixtures/real/sources-table.ts';
import { netshCaptureScenario, type CaptureScript } from '../builders/netsh-capture.ts';
import { query } from '../export/duckdb.ts';
import { sockscope } from './run.ts';

let dir: string;
let s: CaptureScript;
let code: number;
let stderr: string;
const pktmon = join(realFixturesDir, 'demikernel-pktmon-compressed.etl');
const sample = join(import.meta.dirname, '../../public/sample.etl');

const packets = (stem: string) =>
	`read_parquet('${dir}/out/packets/*/*.parquet', hive_partitioning = true) where trace = '${stem}'`;

beforeAll(async () => {
	s = netshCaptureScenario();
	dir = mkdtempSync(join(tmpdir(), 'sockscope-export-packets-'));
	writeFileSync(join(dir, 'netsh.etl'), s.bytes);
	({ code, stderr } = await sockscope(
		'export',
		'--format',
		'parquet',
		'--out',
		join(dir, 'out'),
		join(dir, 'netsh.etl'),
		pktmon,
		sample,
	));
}, 120_000);

afterAll(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `sockscope packets --format ndjson` of a file: the join's rows. */
async function joined(file: string): Promise<Record<string, unknown>[]> {
	const r = await sockscope('packets', '-q', '--format', 'ndjson', file);
	expect(r.code, r.stderr).toBe(0);
	return r.stdout
		.trim()
		.split('\n')
		.filter(Boolean)
		.map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('the packets table of sockscope export', () => {
	it('holds every scripted frame with the owner the script says', async () => {
		expect(code, stderr).toBe(0);
		expect(stderr).toContain(`${s.packets.length} packets`);
		const rows = await query(
			`select number, filetime, pid, process, socket, reason, direction from ${packets('netsh')} order by number`,
		);
		expect(rows).toHaveLength(s.packets.length);
		rows.forEach((r, k) => {
			const x = s.packets[k]!;
			const e = x.socket === null ? null : s.expected[x.socket]!;
			expect(r, `frame ${k}`).toEqual({
				number: BigInt(k),
				filetime: x.time,
				pid: e ? BigInt(e.pid!) : null,
				process: e ? s.images.get(e.pid!)! : null,
				socket: e ? e.key : null,
				reason: x.unowned,
				direction: x.direction,
			});
		});
	});

	it("has the join's pid, process and socket for every frame, as `sockscope packets`", async () => {
		for (const [stem, file] of [
			['netsh', join(dir, 'netsh.etl')],
			['demikernel-pktmon-compressed', pktmon],
		] as const) {
			const want = await joined(file);
			expect(want.length, stem).toBeGreaterThan(0);
			const got = await query(
				`select number, pid, process, socket, protocol, src, dst, length from ${packets(stem)} order by number`,
			);
			expect(
				got.map((r) => ({
					...r,
					number: Number(r.number),
					pid: r.pid === null ? null : Number(r.pid),
					length: Number(r.length),
				})),
				stem,
			).toEqual(
				want.map((r) => ({
					number: r.number,
					pid: r.pid,
					process: r.process,
					socket: r.socket,
					protocol: r.protocol,
					src: r.src,
					dst: r.dst,
					length: r.length,
				})),
			);
		}
	});

	it('writes an empty packets table for a trace without a capture', async () => {
		const [r] = await query(`select count(*) as n from ${packets('sample')}`);
		expect(r!.n).toBe(0n);
		expect(stderr).toMatch(/sample\.etl → trace=sample: .* 0 packets/);
	});
});
