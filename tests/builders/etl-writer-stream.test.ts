// Streaming mode of the test ETL writer (sink + release + truth: false): the same records give
// the same file, byte for byte, as the in-memory mode.
import { describe, expect, it } from 'vitest';
import { firstDifference } from './bytes.ts';
import { EtlWriter, type EtlFile, type EtlWriterOptions } from './etl-writer.ts';
import { Prng } from './prng.ts';

const START = 134_178_232_135_897_932n; // 2026-03-14T09:26:53.5897932Z
const MS = 10_000n;
const WINDOW = 5n * MS;

/**
 * Adds records window by window: those of window k have times in [k, k + 3) windows and are added
 * in random order; with `release`, records before window k + 1 are released after window k.
 */
function build(w: EtlWriter, release: boolean, windows = 60, seed = 7): void {
	const rng = new Prng(seed);
	w.addHeaderRecord({ kind: 'system', hookId: 0x50, pid: 1, tid: 2, payload: new Uint8Array(48) });
	for (let k = 0; k < windows; k++) {
		const base = START + BigInt(k) * WINDOW;
		const n = rng.int(0, 40);
		for (let i = 0; i < n; i++) {
			const time = base + BigInt(rng.int(0, Number(WINDOW) * 3 - 1));
			const cpu = rng.int(0, 3);
			const ptr = rng.chance(0.2) ? 4 : 8;
			if (rng.chance(0.8)) {
				w.addAfd({
					cpu,
					time,
					pid: 4120,
					tid: 7000 + cpu,
					id: rng.chance(0.5) ? 1003 : 1004,
					pointerSize: ptr,
					values: {
						EnterExit: i & 1,
						Location: 3,
						Process: 0x8a5c5080,
						Endpoint: 0x8b000000 + i * 0x100,
						BufferCount: 1,
						Buffer: 0x1000 + i,
						BufferLength: rng.int(1, 60_000),
					},
				});
			} else {
				w.addSystem({ cpu, time, pid: 4, tid: 8, hookId: 0x0524, payload: rng.bytes(20) });
			}
			if (k === 20 && i === 0) w.markEventsLost(2, time);
		}
		if (release) w.release(base + WINDOW);
	}
}

function streamed(opts: EtlWriterOptions): { bytes: Uint8Array; file: EtlFile; chunks: number } {
	const chunks: Uint8Array[] = [];
	const w = new EtlWriter({ ...opts, truth: false, sink: (c) => chunks.push(c.slice()) });
	build(w, true);
	const file = w.finish();
	const size = chunks.reduce((n, c) => n + c.length, 0);
	const bytes = new Uint8Array(size);
	let at = 0;
	for (const c of chunks) {
		bytes.set(c, at);
		at += c.length;
	}
	expect(chunks[0]!.every((x) => x === 0)).toBe(true);
	expect(file.bytes.length).toBe(chunks[0]!.length);
	bytes.set(file.bytes, 0);
	return { bytes, file, chunks: chunks.length };
}

describe('EtlWriter streaming mode', () => {
	for (const compress of [false, true]) {
		it(`writes the same file as the in-memory mode (compress ${compress})`, () => {
			const opts: EtlWriterOptions = { cpus: 4, bufferSize: 2048, startTime: START, compress };
			const whole = new EtlWriter(opts);
			build(whole, false);
			const f = whole.finish();
			const s = streamed(opts);
			expect(s.chunks).toBe(f.buffers.length);
			expect(firstDifference(s.bytes, f.bytes)).toBeNull();
			expect(s.file.records).toEqual([]);
			expect(s.file.buffers).toEqual(f.buffers);
			expect(s.file.endTime).toBe(f.endTime);
			expect(f.buffers.some((b) => (b.flags & 0x2) !== 0)).toBe(true);
		});
	}

	it('release() keeps the truth identical in the in-memory mode', () => {
		const opts: EtlWriterOptions = { cpus: 4, bufferSize: 2048, startTime: START };
		const a = new EtlWriter(opts);
		build(a, false);
		const b = new EtlWriter(opts);
		build(b, true);
		const fa = a.finish();
		const fb = b.finish();
		expect(firstDifference(fb.bytes, fa.bytes)).toBeNull();
		expect(fb.records).toEqual(fa.records);
	});

	it('refuses records before the released time, and header records once buffers are out', () => {
		const w = new EtlWriter({ cpus: 2, bufferSize: 1024, startTime: START, sink: () => {} });
		const add = (time: bigint) =>
			w.addSystem({ cpu: 0, time, pid: 4, tid: 8, hookId: 0x0524, payload: new Uint8Array(200) });
		for (let i = 0; i < 10; i++) add(START + BigInt(i) * MS);
		w.release(START + 10n * MS);
		expect(() => add(START + 9n * MS)).toThrow(/before the released time/);
		expect(() => w.addHeaderRecord({ kind: 'system', hookId: 0x50 })).toThrow(/already written/);
		add(START + 10n * MS);
		expect(w.finish().bytes.length).toBe(1024);
	});
});
