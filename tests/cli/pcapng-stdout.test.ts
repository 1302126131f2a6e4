// `--out -` is standard output, as getopt-style tools take it: `sockscope pcapng FILE --out -`
// writes the capture to stdout, the same bytes as --out F.pcapng, and no file named "-".
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../web/src/cli/main.ts';

const FIXTURE = 'tests/fixtures/real/demikernel-pktmon-compressed.etl';

async function bytesOf(args: string[]): Promise<{ code: number; stdout: Buffer }> {
	const stdout = new PassThrough();
	const parts: Buffer[] = [];
	stdout.on('data', (d: Buffer) => parts.push(d));
	const stderr = new PassThrough();
	stderr.resume();
	const code = await main(args, { stdin: Readable.from([]), stdout, stderr });
	stdout.end();
	return { code, stdout: Buffer.concat(parts) };
}

describe('sockscope pcapng --out -', () => {
	it('writes the capture to standard output, byte for byte what --out F writes', async () => {
		const stray = join(process.cwd(), '-');
		expect(existsSync(stray), 'a file named "-" is left from before').toBe(false);
		const dir = mkdtempSync(join(tmpdir(), 'sockscope-stdout-'));
		try {
			const file = join(dir, 'capture.pcapng');
			expect((await bytesOf(['pcapng', '-q', FIXTURE, '--out', file])).code).toBe(0);
			const piped = await bytesOf(['pcapng', '-q', FIXTURE, '--out', '-']);
			expect(piped.code).toBe(0);
			const written = readFileSync(file);
			// A section header block first (0x0A0D0D0A), then the frames.
			expect(written.readUInt32LE(0)).toBe(0x0a0d0d0a);
			expect(written.length).toBeGreaterThan(1000);
			expect(piped.stdout.equals(written)).toBe(true);
			expect(existsSync(stray), 'wrote a file named "-"').toBe(false);
		} finally {
			rmSync(dir, { recursive: true, force: true });
			rmSync(stray, { force: true });
		}
	});
});
