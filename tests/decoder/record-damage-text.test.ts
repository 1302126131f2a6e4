// Record-level damage (a TraceLogging event that would overrun its value budget) as a message:
// its English is the line the CLI prints, its Chinese has no English but the event and field
// names (data).
import { describe, expect, it } from 'vitest';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { TraceChecks } from '../../web/src/decoder/trace-checks.ts';
import { english, textIn, type Msg } from '../../web/src/i18n/render.ts';
import { HOSTILE_CASES } from '../fixtures/hostile/cases.ts';
import { latinWords } from '../i18n/latin-words.ts';
import { open } from './load.ts';

async function damageOf(name: string) {
	const c = HOSTILE_CASES.find((x) => x.name === name)!;
	const trace = await open(c.bytes());
	const index = await indexBuffers(trace);
	const checks = new TraceChecks(trace);
	await mergeRecords(
		trace,
		index.buffers,
		() => {},
		(b) => checks.buffer(b),
		undefined,
		checks.slice,
	);
	checks.finish(index);
	return checks.log.entries;
}

describe('record-level damage said in the reader’s language', () => {
	it.each(['tl-nested-arrays', 'tl-deep-arrays'])('%s', async (name) => {
		const entries = await damageOf(name);
		const over = entries.filter((e) => /past its budget/.test(e.message));
		expect(over.length).toBeGreaterThan(0);
		for (const e of entries) {
			expect(e.text, e.message).toBeDefined();
			expect(english(e.text as Msg)).toBe(e.message);
		}
		for (const e of over) {
			const zh = textIn('zh', e.text as Msg);
			expect(zh).toMatch(
				/^缓冲区 \d+（偏移 0x[0-9a-f]+）：偏移 0x[0-9a-f]+ 处的记录（Hostile\.Nested Nested）：字段 "level\d+" 会使该事件超出 \d+ 个值的上限（有效负载 8 字节）$/,
			);
			// The event's name and the field's are data.
			expect(latinWords([zh.replace(/（Hostile[^）]*）|"[^"]*"/g, ' ')])).toEqual([]);
		}
	});
});
