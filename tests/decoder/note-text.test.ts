// The decoder's notes about a trace as a whole (buffers missing or repeated, what the trace header
// says that the buffers or the record times contradict) as messages: each one's English is the
// note the CLI prints, word for word, and its Chinese has no English but the header fields.
import { describe, expect, it } from 'vitest';
import {
	duplicateNote,
	headerFindings,
	TimeSpan,
	timeFindings,
} from '../../web/src/decoder/buffer-checks.ts';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { damageText, describeDamage, type DamageInfo } from '../../web/src/decoder/messages.ts';
import type { TraceFacts } from '../../web/src/decoder/types.ts';
import { english, textIn, type Msg } from '../../web/src/i18n/render.ts';
import { HOSTILE_CASES } from '../fixtures/hostile/cases.ts';
import { latinWords } from '../i18n/latin-words.ts';
import { open, realFixture } from './load.ts';

/** The header fields the notes name, as the trace header spells them. */
const FIELDS = [
	'BuffersWritten',
	'NumberOfProcessors',
	'BufferSize',
	'ReservedFlags',
	'PerfFreq',
	'CpuSpeedInMHz',
	'EndTime',
	'StartTime',
	'Offset',
];

const facts = async (): Promise<TraceFacts> =>
	(await open(realFixture('krabsetw-powershell-manifest'))).facts;

/** Buffers numbered `sequences` (buffer 0 first), 4 KiB each, on CPU 0. */
const buffers = (sequences: readonly number[]) =>
	[0, ...sequences].map((s, index) => ({
		index,
		offset: index * 0x1000,
		size: 0x1000,
		cpu: 0,
		sequence: BigInt(s),
		compressed: false,
	}));

/** Each note in both languages: English as the note, Chinese free of English prose. */
function said(notes: readonly DamageInfo[]): string[] {
	expect(notes.length).toBeGreaterThan(0);
	return notes.map((d) => {
		const text = damageText(d) as Msg;
		expect(text).not.toBeNull();
		expect(english(text)).toBe(d.note);
		const zh = textIn('zh', text);
		expect(latinWords([zh], FIELDS)).toEqual([]);
		return zh;
	});
}

describe('notes said in the reader’s language', () => {
	it('buffers missing: one, several, counted at the end, with the jumps', async () => {
		const f = { ...(await facts()), buffersWritten: 5 };
		expect(said(headerFindings(f, buffers([1, 2, 4]), 0x4000, true, 0))[0]).toMatch(
			/^缓冲区 3（偏移 0x3000）（序号 4）：缺少序号为 3 的缓冲区，前一个是缓冲区 2（偏移 0x2000）（序号 2）；跟踪标头记录写入了 5 个缓冲区/,
		);
		const g = { ...f, buffersWritten: 6 };
		expect(said(headerFindings(g, buffers([1, 2, 5]), 0x4000, true, 0))[0]).toMatch(
			/缺少序号 3 到 4 的缓冲区/,
		);
		const h = { ...f, buffersWritten: 40 };
		expect(said(headerFindings(h, buffers([1, 2]), 0x3000, true, 0))[0]).toBe(
			'文件在缓冲区 2 之后结束（偏移 0x3000），但跟踪标头记录写入了 40 个缓冲区（BuffersWritten），文件中只有 3 个：缺少 37 个',
		);
		const jumps = Array.from({ length: 10 }, (_, i) => 1 + 2 * i);
		expect(said(headerFindings(h, buffers(jumps), 0xb000, true, 0))[0]).toMatch(
			/（序号跳变：1 → 3（偏移 0x2000），.*，… 共 9 处跳变）$/,
		);
		expect(said(headerFindings(h, [], 0, true, 0))[0]).toMatch(/^文件在偏移 0x0 处结束，/);
	});

	it('what the trace header says that the buffers contradict', async () => {
		const f = await facts();
		const beyond = buffers([1, 2, 3]).map((b) => ({ ...b, cpu: b.index === 2 ? 64 : 0 }));
		said(headerFindings({ ...f, buffersWritten: 2 }, beyond, 0x4000, true, 0));
		said(headerFindings({ ...f, bufferSize: 0x10 }, buffers([]), 0x1000, false, 0));
		said(headerFindings({ ...f, bufferSize: 0x800 }, buffers([1]), 0x2000, false, 0));
		said(headerFindings({ ...f, clockType: 7 }, buffers([]), 0x1000, false, 0));
		said(headerFindings({ ...f, clockType: 1, perfFreq: '0' }, buffers([]), 0x1000, false, 0));
		said(headerFindings({ ...f, clockType: 3, cpuSpeedMHz: 0 }, buffers([]), 0x1000, false, 0));
		const late = { ...f, endFiletime: '1', endTime: '' };
		expect(said(headerFindings(late, buffers([]), 0x1000, false, 0)).at(-1)).toMatch(
			/^跟踪标头的 EndTime（1）早于其 StartTime（/,
		);
	});

	it('a buffer found twice, and record times outside the header’s', async () => {
		const [a, , b] = buffers([1, 1]);
		expect(said([duplicateNote(b!, a!)])[0]).toBe(
			'偏移 0x2000 处的缓冲区与缓冲区 0（偏移 0x0）重复（CPU 0，序号 1）：已丢弃',
		);
		const f = await facts();
		const span = new TimeSpan();
		span.add(BigInt(f.startFiletime) - 20_000_000n, BigInt(f.endFiletime) + 1_000_000_000n);
		const [after, before] = said(timeFindings(f, span));
		expect(after).toMatch(/^记录一直持续到 .*，比跟踪标头的 EndTime（.*）晚 100\.000 秒$/);
		expect(before).toMatch(/^记录从 .* 开始，比跟踪标头的 StartTime（.*）早 2\.000 秒$/);
	});

	it('every damage the index pass finds in the hostile traces has its message', async () => {
		let notes = 0;
		for (const c of HOSTILE_CASES.filter((x) => !x.large)) {
			const trace = await open(c.bytes()).catch(() => null);
			if (!trace) continue;
			for (const d of (await indexBuffers(trace)).damage) {
				const text = damageText(d) as Msg;
				expect(text, c.name).not.toBeNull();
				expect(english(text)).toBe(describeDamage(d));
				if (d.note !== undefined) notes++;
			}
		}
		expect(notes).toBeGreaterThan(0);
	});
});
