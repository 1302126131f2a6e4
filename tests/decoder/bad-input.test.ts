// Damaged and foreign files: a clear error naming what is wrong and where, never a trap or hang,
// and everything before the damage still decoded.
import { describe, expect, it } from 'vitest';
import { openTrace } from '../../web/src/decoder/etl-file.ts';
import { memorySource } from '../../web/src/decoder/source.ts';
import { decodeBuffer } from '../../web/src/decoder/decoded-buffer.ts';
import { decoderModule, open, realFixture, statsOf } from './load.ts';

const hex = (n: number) => '0x' + n.toString(16);

async function openError(bytes: Uint8Array): Promise<string> {
	const r = await openTrace(memorySource(bytes), decoderModule(), 'x.etl');
	if (r.ok) throw new Error('expected an error');
	return r.error;
}

/** Byte offsets of each buffer, stepping BufferSize as the format requires. */
function bufferOffsets(bytes: Uint8Array): number[] {
	const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const out: number[] = [];
	for (let at = 0; at + 4 <= bytes.length; at += v.getUint32(at, true)) out.push(at);
	return out;
}

describe('not an ETL file', () => {
	it('empty file', async () => {
		expect(await openError(new Uint8Array(0))).toBe('not an ETL file: the file is empty');
	});
	it('text file', async () => {
		const text = new TextEncoder().encode('hello, this is not a trace\n'.repeat(10));
		expect(await openError(text)).toMatch(
			/^not an ETL file: buffer 0 at offset 0x0 has BufferSize 0x6c6c6568 \(must be/,
		);
	});
	it('tiny file', async () => {
		expect(await openError(new Uint8Array([3, 0, 0]))).toBe(
			'not an ETL file: the file has 3 bytes, fewer than one buffer header (0x48 bytes); the file starts with the bytes 03 00 00',
		);
	});
	it('BufferSize 3', async () => {
		const b = new Uint8Array(0x100);
		b[0] = 3;
		expect(await openError(b)).toMatch(
			/^not an ETL file: buffer 0 at offset 0x0 has BufferSize 0x3 /,
		);
	});
	it('a buffer that is not the header buffer', async () => {
		const b = realFixture('krabsetw-powershell-manifest').slice(8192, 16384);
		expect(await openError(b)).toMatch(/BufferType 0, not 4/);
	});
	it('random bytes', async () => {
		let seed = 7;
		const b = Uint8Array.from(
			{ length: 65536 },
			() => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24,
		);
		expect(await openError(b)).toMatch(/^not an ETL file: /);
	});
});

describe('damage inside a trace', () => {
	const name = 'krabsetw-powershell-manifest';
	const whole = realFixture(name);
	const offsets = bufferOffsets(whole);

	it('truncated at every buffer boundary: the buffers before it decode, the loss is reported', async () => {
		const full = await statsOf(whole);
		for (let k = 1; k < offsets.length; k++) {
			const cut = whole.slice(0, offsets[k]);
			const s = await statsOf(cut);
			expect(s.buffers).toBe(k);
			expect(s.records).toBeLessThanOrEqual(full.records);
			// Where: the end of the file, or (when the numbers of the buffers cut off leave gaps as
			// many as the buffers missing) the buffer after each gap.
			const counts = `the trace header says ${full.buffers} buffers were written (BuffersWritten), the file holds ${k}`;
			expect(s.damage.length).toBeGreaterThan(0);
			for (const d of s.damage) {
				expect(d.message).toContain(counts);
				if (d.message.startsWith('the file ends')) expect(d.offset).toBe(offsets[k]);
				else expect(offsets.slice(1, k)).toContain(d.offset);
			}
		}
	});

	it('truncated mid-buffer: whole records before the cut are kept', async () => {
		// Cut 16 bytes into the second record of buffer 3.
		const first = new DataView(whole.buffer).getUint16(offsets[3]! + 0x48, true);
		const at = offsets[3]! + 0x48 + ((first + 7) & ~7) + 16;
		const s = await statsOf(whole.slice(0, at));
		const before = await statsOf(whole.slice(0, offsets[3]));
		expect(s.records).toBeGreaterThan(before.records);
		expect(s.damage.map((d) => d.message)).toEqual([
			`buffer 3 at offset ${hex(offsets[3]!)} is cut short: the file ends after ${hex(at - offsets[3]!)} of its 0x2000 bytes`,
		]);
		expect(s.damage[0]!.offset).toBe(at);
	});

	for (const [label, value] of [
		['zero', 0],
		['absurd', 0xfffffff0],
	] as const) {
		it(`${label} BufferSize in buffer 5: that buffer is lost, the pass finds buffer 6 and goes on`, async () => {
			const b = whole.slice();
			new DataView(b.buffer).setUint32(offsets[5]!, value, true);
			const s = await statsOf(b);
			const full = await statsOf(whole);
			expect(s.buffers).toBe(full.buffers - 1);
			expect(s.index.buffers.map((x) => x.offset)).toEqual(offsets.filter((_, k) => k !== 5));
			expect(s.damage.map((d) => d.message)).toEqual([
				expect.stringMatching(
					new RegExp(
						`^buffer 5 at offset ${hex(offsets[5]!)} has BufferSize ${hex(value)} .*; ${offsets[6]! - offsets[5]!} bytes skipped to the next buffer header at offset ${hex(offsets[6]!)}$`,
					),
				),
			]);
			expect(s.damage[0]!.offset).toBe(offsets[5]);
			expect(s.records).toBeLessThan(full.records);
			expect(s.records).toBeGreaterThan((await statsOf(whole.slice(0, offsets[5]))).records);
		});
	}

	it('a bad Offset (end of data) with BufferSize intact: that buffer is stepped over, the rest decode', async () => {
		const b = whole.slice();
		new DataView(b.buffer).setUint32(offsets[3]! + 0x30, 0x7fffffff, true);
		const s = await statsOf(b);
		const full = await statsOf(whole);
		expect(s.buffers).toBe(full.buffers - 1);
		expect(s.damage.map((d) => d.message)).toEqual([
			`buffer 3 at offset ${hex(offsets[3]!)} has Offset (end of data) 0x7fffffff, outside its 0x2000 bytes; 8192 bytes skipped to the next buffer header at offset ${hex(offsets[4]!)}`,
		]);
		const trace = await open(whole);
		const lost = (await decodeBuffer(trace, full.index.buffers[3]!)).count;
		expect(s.records).toBe(full.records - lost);
	});

	it('a buffer repeated: the copy is dropped and reported', async () => {
		const copy = whole.slice(offsets[4]!, offsets[5]!);
		const b = new Uint8Array(whole.length + copy.length);
		b.set(whole.subarray(0, offsets[5]!));
		b.set(copy, offsets[5]!);
		b.set(whole.subarray(offsets[5]!), offsets[5]! + copy.length);
		const s = await statsOf(b);
		const full = await statsOf(whole);
		expect(s.records).toBe(full.records);
		expect(s.buffers).toBe(full.buffers);
		expect(s.damage.map((d) => d.message)).toEqual([
			expect.stringMatching(
				new RegExp(
					`^the buffer at offset ${hex(offsets[5]!)} repeats buffer 4 at offset ${hex(offsets[4]!)} \\(CPU \\d+, sequence number \\d+\\): dropped$`,
				),
			),
		]);
	});

	it('a buffer missing: the header count and the sequence gap are reported', async () => {
		const b = new Uint8Array(whole.length - (offsets[5]! - offsets[4]!));
		b.set(whole.subarray(0, offsets[4]!));
		b.set(whole.subarray(offsets[5]!), offsets[4]!);
		const s = await statsOf(b);
		const full = await statsOf(whole);
		expect(s.buffers).toBe(full.buffers - 1);
		const seq = full.index.buffers[4]!.sequence;
		// Reported at the buffer numbered after it, where that one is in the shortened file.
		const next = full.index.buffers.find((x) => x.sequence === seq + 1n)!;
		const at = next.index > 4 ? next.offset - (offsets[5]! - offsets[4]!) : next.offset;
		expect(s.damage).toEqual([
			{
				offset: at,
				message: expect.stringMatching(
					new RegExp(
						`^buffer \\d+ at offset ${hex(at)} \\(sequence number ${seq + 1n}\\): the buffer numbered ${seq} is missing, after buffer \\d+ at offset 0x[0-9a-f]+ \\(sequence number ${seq - 1n}\\); the trace header says ${full.buffers} buffers were written \\(BuffersWritten\\), the file holds ${full.buffers - 1}$`,
					),
				),
			},
		]);
	});

	it('a record whose size overruns its buffer: the rest of that buffer is skipped, later buffers decode', async () => {
		const b = whole.slice();
		const record = offsets[2]! + 0x48;
		new DataView(b.buffer).setUint16(record, 0xfff0, true);
		const s = await statsOf(b);
		const full = await statsOf(whole);
		expect(s.buffers).toBe(full.buffers);
		expect(s.records).toBeLessThan(full.records);
		expect(s.damagedBuffers).toBe(1);
		expect(s.damage[0]!.message).toMatch(
			new RegExp(
				`^buffer 2 at offset ${hex(offsets[2]!)}: record at offset ${hex(record)} has size 0xfff0`,
			),
		);
		expect(s.damage[0]!.offset).toBe(record);
	});

	it('a corrupt compressed stream is reported and skipped', async () => {
		const c = realFixture('perfview-net452-x64-compressed');
		const co = bufferOffsets(c);
		const b = c.slice();
		// Garble the flag words and tokens of buffer 10's compressed data.
		for (let i = co[10]! + 0x48; i < co[11]!; i += 3) b[i] = 0xff;
		const s = await statsOf(b);
		const full = await statsOf(c);
		expect(s.buffers).toBe(full.buffers);
		expect(s.damagedBuffers).toBe(1);
		expect(s.damage[0]!.message).toMatch(
			/^buffer 10 at offset 0x[0-9a-f]+: corrupt compressed data at file offset 0x/,
		);
		expect(s.damage[0]!.offset).toBeGreaterThan(co[10]!);
		expect(s.damage[0]!.offset).toBeLessThan(co[11]!);
	});
});
