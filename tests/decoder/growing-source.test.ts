// A copy being written serves the bytes it holds already, synchronously, and the file itself the
// rest: a decoding that reads through it finds what a decoding of the whole file in memory finds,
// whichever bytes came from which.
import { describe, expect, it } from 'vitest';
import { indexBuffers, openTrace, type OpenTrace } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import {
	growingSource,
	memorySource,
	switchableSource,
	syncReader,
	type ByteSource,
} from '../../web/src/decoder/source.ts';
import { RecordOut } from '../../web/src/generated/layouts.ts';
import { asyncSource, decoderModule, open } from './load.ts';
import { cpuTrace } from './merge-traces.ts';

const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7) & 0xff);

/** The bytes as a copy written up to `written()`, its synchronous reads counted. */
function copyOf(b: Uint8Array) {
	const m = memorySource(b);
	const copy = { ...m, readInto: m.readInto!, syncReads: 0 };
	copy.readInto = (offset: number, target: Uint8Array) => {
		copy.syncReads++;
		return m.readInto!(offset, target);
	};
	return copy;
}

describe('growingSource', () => {
	it('holds only what the copy has written, and reads the rest from the file', async () => {
		let written = 1000;
		const rest = asyncSource(bytes);
		const s = growingSource(copyOf(bytes), rest, () => written);
		expect(s.holds!(0, 1000)).toBe(true);
		expect(s.holds!(900, 200)).toBe(false);
		expect(await s.read(100, 50)).toEqual(bytes.subarray(100, 150));
		expect(rest.reads).toBe(0);
		expect(await s.read(900, 200)).toEqual(bytes.subarray(900, 1100));
		expect(rest.reads).toBe(1);
		// A read running past the end holds as far as the end.
		written = bytes.length;
		expect(s.holds!(4000, 500)).toBe(true);
		expect(await s.read(4000, 500)).toEqual(bytes.subarray(4000));
		expect(rest.reads).toBe(1);
	});

	it('is read synchronously through a switchable source only where it holds the bytes', () => {
		const switchable = switchableSource(asyncSource(bytes));
		expect(syncReader(switchable, 0, 10)).toBeUndefined();
		switchable.use(growingSource(copyOf(bytes), switchable.initial, () => 2048));
		const into = new Uint8Array(16);
		syncReader(switchable, 2000, 16)!(2000, into);
		expect(into).toEqual(bytes.subarray(2000, 2016));
		expect(syncReader(switchable, 2040, 16)).toBeUndefined();
		switchable.reset();
		expect(syncReader(switchable, 0, 10)).toBeUndefined();
	});
});

/** Each record of a merge, as its time and record table entry. */
async function records(trace: OpenTrace): Promise<string[]> {
	const index = await indexBuffers(trace);
	const out: string[] = [];
	await mergeRecords(trace, index.buffers, (b, i) => {
		const at = (i * RecordOut.SIZE) >> 2;
		out.push(`${b.timeHi(i)}:${b.timeLo(i)}:${b.recordWords.subarray(at, at + 4).join(',')}`);
	});
	return out;
}

describe('a decoding reading a copy being written', () => {
	it('finds what decoding the whole file finds, the copy a little further on at every read', async () => {
		const trace = cpuTrace(3000, false);
		const expected = await records(await open(trace));
		expect(expected.length).toBeGreaterThan(3000);
		const file = asyncSource(trace);
		const dropped = switchableSource(file);
		const opened = await openTrace(dropped, decoderModule(), 'growing.etl');
		if (!opened.ok) throw new Error(opened.error);
		// The copy is 8 KiB further on after each read of the file itself; past what it has
		// written it holds zeros, which a read of bytes it does not hold would decode.
		const copied = new Uint8Array(trace.length);
		let written = 0;
		const behind: ByteSource = {
			size: file.size,
			read: (offset, length) => {
				const to = Math.min(trace.length, written + 8192);
				copied.set(trace.subarray(written, to), written);
				written = to;
				return file.read(offset, length);
			},
		};
		const copy = copyOf(copied);
		dropped.use(growingSource(copy, behind, () => written));
		const readsBefore = file.reads;
		expect(await records(opened.value)).toEqual(expected);
		// Both: some bytes were read from the copy, some from the file.
		expect(copy.syncReads).toBeGreaterThan(0);
		expect(file.reads).toBeGreaterThan(readsBefore);
	});
});
