// The packet statistics of the netsh-like capture (tests/builders/netsh-capture.ts): the protocol
// hierarchy is Wireshark's own (tshark -z io,phs over the same frames as pcapng, cut down to the
// protocols Sockscope names), each row's filter keeps exactly its frames, and the top talkers'
// frames and bytes in and out are what the script had each process's sockets send and receive,
// the unowned frames by the reason the script gives.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { compilePacketFilter } from '../../web/src/packets/packet-filter.ts';
import { pcapngBlocks, socketNames } from '../../web/src/packets/pcapng-file.ts';
import { packetStatistics, type PacketStatistics } from '../../web/src/packets/packet-stats.ts';
import { trackPackets, type TracePackets } from '../../web/src/packets/track-packets.ts';
import { netshCaptureScenario, type CaptureScript } from '../builders/netsh-capture.ts';
import { open } from '../decoder/load.ts';

const TSHARK = '/usr/bin/tshark';
/** tshark's names of the protocols the hierarchy counts (the others are passed through). */
const NAMES: Record<string, string> = {
	eth: 'Ethernet',
	arp: 'ARP',
	ip: 'IPv4',
	ipv6: 'IPv6',
	tcp: 'TCP',
	udp: 'UDP',
	icmp: 'ICMP',
	icmpv6: 'ICMPv6',
	dns: 'DNS',
};

let s: CaptureScript;
let p: TracePackets;
let stats: PacketStatistics;

beforeAll(async () => {
	s = netshCaptureScenario();
	const trace = await open(s.bytes);
	p = await trackPackets(trace, (await indexBuffers(trace)).buffers);
	stats = packetStatistics(p.frames, p.owners);
});

/** tshark's protocol hierarchy of a pcapng, path → frames and bytes, in Sockscope's names. */
function wiresharkHierarchy(file: string): Map<string, { frames: number; bytes: number }> {
	const out = execFileSync(TSHARK, ['-r', file, '-q', '-z', 'io,phs'], {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'ignore'],
	});
	const found = new Map<string, { frames: number; bytes: number }>();
	const stack: { depth: number; path: string[] }[] = [{ depth: -1, path: [] }];
	for (const line of out.split('\n')) {
		const m = /^( *)(\S+)\s+frames:(\d+) bytes:(\d+)/.exec(line);
		if (!m) continue;
		const depth = m[1]!.length / 2;
		while (stack.at(-1)!.depth >= depth) stack.pop();
		const parent = stack.at(-1)!.path;
		const name = NAMES[m[2]!];
		const path = name ? [...parent, name] : parent;
		stack.push({ depth, path });
		if (!name) continue;
		const key = path.join('/');
		const had = found.get(key) ?? { frames: 0, bytes: 0 };
		found.set(key, { frames: had.frames + Number(m[3]), bytes: had.bytes + Number(m[4]) });
	}
	return found;
}

describe('packet statistics', () => {
	it("has Wireshark's protocol hierarchy, frames and bytes", () => {
		expect(existsSync(TSHARK), `${TSHARK} is missing: apt-get install -y tshark`).toBe(true);
		const dir = mkdtempSync(join(tmpdir(), 'sockscope-phs-'));
		try {
			const file = join(dir, 'netsh.pcapng');
			writeFileSync(
				file,
				Buffer.concat([...pcapngBlocks(p, socketNames(p.tracked.sockets), null)]),
			);
			const want = wiresharkHierarchy(file);
			expect(want.size).toBeGreaterThan(5);
			expect(
				new Map(stats.protocols.map((r) => [r.key, { frames: r.frames, bytes: r.bytes }])),
			).toEqual(want);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
		expect(stats.frames).toBe(s.packets.length);
		expect(stats.bytes).toBe(s.packets.reduce((n, x) => n + x.length, 0));
		// Each row comes right after the one that carries it.
		for (const r of stats.protocols.filter((x) => x.depth > 0)) {
			const parent = r.key.split('/').slice(0, -1).join('/');
			const at = stats.protocols.findIndex((x) => x.key === parent);
			expect(at, r.key).toBeGreaterThanOrEqual(0);
			expect(stats.protocols.indexOf(r)).toBeGreaterThan(at);
		}
	});

	it('gives each row the filter that keeps just its frames', () => {
		const names = socketNames(p.tracked.sockets);
		const keeps = (filter: string) => {
			const test = compilePacketFilter(filter);
			return p.frames.filter((f, k) => test(f, p.owners[k]!, names)).length;
		};
		for (const r of stats.protocols) expect(keeps(r.filter), r.key).toBe(r.frames);
		for (const r of stats.talkers) expect(keeps(r.filter), r.key).toBe(r.frames);
	});

	it("counts each process's frames and bytes in and out, then the unowned by reason", () => {
		const want = new Map<string, Record<string, number | string | null>>();
		for (const x of s.packets) {
			const pid = x.socket === null ? null : s.expected[x.socket]!.pid!;
			const key = pid === null ? `unowned:${x.unowned}` : `pid:${pid}`;
			const t = want.get(key) ?? {
				pid,
				process: pid === null ? null : s.images.get(pid)!,
				reason: pid === null ? x.unowned : null,
				frames: 0,
				bytes: 0,
				framesIn: 0,
				bytesIn: 0,
				framesOut: 0,
				bytesOut: 0,
			};
			(t.frames as number)++;
			(t.bytes as number) += x.length;
			if (x.direction === 'in') {
				(t.framesIn as number)++;
				(t.bytesIn as number) += x.length;
			} else {
				(t.framesOut as number)++;
				(t.bytesOut as number) += x.length;
			}
			want.set(key, t);
		}
		const got = new Map(stats.talkers.map(({ key, filter: _, ...t }) => [key, t]));
		expect(got).toEqual(want);
		// The processes first, busiest first; the unowned after them.
		const owned = stats.talkers.filter((t) => t.pid !== null);
		expect(stats.talkers.slice(0, owned.length)).toEqual(owned);
		expect(owned.map((t) => t.bytes)).toEqual(owned.map((t) => t.bytes).sort((a, b) => b - a));
	});

	it('is empty for no frames', () => {
		expect(packetStatistics([], [])).toEqual({ frames: 0, bytes: 0, protocols: [], talkers: [] });
	});
});
