// The worker's packet service over the netsh-like capture imported into a library in Node: the
// frames rebuilt from the library's copy, a filter's count and rows, a frame's layers, a socket's
// packets and wire facts, and the pcapng piece by piece (what `sockscope pcapng --filter` writes).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { netshCaptureScenario, type CaptureScript } from '../builders/netsh-capture.ts';
import { sockscope } from '../cli/run.ts';
import { library, sampleFile, type Library } from './library-harness.ts';

let s: CaptureScript;
let lib: Library;
let id: number;

beforeAll(async () => {
	s = netshCaptureScenario();
	lib = library();
	const r = await lib.api.importFile(new File([s.bytes as BlobPart], 'netsh.etl'), () => {});
	if (!r.ok) throw new Error(r.error);
	id = r.value.id;
});

describe('the packet service', () => {
	it('answers every frame, then a filter with its rows and their owners', async () => {
		const all = await lib.api.packets(id, '', 10);
		expect(all.ok && [all.value.total, all.value.matched, all.value.problems]).toEqual([
			s.packets.length,
			s.packets.length,
			[],
		]);
		const pid = s.expected[s.roles.web]!.pid!;
		const owned = s.packets.filter((x) => x.socket !== null && s.expected[x.socket]!.pid === pid);
		const r = await lib.api.packets(id, `pid:${pid}`, 2);
		expect(r.ok && r.value.matched).toBe(owned.length);
		const rows = await lib.api.packetRows(id, `pid:${pid}`, 2, 1000);
		expect(rows.ok && rows.value.map((x) => [x.position, x.pid])).toEqual(
			owned.slice(2).map((_, k) => [k + 2, pid]),
		);
		// Rows of a filter no longer the latest are refused.
		expect((await lib.api.packetRows(id, '', 0, 10)).ok).toBe(false);
		expect(await lib.api.packets(id, 'tcp.flagz', 1)).toMatchObject({ ok: false, code: 'filter' });
	});

	it("gives a frame's layers and bytes, and a socket's packets with its wire facts", async () => {
		const d = await lib.api.packetDetails(id, 0);
		expect(d.ok && d.value.layers.length).toBeGreaterThan(0);
		expect(d.ok && d.value.bytes.length).toBe(s.packets[0]!.length);
		const key = s.expected[s.roles.refused]!.key;
		const w = await lib.api.socketPackets(id, key);
		const owned = s.packets.filter((x) => x.socket === s.roles.refused);
		expect(w.ok && [w.value.captured, w.value.total, w.value.wire?.resetByPeer]).toEqual([
			true,
			owned.length,
			true,
		]);
	});

	it('writes the pcapng the command line writes for the same filter', async () => {
		const filter = 'tcp';
		const parts: Uint8Array[] = [];
		const r = await lib.api.exportPcapng(id, { kind: 'filter', filter }, (piece) => {
			parts.push(piece.slice());
			return true;
		});
		expect(r.ok && r.value.complete).toBe(true);
		const dir = mkdtempSync(join(tmpdir(), 'sockscope-worker-pcapng-'));
		try {
			const etl = join(dir, 'netsh.etl');
			const out = join(dir, 'cli.pcapng');
			writeFileSync(etl, s.bytes);
			expect((await sockscope('pcapng', '-q', '--filter', filter, '--out', out, etl)).code).toBe(0);
			expect(Buffer.concat(parts).equals(readFileSync(out))).toBe(true);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('says a trace without a capture has no packets, and its sockets none to tell', async () => {
		const r = await lib.api.importFile(sampleFile(), () => {});
		if (!r.ok) throw new Error(r.error);
		const answer = await lib.api.packets(r.value.id, '', 10);
		expect(answer.ok && [answer.value.total, answer.value.captureEvents]).toEqual([0, 0]);
		const tracked = await lib.api.sockets(r.value.id);
		const key = tracked.ok ? tracked.value.sockets[0]!.key : '';
		const w = await lib.api.socketPackets(r.value.id, key);
		expect(w.ok && [w.value.captured, w.value.total]).toEqual([false, 0]);
	});
});
