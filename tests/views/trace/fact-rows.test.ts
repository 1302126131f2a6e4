// Trace facts words through the catalogue: the pointer width and the clock's ticks per second say
// the same in English as before and read as Chinese in Chinese.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textIn } from '../../../web/src/i18n/render.ts';
import { buildFactGroups } from '../../../web/src/views/trace/fact-rows.ts';
import { open } from '../../decoder/load.ts';

const samplePath = join(import.meta.dirname, '../../../public/sample.etl');

describe('trace facts in both languages', () => {
	it('names the pointer width and the clock rate in the reader’s words', async () => {
		const { facts } = await open(new Uint8Array(readFileSync(samplePath)), 'sample.etl');
		const parts = buildFactGroups(facts).flatMap((g) => g.rows.flatMap((r) => r.parts));
		const said = (lang: 'en' | 'zh') => parts.map((p) => textIn(lang, p.text)).join(' | ');
		const ticks = Number(facts.perfFreq).toLocaleString('en-US');
		expect(said('en')).toContain(`${ticks} ticks/s`);
		expect(said('zh')).toContain(`每秒 ${ticks} 个时钟周期`);
		expect(said('zh')).not.toMatch(/ticks\/s|\d+-bit/);
		expect(said(facts.pointerSize === 8 ? 'zh' : 'en')).toMatch(
			facts.pointerSize === 8 ? /64 位/ : /32-bit/,
		);
	});
});
