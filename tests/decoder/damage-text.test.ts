// The decoder's damage as a message: its English is describeDamage's word for word (what the CLI
// prints), its Chinese names offsets and header fields as data and nothing else in English.
import { describe, expect, it } from 'vitest';
import { damageText, describeDamage, type DamageInfo } from '../../web/src/decoder/messages.ts';
import { Status } from '../../web/src/generated/layouts.ts';
import { english, textIn, type Msg } from '../../web/src/i18n/render.ts';
import { latinWords } from '../i18n/latin-words.ts';

const base = {
	bufferIndex: 3,
	bufferOffset: 0x30000,
	at: 0x1a8,
	value: 0x7369,
	limit: 0x10000,
} as const;

const cases: DamageInfo[] = Object.values(Status).flatMap((status) =>
	[false, true].flatMap((compressed) => [
		{ ...base, status, compressed },
		{ ...base, status, compressed, skipped: 4096, resumeAt: 0x40000 },
		{ ...base, status, compressed, skipped: 4096, resumeAt: null },
	]),
);

describe('damage said in the reader’s language', () => {
	it('English as describeDamage says it, for every status', () => {
		for (const d of cases) expect(english(damageText(d) as Msg)).toBe(describeDamage(d));
	});

	it('Chinese with no English word but the header fields it names', () => {
		for (const d of cases) {
			const zh = textIn('zh', damageText(d) as Msg);
			expect(zh).toMatch(/缓冲区 3（偏移 0x30000）/);
			expect(latinWords([zh], ['BufferSize', 'Offset'])).toEqual([]);
		}
	});

	it('a note stays English only', () => {
		expect(damageText({ ...base, status: Status.Ok, compressed: false, note: 'x' })).toBe(null);
	});
});
