// Wireshark's own reader judges `sockscope pcapng` on the netsh-like capture
// (tests/builders/netsh-capture.ts): as many frames as the script logged, its SYNs, each frame's
// `pid=<PID> process=<image>` comment from the socket the script says owns it, its interface, and
// the 100 ns of its FILETIME in the timestamp.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { netshCaptureScenario } from '../builders/netsh-capture.ts';
import { sockscope } from '../cli/run.ts';

const TSHARK = '/usr/bin/tshark';
/** FILETIME of the Unix epoch. */
const UNIX_EPOCH = 116_444_736_000_000_000n;

function epochText(filetime: bigint): string {
	const t = filetime - UNIX_EPOCH;
	return `${t / 10_000_000n}.${(t % 10_000_000n).toString().padStart(7, '0')}`;
}

describe('sockscope pcapng of a netsh capture, read by tshark', () => {
	it('writes every frame with its owner, its interface and 100 ns timestamps', async () => {
		// CI installs tshark: a missing reader is a failure, never a skip.
		expect(existsSync(TSHARK), `${TSHARK} is missing: apt-get install -y tshark`).toBe(true);
		const script = netshCaptureScenario();
		const dir = mkdtempSync(join(tmpdir(), 'sockscope-netsh-'));
		try {
			const etl = join(dir, 'netsh.etl');
			const out = join(dir, 'netsh.pcapng');
			writeFileSync(etl, script.bytes);
			const r = await sockscope('pcapng', '-q', '--out', out, etl);
			expect(r.code, r.stderr).toBe(0);
			const rows = execFileSync(
				TSHARK,
				[
					'-r',
					out,
					'-T',
					'fields',
					'-E',
					'occurrence=f',
					'-e',
					'frame.time_epoch',
					'-e',
					'frame.comment',
					'-e',
					'frame.interface_id',
					'-e',
					'tcp.flags.syn',
					'-e',
					'tcp.flags.ack',
					'-e',
					'frame.len',
				],
				{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
			)
				.trim()
				.split('\n')
				.map((l) => l.split('\t'));
			expect(rows).toHaveLength(script.packets.length);
			const syns = rows.filter(([, , , syn, ack]) => syn === '1' && ack === '0');
			expect(syns).toHaveLength(script.packets.filter((x) => x.syn).length);
			const ifaces = new Map<number, string>();
			rows.forEach(([epoch, comment, iface, , , len], k) => {
				const x = script.packets[k]!;
				// tshark prints nanoseconds: the seven digits of 100 ns, then two zeros.
				expect(epoch).toBe(`${epochText(x.time)}00`);
				const pid = x.socket === null ? null : script.expected[x.socket]!.pid;
				const first = comment!.split(/\\n|\n/)[0];
				expect(first).toBe(
					pid === null ? 'pid=unknown' : `pid=${pid} process=${script.images.get(pid)}`,
				);
				expect(Number(len)).toBe(x.length);
				// One interface description per NDIS interface, the same for all its frames.
				const seen = ifaces.get(x.ifIndex);
				if (seen === undefined) ifaces.set(x.ifIndex, iface!);
				else expect(iface).toBe(seen);
			});
			expect(new Set(ifaces.values()).size).toBe(script.interfaces.length);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
