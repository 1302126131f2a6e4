// The sample's findings and stories in Chinese: TCP/IP's sentences, abort and drop reasons and
// byte counts come through the catalogue and the schema's Chinese value names, so no Latin word
// but data is left; in English they are what the CLI has always printed.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_MAPS, EVENT_MAPS_ZH } from '../../web/src/generated/schemas.ts';
import { english, textIn } from '../../web/src/i18n/render.ts';
import { findingsOf } from '../../web/src/sockets/findings.ts';
import { storyMessageOf, storyOf } from '../../web/src/sockets/story.ts';
import { latinWords } from '../i18n/latin-words.ts';
import { trackBytes, type Tracked } from './track.ts';

const ROOT = new URL('../../', import.meta.url);

describe('the sample in Chinese', () => {
	let t: Tracked;
	beforeAll(async () => {
		t = await trackBytes(new Uint8Array(readFileSync(new URL('public/sample.etl', ROOT))));
	});

	it('findings: titles and explanations hold no English word but data', () => {
		const findings = findingsOf(t.tracked);
		const kinds = new Set(findings.map((f) => f.kind));
		// The sample's findings include TCP/IP's sentence, an abort reason and a drop reason.
		for (const k of ['connect-refused', 'transport-abort', 'datagram-dropped'] as const)
			expect(kinds.has(k)).toBe(true);
		const zh = findings.flatMap((f) =>
			[f.message.title, f.message.explanation].map((m) => textIn('zh', m)),
		);
		expect(latinWords(zh)).toEqual([]);
		for (const f of findings) {
			expect(english(f.message.title)).toBe(f.title);
			expect(english(f.message.explanation)).toBe(f.explanation);
		}
		const dropped = findings.find((f) => f.kind === 'datagram-dropped')!;
		const reason = t.tracked.sockets.flatMap((s) => s.dropReasons)[0]!;
		expect(f2(dropped)).toContain(EVENT_MAPS_ZH.afdDatagramDrop![reason.reason]!);
		expect(dropped.explanation).toContain(EVENT_MAPS.afdDatagramDrop![reason.reason]!);
		expect(f2(dropped)).toContain(`${reason.bytes} 字节`);
		const refused = findings.find((f) => f.kind === 'connect-refused')!;
		expect(f2(refused)).toContain('TCP 连接失败：被拒绝（对端发送了重置）');
	});

	it('stories hold no English word but data; the English story is unchanged', () => {
		const zh = t.tracked.sockets.map((s) => textIn('zh', storyMessageOf(s)));
		expect(latinWords(zh)).toEqual([]);
		for (const s of t.tracked.sockets) expect(english(storyMessageOf(s))).toBe(storyOf(s));
		const aborted = t.tracked.sockets.find((s) => s.abort !== null)!;
		expect(textIn('zh', storyMessageOf(aborted))).toContain(
			EVENT_MAPS_ZH.afdAbort![aborted.abort!.reason]!,
		);
	});
});

function f2(f: { message: { explanation: Parameters<typeof textIn>[1] } }): string {
	return textIn('zh', f.message.explanation);
}
