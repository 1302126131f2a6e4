// Wireshark's own reader judges the pcapng: the real PktMon fixture's every packet, written by
// `sockscope pcapng`, read back by tshark (frame count, comments, 100 ns timestamps).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sockscope } from '../cli/run.ts';

const TSHARK = '/usr/bin/tshark';
const FIXTURE = 'tests/fixtures/real/demikernel-pktmon-compressed.etl';

describe('sockscope pcapng, read by tshark', () => {
	it('writes every PktMon packet with its comment and 100 ns timestamps', async () => {
		// CI installs tshark: a missing reader is a failure, never a skip.
		expect(existsSync(TSHARK), `${TSHARK} is missing: apt-get install -y tshark`).toBe(true);
		const dir = mkdtempSync(join(tmpdir(), 'sockscope-pcapng-'));
		try {
			const out = join(dir, 'pktmon.pcapng');
			const r = await sockscope('pcapng', '-q', '--out', out, FIXTURE);
			expect(r.code, r.stderr).toBe(0);
			const lines = await sockscope('packets', '-q', FIXTURE);
			const rows = lines.stdout
				.trim()
				.split('\n')
				.map((l) => JSON.parse(l) as Record<string, unknown>);
			const fields = execFileSync(
				TSHARK,
				[
					'-r',
					out,
					'-T',
					'fields',
					'-e',
					'frame.time_epoch',
					'-e',
					'frame.comment',
					'-e',
					'icmp.type',
				],
				{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
			)
				.trim()
				.split('\n')
				.map((l) => l.split('\t'));
			expect(fields).toHaveLength(rows.length);
			expect(rows.length).toBe(114);
			fields.forEach(([epoch, comment, icmp], k) => {
				// 100 ns kept: the epoch's seventh decimal is the FILETIME's last digit.
				const iso = rows[k]!.time as string;
				expect(epoch!.slice(-9, -2)).toBe(iso.slice(20, 27));
				expect(comment!.split(/\\n|\n/)[0]).toBe('pid=unknown');
				expect(icmp).toBe(rows[k]!.info === 'type 8 code 0' ? '8' : '0');
			});
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
