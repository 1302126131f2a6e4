// Downloads of packets as pcapng beside the filter's: the rows picked, one socket's packets and
// one conversation's, each written by the worker in pieces and read back by Wireshark's own
// reader. Frame counts and each frame's `pid=` comment come from the netsh-like script
// (tests/builders/netsh-capture.ts); the file names say what each file holds.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pcapngFileName, type PacketPick } from '../../web/src/packets/packet-pick.ts';
import { conversationsOf } from '../../web/src/sockets/conversations.ts';
import { netshCaptureScenario, type CaptureScript } from '../builders/netsh-capture.ts';
import { query } from '../export/duckdb.ts';
import { library, sampleFile, type Library } from './library-harness.ts';

const TSHARK = '/usr/bin/tshark';
/** FILETIME of the Unix epoch. */
const UNIX_EPOCH = 116_444_736_000_000_000n;
/** Each test runs tshark a few times: time for that on a loaded machine, not a speed check. */
const SLOW = 120_000;

let s: CaptureScript;
let lib: Library;
let id: number;
let dir: string;

beforeAll(async () => {
	s = netshCaptureScenario();
	lib = library();
	const r = await lib.api.importFile(new File([s.bytes as BlobPart], 'netsh.etl'), () => {});
	if (!r.ok) throw new Error(r.error);
	id = r.value.id;
	dir = mkdtempSync(join(tmpdir(), 'sockscope-pcapng-picks-'));
});

