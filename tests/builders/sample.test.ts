import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { guidFromBytes } from './bytes.ts';
import { scanEtl } from './etl-scan.ts';
import { buildSample, type SampleTruth } from './sample.ts';

const ROOT = new URL('../../', import.meta.url);
const AFD = 'e53c6823-7bb8-44bb-90dc-3f86090d48a6';
const KERNEL_PROCESS = '22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716';

describe('bundled sample trace', () => {
	const sample = buildSample();
	const { file, truth } = sample;

	it('equals public/sample.etl and its committed truth byte for byte (run scripts/make-sample.ts)', () => {
		const committed = new Uint8Array(readFileSync(new URL('public/sample.etl', ROOT)));
		expect(committed.length).toBe(file.bytes.length);
		expect(Buffer.compare(committed, file.bytes)).toBe(0);
		const json = readFileSync(new URL('tests/fixtures/sample/sample.truth.json', ROOT), 'utf8');
		expect(json).toBe(sample.json);
	});

	it('is deterministic', () => {
		const again = buildSample();
		expect(Buffer.compare(again.file.bytes, file.bytes)).toBe(0);
		expect(again.json).toBe(sample.json);
	});

	it('has the session shape the spec asks for', () => {
		expect(file.bytes.length).toBeLessThan(1024 * 1024);
		const bufs = scanEtl(file.bytes);
		const hdr = new DataView(bufs[0]!.records[0]!.bytes.slice().buffer);
		const p = 0x20;
		expect(hdr.getUint32(p + 0x00, true)).toBe(65536);
		expect(hdr.getUint32(p + 0x08, true)).toBe(22621);
		expect(hdr.getUint32(p + 0x0c, true)).toBe(4);
		expect(hdr.getUint32(p + 0x24, true)).toBe(bufs.length);
		expect(hdr.getUint32(p + 0x2c, true)).toBe(8);
		expect(hdr.getBigInt64(p + 0x100, true)).toBe(10_000_000n);
		expect(hdr.getUint32(p + 0x110, true)).toBe(1);
		const names = new TextDecoder('utf-16le').decode(
			bufs[0]!.records[0]!.bytes.subarray(p + 0x118),
		);
		expect(names.split('\0')[0]).toBe('winsock');
		expect(bufs.slice(1).every((b) => b.bufferSize === 65536 && (b.flags & 0x40) === 0)).toBe(true);
		expect(new Set(bufs.slice(1).map((b) => b.cpu))).toEqual(new Set([0, 1, 2, 3]));
		// File order is neither sequence order nor time order.
		const seq = bufs.slice(1).map((b) => Number(b.sequence));
		expect(seq).not.toEqual([...seq].sort((a, b) => a - b));
		const events = truth.recordsByKind.event ?? 0;
		expect(events).toBeGreaterThan(300);
		expect(events).toBeLessThan(3000);
		const duration = Number(file.endTime - file.startTime) / 1e7;
		expect(duration).toBeGreaterThan(2);
		expect(duration).toBeLessThan(10);
	});

	it('truth counts agree with an independent scan of the bytes', () => {
		const bufs = scanEtl(file.bytes);
		const recs = bufs.flatMap((b) => b.records);
		expect(recs.length).toBe(truth.totalRecords);
		const counts: Record<string, number> = {};
		const byHeader: Record<string, number> = {};
		const names = new Map<number, string>();
		for (const r of recs) {
			if (r.kind !== 'event') continue;
			const provider = guidFromBytes(r.bytes, 0x18);
			const id = r.bytes[0x28]! | (r.bytes[0x29]! << 8);
			if (provider === AFD) {
				counts[id] = (counts[id] ?? 0) + 1;
				const ht = `0x${r.headerType.toString(16)}`;
				byHeader[ht] = (byHeader[ht] ?? 0) + 1;
			} else if (provider === KERNEL_PROCESS && id === 1) {
				const payload = r.bytes.subarray(0x50);
				const pid = payload[0]! | (payload[1]! << 8) | (payload[2]! << 16);
				const image = new TextDecoder('utf-16le').decode(payload.subarray(24)).split('\0')[0]!;
				names.set(pid, image.slice(image.lastIndexOf('\\') + 1));
			}
		}
		expect(counts).toEqual(truth.afdEventCounts);
		expect(byHeader).toEqual(truth.afdEventsByHeaderType);
		for (const p of truth.processes) expect(names.get(p.pid)).toBe(p.name);
		// Legacy events are EVENT32, everything else EVENT64.
		expect(byHeader['0x12']).toBe(truth.processes.find((p) => p.pid === 2222)!.afdEvents);
	});

	it('covers the scenario of the spec', () => {
		const t: SampleTruth = truth;
		const names = t.processes.map((p) => p.name).sort();
		expect(names).toEqual(['chrome.exe', 'curl.exe', 'legacyapp.exe', 'svchost.exe']);
		expect(t.processes.find((p) => p.pid === 4120)!.eprocess).toBe('0xffffa50c12345080');
		const ids = Object.keys(t.afdEventCounts).map(Number);
		for (const id of [1, 2, 4, 6, 18, 23, 24, 13, 14]) expect(ids).toContain(id);
		for (const id of [
			1000, 1001, 1002, 1003, 1004, 1007, 1009, 1018, 1024, 1030, 1032, 1033, 1035, 1037, 3006,
		]) {
			expect(ids).toContain(id);
		}
		const outcome = (o: string): number => t.sockets.filter((s) => s.outcome === o).length;
		expect(outcome('refused')).toBe(1);
		expect(outcome('timeout')).toBe(1);
		expect(outcome('aborted')).toBe(1);
		expect(outcome('remote-disconnect')).toBe(1);
		const refused = t.sockets.find((s) => s.outcome === 'refused')!;
		expect([refused.pid, refused.remote, refused.error]).toEqual([
			5200,
			'10.0.0.5:8081',
			'STATUS_CONNECTION_REFUSED',
		]);
		const timeout = t.sockets.find((s) => s.outcome === 'timeout')!;
		expect([timeout.remote, timeout.error]).toEqual(['203.0.113.9:443', 'STATUS_IO_TIMEOUT']);
		expect(t.sockets.find((s) => s.state === 'listening')!.local).toBe('0.0.0.0:8080');
		expect(t.sockets.filter((s) => s.origin === 'accepted').length).toBe(3);
		const remotes = t.sockets.map((s) => s.remote);
		expect(remotes).toContain('192.168.1.1:53');
		expect(remotes).toContain('[fe80::1%12]:53');
		expect(
			t.sockets.some((s) => s.family === 23 && s.type === 1 && s.remote?.endsWith(':443')),
		).toBe(true);
		expect(t.sockets.filter((s) => s.legacy).length).toBe(1);
	});
});
