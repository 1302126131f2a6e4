// Missing buffers: the trace header's BuffersWritten proves a buffer is missing, and the sequence
// numbers say where. A gap in the numbers alone is not damage: tx-win7-kernel-process has two
// (numbers a session handed out to buffers that never reached the file) and every buffer its
// header counts.
import { describe, expect, it } from 'vitest';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { describeDamage, damageFileOffset } from '../../web/src/decoder/messages.ts';
import { busyEvent } from '../builders/busy-event.ts';
import { filetimeFromIso } from '../builders/bytes.ts';
import { EtlWriter } from '../builders/etl-writer.ts';
import { bufferOffsets, setLogfile, without } from '../fixtures/hostile/cases.ts';
import { open, realFixture } from './load.ts';

/** 2 CPUs, 4 KiB buffers: a few dozen buffers numbered 1, 2, 3… in the order they were handed out. */
function trace(): Uint8Array {
	const w = new EtlWriter({ cpus: 2, bufferSize: 4096 });
	let t = filetimeFromIso('2026-03-14T09:26:54Z');
	for (let n = 0; n < 600; n++) w.addAfd(busyEvent(n, n % 2, (t += 50n), 20));
	return w.finish().bytes;
}

const hex = (n: number) => '0x' + n.toString(16);

describe('sequence gaps', () => {
	it('a buffer removed from a generated trace is reported where its number is missing', async () => {
		const bytes = trace();
		const full = await indexBuffers(await open(bytes));
		expect(full.damage).toEqual([]);
		const offsets = bufferOffsets(bytes);
		const k = 7;
		const gone = full.buffers[k]!;
		const cut = await indexBuffers(await open(without(bytes, offsets[k]!, offsets[k + 1]!)));
		expect(cut.buffers).toHaveLength(full.buffers.length - 1);
		// The buffers numbered just before and after it, where they are in the file without it.
		const place = (n: bigint) => {
			const b = full.buffers.find((x) => x.sequence === n)!;
			return b.index > k ? { index: b.index - 1, offset: b.offset - gone.size } : b;
		};
		const before = place(gone.sequence - 1n);
		const after = place(gone.sequence + 1n);
		expect(cut.damage.map(describeDamage)).toEqual([
			`buffer ${after.index} at offset ${hex(after.offset)} (sequence number ${gone.sequence + 1n}): the buffer numbered ${gone.sequence} is missing, after buffer ${before.index} at offset ${hex(before.offset)} (sequence number ${gone.sequence - 1n}); the trace header says ${full.buffers.length} buffers were written (BuffersWritten), the file holds ${full.buffers.length - 1}`,
		]);
		expect(cut.damage.map(damageFileOffset)).toEqual([after.offset]);
	});

	it('two buffers removed: the header counts them, the numbers name both', async () => {
		const bytes = trace();
		const full = await indexBuffers(await open(bytes));
		const offsets = bufferOffsets(bytes);
		// Buffers 5 and 9, the later one first so that the earlier offsets hold.
		const once = without(bytes, offsets[9]!, offsets[10]!);
		const twice = without(once, offsets[5]!, offsets[6]!);
		const cut = await indexBuffers(await open(twice));
		const missing = [full.buffers[5]!.sequence, full.buffers[9]!.sequence].sort((a, b) =>
			a < b ? -1 : 1,
		);
		const told = cut.damage.map(describeDamage);
		expect(missing[1]! - missing[0]!).toBeGreaterThan(1n);
		expect(told).toHaveLength(2);
		for (const n of missing) expect(told.join('\n')).toContain(` ${n} is missing`);
	});

	it('a gap whose buffer the header does not count is not damage', async () => {
		const bytes = trace();
		const offsets = bufferOffsets(bytes);
		const cut = without(bytes, offsets[7]!, offsets[8]!);
		setLogfile(cut, 'BuffersWritten', offsets.length - 1);
		expect((await indexBuffers(await open(cut))).damage).toEqual([]);
	});

	it('tx-win7-kernel-process: numbers 175 and 181 unused, every counted buffer there, no damage', async () => {
		const t = await open(realFixture('tx-win7-kernel-process'));
		const index = await indexBuffers(t);
		const numbers = new Set(index.buffers.map((b) => b.sequence));
		const unused: bigint[] = [];
		for (let n = 1n; n < BigInt(index.buffers.length + 2); n++) if (!numbers.has(n)) unused.push(n);
		expect(unused).toEqual([175n, 181n]);
		expect(index.buffers).toHaveLength(t.facts.buffersWritten);
		expect(index.damage).toEqual([]);
	});
});