afterAll(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The pick's pcapng as the worker writes it, read by tshark: each frame's time and comment. */
async function read(pick: PacketPick): Promise<{ frames: number; rows: string[][] }> {
	// CI installs tshark: a missing reader is a failure, never a skip.
	expect(existsSync(TSHARK), `${TSHARK} is missing: apt-get install -y tshark`).toBe(true);
	const parts: Uint8Array[] = [];
	const r = await lib.api.exportPcapng(id, pick, (piece) => {
		parts.push(piece.slice());
		return true;
	});
	if (!r.ok) throw new Error(r.error);
	expect(r.value.complete).toBe(true);
	const file = join(dir, pcapngFileName('netsh.etl', pick));
	writeFileSync(file, Buffer.concat(parts));
	const out = execFileSync(
		TSHARK,
		[
			'-r',
			file,
			'-T',
			'fields',
			'-E',
			'occurrence=f',
			'-e',
			'frame.time_epoch',
			'-e',
			'frame.comment',
		],
		{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
	).trim();
	return { frames: r.value.frames, rows: out ? out.split('\n').map((l) => l.split('\t')) : [] };
}

const epochText = (filetime: bigint) => {
	const t = filetime - UNIX_EPOCH;
	return `${t / 10_000_000n}.${(t % 10_000_000n).toString().padStart(7, '0')}00`;
};

/** The first line of a comment as the script's owner says it. */
function pidLine(socket: number | null): string {
	const pid = socket === null ? null : s.expected[socket]!.pid;
	return pid === null ? 'pid=unknown' : `pid=${pid} process=${s.images.get(pid)}`;
}

const firstLine = (comment: string | undefined) => comment!.split(/\\n|\n/)[0];

describe('pcapng downloads of a pick of packets', () => {
	it(
		"holds one socket's packets, each commented with its process",
		async () => {
			for (const role of ['web', 'refused', 'timedOut', 'dns'] as const) {
				const index = s.roles[role];
				const want = s.packets.filter((x) => x.socket === index);
				expect(want.length, role).toBeGreaterThan(0);
				const got = await read({ kind: 'socket', socket: s.expected[index]!.key });
				expect([got.frames, got.rows.length], role).toEqual([want.length, want.length]);
				got.rows.forEach(([epoch, comment], k) => {
					expect(epoch, role).toBe(epochText(want[k]!.time));
					expect(firstLine(comment), role).toBe(pidLine(index));
				});
			}
			// The loopback connection never reached the capture: a file of no frames, still readable.
			const loop = await read({ kind: 'socket', socket: s.expected[s.roles.loopback]!.key });
			expect([loop.frames, loop.rows]).toEqual([0, []]);
		},
		SLOW,
	);

	it(
		"holds a conversation's packets: its sockets' frames with its remote",
		async () => {
			const tracked = await lib.api.sockets(id);
			if (!tracked.ok) throw new Error(tracked.error);
			const conversations = conversationsOf(tracked.value.sockets);
			const web = s.expected[s.roles.web]!;
			const c = conversations.find((x) => x.sockets.includes(web.key));
			expect(c).toBeDefined();
			const members = new Set(
				c!.sockets.map((key) => s.expected.findIndex((e) => e.key === key)).filter((k) => k >= 0),
			);
			const want = s.packets.filter((x) => x.socket !== null && members.has(x.socket));
			const got = await read({
				kind: 'conversation',
				sockets: c!.sockets,
				remote: c!.remote,
				process: c!.process,
			});
			expect(got.rows.length).toBe(want.length);
			got.rows.forEach(([epoch, comment], k) => {
				expect(epoch).toBe(epochText(want[k]!.time));
				expect(firstLine(comment)).toBe(pidLine(want[k]!.socket));
			});
		},
		SLOW,
	);

	it(
		'holds the rows picked, in time order, owned or not',
		async () => {
			const all = await lib.api.packets(id, '', s.packets.length);
			if (!all.ok) throw new Error(all.error);
			// Every third frame and every unowned one, picked out of order: the file keeps the trace's.
			const chosen = (k: number) => k % 3 === 1 || s.packets[k]!.socket === null;
			const picked = all.value.head.filter((_, k) => chosen(k)).map((r) => r.number as number);
			const got = await read({ kind: 'frames', numbers: [...picked].reverse() });
			const want = s.packets.filter((_, k) => chosen(k));
			expect(got.rows.length).toBe(want.length);
			got.rows.forEach(([epoch, comment], k) => {
				expect(epoch).toBe(epochText(want[k]!.time));
				expect(firstLine(comment)).toBe(pidLine(want[k]!.socket));
			});
			expect(want.some((x) => x.socket === null)).toBe(true);
		},
		SLOW,
	);

	it("writes a pick as the export's packets table, with the script's owners (DuckDB reads it)", async () => {
		const web = s.expected[s.roles.web]!;
		const pick: PacketPick = { kind: 'filter', filter: `pid:${web.pid}` };
		const parts: Uint8Array[] = [];
		const r = await lib.api.exportPacketTable(id, pick, 'parquet', (piece) => {
			parts.push(piece.slice());
			return true;
		});
		if (!r.ok) throw new Error(r.error);
		const file = join(dir, pcapngFileName('netsh.etl', pick, 'parquet'));
		writeFileSync(file, Buffer.concat(parts));
		const want = s.packets.filter(
			(x) => x.socket !== null && s.expected[x.socket]!.pid === web.pid,
		);
		expect(r.value).toEqual({ rows: want.length, complete: true });
		const rows = await query(
			`select filetime, pid, process, socket from read_parquet('${file}') order by number`,
		);
		expect(rows).toEqual(
			want.map((x) => ({
				filetime: x.time,
				pid: BigInt(web.pid!),
				process: s.images.get(web.pid!)!,
				socket: s.expected[x.socket!]!.key,
			})),
		);
	});

	it('names each file for what it holds', () => {
		expect(pcapngFileName('netsh.etl', { kind: 'filter', filter: '' })).toBe(
			'netsh-packets.pcapng',
		);
		expect(pcapngFileName('netsh.etl', { kind: 'filter', filter: 'tcp' })).toBe(
			'netsh-packets-filtered.pcapng',
		);
		expect(pcapngFileName('a b.ETL', { kind: 'frames', numbers: [1, 2, 3] })).toBe(
			'a_b-packets-3-selected.pcapng',
		);
		const key = s.expected[s.roles.web]!.key;
		const name = pcapngFileName('netsh.etl', { kind: 'socket', socket: key });
		expect(name.startsWith('netsh-socket-')).toBe(true);
		expect(name).not.toMatch(/[\\/:*?"<>|\s]/);
		expect(
			pcapngFileName('netsh.etl', {
				kind: 'conversation',
				sockets: [key],
				remote: '[2606:4700::1]:443',
				process: 'msedge.exe',
			}),
		).toBe('netsh-conversation-msedge.exe-2606_4700_1_443.pcapng');
	});

	it('tells whether a trace has packets without reading its file', async () => {
		expect(await lib.api.hasPackets(id)).toEqual({ ok: true, value: true });
		const r = await lib.api.importFile(sampleFile(), () => {});
		if (!r.ok) throw new Error(r.error);
		expect(await lib.api.hasPackets(r.value.id)).toEqual({ ok: true, value: false });
	});

	it('refuses a filter it cannot read, naming the field', async () => {
		const r = await lib.api.exportPcapng(id, { kind: 'filter', filter: 'tcp.flagz' }, () => true);
		expect(r).toMatchObject({ ok: false, code: 'filter' });
		expect(!r.ok && r.error).toContain('tcp.flagz');
	});
});
