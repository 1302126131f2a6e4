import { describe, expect, it } from 'vitest';
import { firstDifference, guidFromBytes, ipv6Bytes, sockaddrBytes, utf16z } from './bytes.ts';
import {
	AFD_PROVIDER,
	EtlWriter,
	afdPayload,
	decompressXpress,
	tlEventSchema,
	tlProviderGuid,
	tlProviderTraits,
	ws2helpPayload,
	type EtlFile,
	type EtlWriterOptions,
	type TruthRecord,
} from './etl-writer.ts';
import { scanEtl, type ScannedBuffer } from './etl-scan.ts';
import { Prng } from './prng.ts';

const START = 134_178_232_135_897_932n; // 2026-03-14T09:26:53.5897932Z
const SEC = 10_000_000n;
const MS = 10_000n;
const GUID_A = '11111111-2222-3333-4444-555566667777';

function dv(b: Uint8Array): DataView {
	return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/** A mixed workload over several CPUs: enough to fill a few small buffers per CPU. */
function workload(opts: EtlWriterOptions, count = 400, seed = 1): EtlFile {
	const w = new EtlWriter({ cpus: 4, bufferSize: 4096, startTime: START, ...opts });
	const rng = new Prng(seed);
	let t = START + 5n * MS;
	for (let i = 0; i < count; i++) {
		t += rng.chance(0.15) ? 0n : BigInt(rng.int(1, 30_000)); // up to 3 ms; some ties
		const cpu = rng.int(0, 3);
		const ptr = rng.chance(0.3) ? 4 : 8;
		switch (i % 5) {
			case 0:
			case 1:
				w.addAfd({
					cpu,
					time: t,
					pid: 4120,
					tid: 7000 + cpu,
					id: 1003,
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
				break;
			case 2:
				w.addAfd({
					cpu,
					time: t,
					pid: 4120,
					tid: 7100,
					id: 1018,
					values: {
						EnterExit: 0,
						Location: 1,
						Process: 0xffffa50c12345080n,
						Endpoint: 0xffffa50c2a000000n + BigInt(i),
						Address: rng.chance(0.5) ? '142.250.74.78:443' : '[2607:f8b0:4004:c07::64]:443',
					},
				});
				break;
			case 3:
				w.addSystem({
					cpu,
					time: t,
					pid: 4,
					tid: 8,
					hookId: 0x0524,
					payload: rng.bytes(rng.int(0, 40)),
				});
				break;
			default:
				w.addTraceLogging({
					cpu,
					time: t,
					pid: 5200,
					tid: 5204,
					providerName: 'Sockscope.Test',
					eventName: 'Tick',
					fields: [
						{ name: 'n', type: 'uint32', value: i },
						{ name: 'msg', type: 'utf16', value: `tick ${i}` },
					],
				});
		}
	}
	return w.finish();
}

function toFiletime(f: EtlFile, raw: bigint, clock: 1 | 2 | 3, perfFreq = 10_000_000n, mhz = 3000) {
	if (clock === 2) return raw;
	if (clock === 1) return f.startTime + ((raw - f.t0) * 10_000_000n) / perfFreq;
	return f.startTime + ((raw - f.t0) * 10n) / BigInt(mhz);
}

function checkAgainstTruth(f: EtlFile, buffers: ScannedBuffer[]): void {
	const byPlace = new Map<string, TruthRecord>();
	for (const r of f.records) byPlace.set(`${r.bufferIndex}:${r.offset}`, r);
	let n = 0;
	for (const b of buffers) {
		for (const s of b.records) {
			const t = byPlace.get(`${s.bufferIndex}:${s.offset}`);
			expect(t, `record at ${s.bufferIndex}:${s.offset}`).toBeDefined();
			expect(s.size).toBe(t!.size);
			expect(s.raw).toBe(t!.raw);
			expect(s.headerType).toBe(t!.headerType);
			expect(s.kind).toBe(t!.kind === 'header' ? 'system' : t!.kind);
			expect(s.pid).toBe(t!.pid);
			expect(s.tid).toBe(t!.tid);
			expect(b.cpu).toBe(t!.cpu);
			// The payload is the tail of the record.
			expect(s.bytes.subarray(s.size - t!.payload.length)).toEqual(t!.payload);
			n++;
		}
	}
	expect(n).toBe(f.records.length);
}

describe('EtlWriter: uncompressed, 64-bit, QPC 10 MHz', () => {
	const f = workload({});
	const bufs = scanEtl(f.bytes);
	const hdr = bufs[0]!;
	const rec0 = hdr.records[0]!;
	const lf = dv(rec0.bytes);

	it('steps through buffers by BufferSize and matches BuffersWritten', () => {
		expect(bufs.length).toBe(f.buffers.length);
		expect(lf.getUint32(0x20 + 0x24, true)).toBe(bufs.length);
		expect(bufs.length).toBeGreaterThan(8);
		for (const b of bufs) {
			expect(b.bufferSize).toBe(4096);
			expect(b.offset % 8).toBe(0);
			expect(b.savedOffset).toBe(b.offset);
			expect(b.state).toBe(3);
			expect(b.flags & 0x20).toBe(0x20);
			expect(b.tail.every((x) => x === 0xff)).toBe(true);
		}
		expect(hdr.type).toBe(4);
		expect(hdr.sequence).toBe(0n);
		expect(bufs.slice(1).every((b) => b.type === 0)).toBe(true);
		expect(bufs.at(-1)!.flags & 1).toBe(1);
	});

	it('writes the logfile header record at the documented offsets', () => {
		expect(rec0.offset).toBe(0x48);
		expect(rec0.headerType).toBe(2);
		expect(rec0.bytes[3]).toBe(0xc0);
		expect(lf.getUint16(0, true)).toBe(2); // Version
		expect(lf.getUint16(6, true)).toBe(0); // HookId
		expect(rec0.raw).toBe(f.t0);
		const p = 0x20;
		expect(lf.getUint32(p + 0x00, true)).toBe(4096);
		expect([...rec0.bytes.subarray(p + 4, p + 8)]).toEqual([10, 0, 1, 5]);
		expect(lf.getUint32(p + 0x08, true)).toBe(22621);
		expect(lf.getUint32(p + 0x0c, true)).toBe(4);
		expect(lf.getBigInt64(p + 0x10, true)).toBe(f.endTime);
		expect(lf.getUint32(p + 0x20, true)).toBe(1); // LogFileMode
		expect(lf.getUint32(p + 0x2c, true)).toBe(8); // PointerSize
		expect(lf.getBigInt64(p + 0x100, true)).toBe(10_000_000n); // PerfFreq
		expect(lf.getBigInt64(p + 0x108, true)).toBe(START); // StartTime
		expect(lf.getUint32(p + 0x110, true)).toBe(1); // ReservedFlags = QPC
		const names = new TextDecoder('utf-16le').decode(rec0.bytes.subarray(p + 0x118));
		expect(names).toBe('sockscope-test\0C:\\Windows\\Temp\\sockscope-test.etl\0');
		expect(rec0.size).toBe(
			0x20 +
				0x118 +
				utf16z('sockscope-test').length +
				utf16z('C:\\Windows\\Temp\\sockscope-test.etl').length,
		);
		// EndTime = the last event time.
		expect(f.endTime).toBe(f.records.at(-1)!.time);
	});

	it('aligns records to 8 bytes with garbage (non-zero) padding', () => {
		let padded = 0;
		for (const b of bufs) {
			for (const r of b.records) {
				expect(r.offset % 8).toBe(0);
				if (r.padding.length) {
					padded++;
					expect(r.padding.every((x) => x === 0xcd)).toBe(true);
				}
			}
		}
		expect(padded).toBeGreaterThan(50);
	});

	it('stores every record as the truth says, and the clock converts back exactly', () => {
		checkAgainstTruth(f, bufs);
		for (const r of f.records) expect(toFiletime(f, r.raw, 1)).toBe(r.time);
	});

	it('keeps per-CPU buffers in time order but the file out of time order', () => {
		const seqs = bufs.slice(1).map((b) => Number(b.sequence));
		expect([...seqs].sort((a, b) => a - b)).toEqual(
			seqs.map((_, i) => i + 1).sort((a, b) => a - b),
		);
		expect(seqs).not.toEqual([...seqs].sort((a, b) => a - b));
		const firstRaw = bufs.slice(1).map((b) => b.records[0]!.raw);
		expect(firstRaw).not.toEqual([...firstRaw].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
		for (let cpu = 0; cpu < 4; cpu++) {
			const mine = bufs.filter((b) => b.index > 0 && b.cpu === cpu);
			mine.sort((a, b) => Number(a.sequence - b.sequence));
			let last = -1n;
			for (const b of mine) {
				for (const r of b.records) {
					expect(r.raw >= last).toBe(true);
					last = r.raw;
				}
				// Flush time ≥ the buffer's last record.
				expect(b.timeStamp >= b.records.at(-1)!.raw).toBe(true);
			}
		}
		// Sequence numbers follow allocation order = order of each buffer's first record.
		const byAlloc = bufs.slice(1).sort((a, b) => Number(a.sequence - b.sequence));
		for (let i = 1; i < byAlloc.length; i++) {
			expect(byAlloc[i]!.records[0]!.raw >= byAlloc[i - 1]!.records[0]!.raw).toBe(true);
		}
	});

	it('orders the truth by time, then CPU, then stream position', () => {
		expect(f.records[0]!.kind).toBe('header');
		for (let i = 1; i < f.records.length; i++) {
			const a = f.records[i - 1]!;
			const b = f.records[i]!;
			expect(a.time <= b.time).toBe(true);
			if (a.time === b.time) {
				expect(a.cpu <= b.cpu).toBe(true);
				if (a.cpu === b.cpu) expect(a.addIndex < b.addIndex).toBe(true);
			}
		}
		const ties = f.records.filter((r, i) => i > 0 && r.time === f.records[i - 1]!.time);
		expect(ties.length).toBeGreaterThan(0);
	});

	it('is deterministic', () => {
		expect(firstDifference(workload({}).bytes, f.bytes)).toBeNull();
	});
});

describe('EtlWriter: EVENT_HEADER details', () => {
	it('uses EVENT32/EVENT64 by pointer size with the right AFD payload sizes', () => {
		const w = new EtlWriter({ startTime: START });
		const values = {
			EnterExit: 1,
			Location: 7,
			Process: 0x8a5c5080,
			Endpoint: 0x8b1c2000,
			Buffer: 0,
			BufferLength: 0,
			Status: 0,
			Address: '10.0.0.5:8081',
		};
		w.addAfd({ cpu: 0, time: START + MS, pid: 1, tid: 2, id: 1018, values, pointerSize: 4 });
		w.addAfd({ cpu: 0, time: START + 2n * MS, pid: 1, tid: 2, id: 1018, values, pointerSize: 8 });
		const f = w.finish();
		const recs = scanEtl(f.bytes)[1]!.records;
		expect(recs.map((r) => r.headerType)).toEqual([0x12, 0x13]);
		// 3 pointers: 4 bytes each in EVENT32, 8 in EVENT64; SOCKADDR_IN is 16 bytes.
		expect(recs[0]!.size - 0x50).toBe(4 + 4 + 4 + 4 + 4 + 4 + 4 + 4 + 16);
		expect(recs[1]!.size - 0x50).toBe(4 + 4 + 8 + 8 + 8 + 4 + 4 + 4 + 16);
		const h = dv(recs[1]!.bytes);
		expect(guidFromBytes(recs[1]!.bytes, 0x18)).toBe(AFD_PROVIDER);
		expect([...recs[1]!.bytes.subarray(0x18, 0x28)]).toEqual([
			0x23, 0x68, 0x3c, 0xe5, 0xb8, 0x7b, 0xbb, 0x44, 0x90, 0xdc, 0x3f, 0x86, 0x09, 0x0d, 0x48,
			0xa6,
		]);
		expect(h.getUint16(0x28, true)).toBe(1018);
		expect(recs[1]!.bytes[0x2b]).toBe(16); // channel
		expect(recs[1]!.bytes[0x2c]).toBe(4); // level
		expect(recs[1]!.bytes[0x2d]).toBe(12); // opcode
		expect(h.getUint16(0x2e, true)).toBe(1018); // task
		expect(h.getBigUint64(0x30, true)).toBe(0x8000000000000004n);
		expect(h.getUint16(4, true)).toBe(0); // no ext items
	});

	it('writes extended data items in their on-disk form', () => {
		const w = new EtlWriter({ startTime: START });
		w.addEvent({
			cpu: 0,
			time: START,
			pid: 10,
			tid: 11,
			provider: GUID_A,
			id: 5,
			ext: [
				{ type: 1, data: new Uint8Array(16).fill(0xaa) },
				{ type: 0xd, data: Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8) },
				{ type: 3, data: Uint8Array.of(9, 9, 9) },
			],
			payload: Uint8Array.of(0x42, 0x43),
		});
		const f = w.finish();
		const r = scanEtl(f.bytes)[1]!.records[0]!;
		const h = dv(r.bytes);
		expect(h.getUint16(4, true)).toBe(1);
		const items: number[][] = [];
		let p = 0x50;
		for (;;) {
			const it = [0, 2, 4, 6].map((o) => h.getUint16(p + o, true));
			items.push(it);
			expect(it[0]).toBe((8 + it[3]! + 7) & ~7);
			p += it[0]!;
			if (!(it[2]! & 1)) break;
		}
		expect(items).toEqual([
			[24, 1, 1, 16],
			[16, 0xd, 1, 8],
			[16, 3, 0, 3],
		]);
		expect([...r.bytes.subarray(p)]).toEqual([0x42, 0x43]);
		expect(r.size).toBe(0x50 + 24 + 16 + 16 + 2);
		expect(f.records[1]!.ext.length).toBe(3);
	});

	it('writes TraceLogging events (channel 11, id 0, 0xC then 0xB)', () => {
		expect([...tlProviderTraits('P')]).toEqual([4, 0, 0x50, 0]);
		expect([
			...tlEventSchema('E', [
				{ name: 'a', type: 'int32', value: 1 },
				{ name: 'b', type: 'utf16', value: 'x' },
				{ name: 'c', type: 'uint32', value: 2, outType: 0x23 },
			]),
		]).toEqual([15, 0, 0, 0x45, 0, 0x61, 0, 7, 0x62, 0, 1, 0x63, 0, 0x88, 0x23]);
		expect(tlProviderGuid('System.Runtime')).toBe('49592c0f-5a05-516d-aa4b-a64e02026c89');
		const w = new EtlWriter({ startTime: START });
		w.addTraceLogging({
			cpu: 0,
			time: START,
			pid: 1,
			tid: 2,
			providerName: 'Sockscope.Test',
			eventName: 'Fields',
			fields: [
				{ name: 's', type: 'utf16', value: 'hé' },
				{ name: 'a', type: 'ansi', value: 'ab' },
				{ name: 'i', type: 'int32', value: -2 },
				{ name: 'u', type: 'uint32', value: 3 },
				{ name: 'l', type: 'int64', value: -4n },
				{ name: 'q', type: 'uint64', value: 5n },
				{ name: 'g', type: 'guid', value: GUID_A },
			],
		});
		const f = w.finish();
		const r = scanEtl(f.bytes)[1]!.records[0]!;
		expect(r.bytes[0x2b]).toBe(11);
		expect(dv(r.bytes).getUint16(0x28, true)).toBe(0);
		expect(dv(r.bytes).getUint16(0x52, true)).toBe(0xc);
		const t = f.records[1]!;
		expect(t.ext.map((e) => e.type)).toEqual([0xc, 0xb]);
		expect(t.provider).toBe(tlProviderGuid('Sockscope.Test'));
		expect(t.payload.length).toBe(6 + 3 + 4 + 4 + 8 + 8 + 16);
		expect(t.tl?.event).toBe('Fields');
	});
});

describe('EtlWriter: other record kinds', () => {
	const w = new EtlWriter({ startTime: START, cpus: 2 });
	const t = START + SEC;
	w.addSystem({ cpu: 0, time: t, pid: 4, tid: 8, hookId: 0x0301, payload: Uint8Array.of(1, 2, 3) });
	w.addCompact({ cpu: 0, time: t, pid: 5, tid: 9, hookId: 0x0524, payload: Uint8Array.of(4) });
	w.addPerfInfo({ cpu: 1, time: t, hookId: 0x0f33, payload: Uint8Array.of(5, 6), pointerSize: 4 });
	w.addClassic({ cpu: 1, time: t, pid: 6, tid: 10, guid: GUID_A, type: 11, level: 2, version: 3 });
	w.addInstance({ cpu: 1, time: t, pid: 7, tid: 11, guid: GUID_A, type: 12, instanceId: 77 });
	w.addWpp({
		cpu: 0,
		time: t + MS,
		messageNumber: 43,
		guid: GUID_A,
		pid: 4,
		tid: 0xf4,
		args: Uint8Array.of(0xee, 0xee),
	});
	w.addWpp({ cpu: 0, time: t + 2n * MS, messageNumber: 7, sequence: 99, pointerSize: 4 });
	w.addHeaderRecord({ kind: 'system', hookId: 0x50, payload: new Uint8Array(48) });
	const f = w.finish();
	const bufs = scanEtl(f.bytes);

	it('writes the fixed headers at the documented offsets', () => {
		checkAgainstTruth(f, bufs);
		const cpu0 = bufs.find((b) => b.index > 0 && b.cpu === 0)!.records;
		const cpu1 = bufs.find((b) => b.index > 0 && b.cpu === 1)!.records;
		const sys = dv(cpu0[0]!.bytes);
		expect([sys.getUint16(0, true), cpu0[0]!.bytes[2], sys.getUint16(4, true)]).toEqual([2, 2, 35]);
		expect(sys.getUint16(6, true)).toBe(0x0301);
		const compact = dv(cpu0[1]!.bytes);
		expect(cpu0[1]!.headerType).toBe(4);
		expect(compact.getUint16(4, true)).toBe(0x18 + 1);
		const perf = dv(cpu1[0]!.bytes);
		expect(cpu1[0]!.headerType).toBe(0x10);
		expect(perf.getUint16(4, true)).toBe(0x12);
		expect(perf.getBigInt64(8, true)).toBe(f.records.find((r) => r.kind === 'perfinfo')!.raw);
		const classic = cpu1[1]!;
		expect(classic.headerType).toBe(0x14);
		expect([...classic.bytes.subarray(4, 8)]).toEqual([11, 2, 3, 0]);
		expect(guidFromBytes(classic.bytes, 0x18)).toBe(GUID_A);
		const inst = cpu1[2]!;
		expect(inst.headerType).toBe(0x15);
		expect(inst.size).toBe(0x48);
		expect(dv(inst.bytes).getUint32(0x30, true)).toBe(77);
		const wpp = cpu0[2]!;
		expect(wpp.kind).toBe('wpp');
		expect([...wpp.bytes.subarray(0, 4)]).toEqual([8 + 16 + 8 + 8 + 2, 0, 0, 0x90]);
		expect(dv(wpp.bytes).getUint16(4, true)).toBe(43);
		expect(dv(wpp.bytes).getUint16(6, true)).toBe(0xaa); // GUID + TIMESTAMP + SYSINFO + PTR64
		expect([wpp.tid, wpp.pid]).toEqual([0xf4, 4]);
		const wpp2 = cpu0[3]!;
		expect(dv(wpp2.bytes).getUint16(6, true)).toBe(0x49); // SEQUENCE + TIMESTAMP + PTR32
		expect(wpp2.pid).toBe(null);
	});

	it('puts header records after the logfile header in buffer 0 at T0', () => {
		const h = bufs[0]!.records;
		expect(h.length).toBe(2);
		expect(dv(h[1]!.bytes).getUint16(6, true)).toBe(0x50);
		expect(h[1]!.raw).toBe(f.t0);
		expect(f.records.slice(0, 2).map((r) => r.kind)).toEqual(['header', 'system']);
	});
});

describe('EtlWriter: compressed relog style', () => {
	const plain = workload({}, 300, 5);
	const f = workload({ compress: true }, 300, 5);
	const bufs = scanEtl(f.bytes);

	it('compresses buffers after buffer 0 and packs them back to back', () => {
		const view = dv(f.bytes);
		expect(bufs[0]!.flags & 0x40).toBe(0);
		expect(bufs[0]!.bufferSize % 512).toBe(0);
		expect(bufs[0]!.bufferSize).toBe(Math.ceil(bufs[0]!.offset / 512) * 512);
		expect(view.getUint32(0x48 + 0x20 + 0x20, true)).toBe(0x04000001);
		expect(view.getUint32(0x48 + 0x20 + 0x24, true)).toBe(bufs.length);
		let unaligned = 0;
		for (const b of bufs.slice(1)) {
			expect(b.flags & 0x40).toBe(0x40);
			expect(b.savedOffset).toBe(b.offset);
			expect(b.bufferSize).toBeLessThan(b.offset);
			if (b.fileOffset % 8) unaligned++;
			// The compressed stream alone decompresses to Offset - 0x48 bytes.
			const packed = f.bytes.subarray(b.fileOffset + 0x48, b.fileOffset + b.bufferSize);
			expect(decompressXpress(packed, b.offset - 0x48).length).toBe(b.offset - 0x48);
		}
		expect(unaligned).toBeGreaterThan(0);
		expect(f.bytes.length).toBe(bufs.reduce((n, b) => n + b.bufferSize, 0));
	});

	it('holds exactly the records of the uncompressed layout', () => {
		checkAgainstTruth(f, bufs);
		const pb = scanEtl(plain.bytes);
		expect(pb.length).toBe(bufs.length);
		for (let i = 1; i < bufs.length; i++) {
			expect(bufs[i]!.image.subarray(0x48)).toEqual(pb[i]!.image.subarray(0x48));
		}
	});
});

describe('EtlWriter: 32-bit logfile header, Win7 ClientContext, other clocks', () => {
	it('writes the 32-bit TRACE_LOGFILE_HEADER layout after a SYSTEM32 record', () => {
		const w = new EtlWriter({
			pointerSize: 4,
			startTime: START,
			loggerName: 'L',
			logFileName: 'F',
			perfFreq: 3_117_777n,
			build: 10586,
		});
		w.addEvent({ cpu: 0, time: START + SEC, pid: 1, tid: 2, provider: GUID_A, id: 1 });
		const f = w.finish();
		const r = scanEtl(f.bytes)[0]!.records[0]!;
		expect(r.headerType).toBe(1);
		expect(r.size).toBe(0x20 + 0x110 + 4 + 4);
		const v = dv(r.bytes);
		expect(v.getUint32(0x20 + 0x2c, true)).toBe(4);
		expect(v.getBigInt64(0x20 + 0xf0, true)).toBe(w.bootTime);
		expect(v.getBigInt64(0x20 + 0xf8, true)).toBe(3_117_777n);
		expect(v.getBigInt64(0x20 + 0x100, true)).toBe(START);
		expect(v.getUint32(0x20 + 0x108, true)).toBe(1);
		expect(new TextDecoder('utf-16le').decode(r.bytes.subarray(0x20 + 0x110))).toBe('L\0F\0');
		const ev = f.records[1]!;
		expect(ev.headerType).toBe(0x12);
		// Not exact at 3.1 MHz, but within one tick.
		const back = toFiletime(f, ev.raw, 1, 3_117_777n);
		expect(ev.time - back >= 0n && ev.time - back < 4n).toBe(true);
	});

	it('writes Win7-style ClientContext without PROC_INDEX', () => {
		const w = new EtlWriter({ startTime: START, cpus: 3, procIndexFlag: false, build: 7601 });
		w.addEvent({ cpu: 2, time: START + SEC, pid: 1, tid: 2, provider: GUID_A, id: 1 });
		const bufs = scanEtl(w.finish().bytes);
		expect(bufs[0]!.savedOffset).toBe(0);
		expect(bufs[0]!.flags).toBe(0x1);
		expect(bufs[1]!.flags & 0x20).toBe(0);
		expect(bufs[1]!.clientContext).toBe(0x0802);
		expect(bufs[1]!.cpu).toBe(2);
	});

	it('converts system-time and CPU-cycle clocks exactly', () => {
		for (const clock of [2, 3] as const) {
			const w = new EtlWriter({ startTime: START, clock, cpuSpeedMHz: 2_400 });
			for (let i = 0; i < 20; i++) {
				w.addEvent({
					cpu: 0,
					time: START + BigInt(i * 12_345),
					pid: 1,
					tid: 2,
					provider: GUID_A,
					id: i,
				});
			}
			const f = w.finish();
			const hv = dv(scanEtl(f.bytes)[0]!.records[0]!.bytes);
			expect(hv.getUint32(0x20 + 0x110, true)).toBe(clock);
			if (clock === 2) expect(f.t0).toBe(START);
			for (const r of f.records) expect(toFiletime(f, r.raw, clock, 0n, 2_400)).toBe(r.time);
		}
	});

	it('flags events-lost buffers and records the counters', () => {
		const w = new EtlWriter({ startTime: START, cpus: 2, eventsLost: 41, buffersLost: 2 });
		w.addEvent({ cpu: 1, time: START + SEC, pid: 1, tid: 2, provider: GUID_A, id: 1 });
		w.addEvent({ cpu: 0, time: START + SEC, pid: 1, tid: 2, provider: GUID_A, id: 1 });
		w.markEventsLost(1, START);
		const f = w.finish();
		const bufs = scanEtl(f.bytes);
		expect(bufs.find((b) => b.cpu === 1 && b.index > 0)!.flags & 2).toBe(2);
		expect(bufs.find((b) => b.cpu === 0 && b.index > 0)!.flags & 2).toBe(0);
		const hv = dv(bufs[0]!.records[0]!.bytes);
		expect(hv.getUint32(0x20 + 0x30, true)).toBe(41);
		expect(hv.getUint32(0x20 + 0x114, true)).toBe(2);
		// Same time on two CPUs: CPU 0 first in the truth although added second.
		expect(f.records.slice(1).map((r) => r.cpu)).toEqual([0, 1]);
	});

	it('rejects bad input', () => {
		const w = new EtlWriter({ startTime: START, bufferSize: 1024 });
		expect(() =>
			w.addEvent({ cpu: 1, time: START, pid: 1, tid: 1, provider: GUID_A, id: 1 }),
		).toThrow(/cpu/);
		expect(() =>
			w.addEvent({ cpu: 0, time: START - 1n, pid: 1, tid: 1, provider: GUID_A, id: 1 }),
		).toThrow(/before the session StartTime/);
		expect(() =>
			w.addEvent({
				cpu: 0,
				time: START,
				pid: 1,
				tid: 1,
				provider: GUID_A,
				id: 1,
				payload: new Uint8Array(1000),
			}),
		).toThrow(/does not fit/);
	});
});

describe('payload builders', () => {
	it('lays out AFD fields from the schema', () => {
		const p = afdPayload(
			2,
			{ Process: 0x1234, Endpoint: 0x5678, Address: '10.1.2.3', Port: 8080, Status: 0xc0000236 },
			4,
		);
		expect([...p]).toEqual([
			0x34, 0x12, 0, 0, 0x78, 0x56, 0, 0, 10, 1, 2, 3, 0x1f, 0x90, 0x36, 0x02, 0x00, 0xc0,
		]);
		const v6 = afdPayload(3, { Address: 'fe80::1', Port: 53 }, 8);
		expect(v6.length).toBe(8 + 8 + 16 + 2 + 4);
		expect(v6.subarray(16, 32)).toEqual(ipv6Bytes('fe80:0:0:0:0:0:0:1'));
		// SocketAddress with AddressLen filled in.
		const c = afdPayload(1030, { EnterExit: 0, Address: '[fe80::1%12]:53' }, 8);
		const cv = dv(c);
		expect(cv.getUint32(4 + 4 + 8 + 8 + 4, true)).toBe(28);
		expect(c.subarray(c.length - 28)).toEqual(sockaddrBytes('[fe80::1%12]:53'));
		expect([...c.subarray(c.length - 28, c.length - 24)]).toEqual([23, 0, 0, 53]);
		expect(cv.getUint32(c.length - 4, true)).toBe(12);
		const v4 = afdPayload(1030, { Address: '192.168.1.1:53' }, 8);
		expect([...v4.subarray(v4.length - 16)]).toEqual([
			2, 0, 0, 53, 192, 168, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0,
		]);
		// No address: AddressLen 0 and nothing after it.
		expect(afdPayload(1030, {}, 8).length).toBe(4 + 4 + 8 + 8 + 4 + 4);
		// 'Listen Endpoint' by name or key.
		expect(afdPayload(35, { ListenEndpoint: 1 }, 8)).toEqual(
			afdPayload(35, { 'Listen Endpoint': 1 }, 8),
		);
		expect(() => afdPayload(1003, { Bogus: 1 }, 8)).toThrow(/unknown field/);
		expect(() => afdPayload(1003, { Process: 0xffffa50c12345080n }, 4)).toThrow(/32 bits/);
		expect(() => afdPayload(1008, {}, 8)).toThrow(/no event id 1008/);
	});

	it('lays out WS2HELP fields from the schema', () => {
		const p = ws2helpPayload(1, {
			LSPName: 'A',
			Catalog: 64,
			Installer: 'b',
			GUID: GUID_A,
			Category: 7,
		});
		expect(p.length).toBe(4 + 4 + 2 + 16 + 4);
		expect([...p.subarray(0, 10)]).toEqual([0x41, 0, 0, 0, 64, 0, 0, 0, 0x62, 0]);
		expect(guidFromBytes(p, 10)).toBe(GUID_A);
	});

	it('parses IPv6 text forms', () => {
		expect(ipv6Bytes('::')).toEqual(new Uint8Array(16));
		expect(ipv6Bytes('::ffff:1.2.3.4').subarray(10)).toEqual(Uint8Array.of(0xff, 0xff, 1, 2, 3, 4));
		expect(ipv6Bytes('2001:DB8::A:b')).toEqual(
			ipv6Bytes('2001:0db8:0000:0000:0000:0000:000a:000b'),
		);
		for (const bad of ['1::2::3', '12345::', '1:2:3:4:5:6:7', 'g::1', '1.2.3.4::']) {
			expect(() => ipv6Bytes(bad)).toThrow();
		}
	});
});
