// NDIS-PacketCapture fragments that were logged wrong or cut: each gives a note naming what is
// wrong and the event's file offset, the frames around it are kept, nothing throws.
import { describe, expect, it } from 'vitest';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { english, render } from '../../web/src/i18n/render.ts';
import { trackPackets } from '../../web/src/packets/track-packets.ts';
import type { EtlFile } from '../builders/etl-writer.ts';
import { ethernet, ipv4, tcp, TCP } from '../builders/frames.ts';
import { Lifecycles } from '../builders/lifecycles.ts';
import { netEvent } from '../builders/net-payloads.ts';
import type { PayloadValues } from '../builders/payloads.ts';
import { open } from '../decoder/load.ts';
import { sockscope } from '../cli/run.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const START = 0x40000000n;
const END = 0x80000000n;
const SEND = 0x100000000n | 0x1n;
const IF = 7;

type Fault =
	'truncated' | 'length-lies' | 'no-start' | 'end-without-start' | 'start-without-end' | 'too-big';

/** A good frame in 2 fragments, the faulty event(s), then a good frame: which adds are bad. */
function script(fault: Fault): { file: EtlFile; bad: number; good: number[] } {
	const lc = new Lifecycles({ families: 'modern' });
	const w = lc.w;
	let ms = 1;
	const add = (keyword: bigint, values: PayloadValues, cut?: number) => {
		const e = netEvent('ndiscap', {
			cpu: 0,
			time: lc.at((ms += 1)),
			pid: 4,
			tid: 8,
			id: 1001,
			keyword: SEND | keyword,
			values: { MiniportIfIndex: IF, LowerIfIndex: IF, ...values },
		});
		return w.addEvent(cut === undefined ? e : { ...e, payload: e.payload!.subarray(0, cut) });
	};
	const frame = (port: number) =>
		ethernet(0x0800, ipv4('10.0.0.5', '10.0.0.9', 6, tcp(port, 443, TCP.SYN)));
	const good: number[] = [];
	const a = frame(50001);
	add(START, { Fragment: a.subarray(0, 20) });
	good.push(add(END, { Fragment: a.subarray(20) }));
	let bad: number;
	const b = frame(50002);
	switch (fault) {
		case 'truncated':
			// The event ends 10 bytes into its fragment's 54 (12 bytes of fields before it).
			bad = add(START | END, { Fragment: b }, 12 + 10);
			break;
		case 'length-lies':
			bad = add(START | END, { Fragment: b, FragmentSize: 0x7ffffff0 });
			break;
		case 'no-start':
			bad = add(0n, { Fragment: b.subarray(0, 30) });
			break;
		case 'end-without-start':
			bad = add(END, { Fragment: b.subarray(30) });
			break;
		case 'start-without-end':
			bad = add(START, { Fragment: b.subarray(0, 30) });
			break;
		case 'too-big':
			add(START, { Fragment: new Uint8Array(40_000) });
			bad = add(END, { Fragment: new Uint8Array(40_000) });
			break;
	}
	const c = frame(50003);
	good.push(add(START | END, { Fragment: c }));
	return { file: w.finish(), bad, good };
}

/** The file offset of the record added `add`-th. */
function offsetOf(file: EtlFile, add: number): number {
	const r = file.records.find((x) => x.addIndex === add)!;
	return file.buffers[r.bufferIndex]!.fileOffset + r.offset;
}

const cases: [Fault, RegExp][] = [
	['truncated', /FragmentSize 54 runs past the event's payload/],
	['length-lies', /FragmentSize 2147483632 runs past the event's payload/],
	['no-start', /no first fragment \(no KW_PACKET_START before it\)/],
	['end-without-start', /no first fragment \(no KW_PACKET_START before it\)/],
	['start-without-end', /lost its last fragment: a new frame began/],
	['too-big', /grows past 65535 bytes/],
];

describe('damaged NDIS-PacketCapture fragments', () => {
	for (const [fault, what] of cases)
		it(`${fault}: noted with its file offset, the frames around it kept`, async () => {
			const s = script(fault);
			const trace = await open(s.file.bytes);
			const p = await trackPackets(trace, (await indexBuffers(trace)).buffers);
			expect(p.frames.map((f) => f.dissection.srcPort)).toEqual([50001, 50003]);
			expect(p.frames.map((f) => f.dissection.malformed)).toEqual([null, null]);
			expect(p.problems, JSON.stringify(p.problems)).toHaveLength(1);
			const [note] = p.problems;
			expect(english(note!.what)).toMatch(what);
			expect(note!.offset).toBe(offsetOf(s.file, s.bad));
			const at = `0x${note!.offset.toString(16)}`;
			expect(english(note!.where)).toBe(`record at file offset ${at}`);
			// The page says it in Chinese: the same offset, no English word but the names.
			expect(render('zh', note!.where)).toBe(`文件偏移 ${at} 处的记录`);
			const zh = render('zh', note!.what);
			expect(zh).toMatch(/[\u4e00-\u9fff]/);
			expect(
				zh.replace(/\b(KW_PACKET_\w+|NDIS-PacketCapture|FragmentSize|ndis|eth)\b/g, ''),
			).not.toMatch(/\b[a-z]{3,}\b/);
		});

	it('sockscope packets prints the frames and the note with its offset on stderr', async () => {
		const s = script('no-start');
		const dir = mkdtempSync(join(tmpdir(), 'sockscope-damage-'));
		try {
			const etl = join(dir, 'cut.etl');
			writeFileSync(etl, s.file.bytes);
			const r = await sockscope('packets', '-q', '--columns', 'src', etl);
			expect(
				r.stdout
					.trim()
					.split('\n')
					.map((l) => JSON.parse(l).src),
			).toEqual(['10.0.0.5:50001', '10.0.0.5:50003']);
			const offset = `0x${offsetOf(s.file, s.bad).toString(16)}`;
			expect(r.stderr).toContain(`packets: record at file offset ${offset}`);
			expect(r.stderr).toMatch(/has no first fragment/);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
