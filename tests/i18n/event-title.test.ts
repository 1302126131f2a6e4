// The Chinese events table shows the title the filter accepts: both come from the same schema.
import { describe, expect, it } from 'vitest';
import { AFD_EVENT_TEXT_ZH, EVENT_SCHEMAS } from '../../web/src/generated/schemas.ts';
import { afdTitleZh } from '../../web/src/decoder/afd-titles.ts';
import { eventText, eventTitle } from '../../web/src/i18n/event-text.ts';
import { COLUMNS, type CellContext } from '../../web/src/views/events/columns.ts';
import type { RowView } from '../../web/src/query/protocol.ts';

const afd = EVENT_SCHEMAS.filter((e) => e.provider === 1);

describe('event titles', () => {
	it('every event has a title, shown in Chinese and taken by the filter', () => {
		// The 41 of Microsoft's page have the page's; the others a short one and a description.
		const page = afd.filter((e) => !AFD_EVENT_TEXT_ZH[e.id]?.description);
		expect(new Set(page.map((e) => e.id)).size).toBe(41);
		for (const e of afd) {
			const title = AFD_EVENT_TEXT_ZH[e.id]!.title!;
			expect(title, e.name).toMatch(/[\u4e00-\u9fff]/);
			expect(eventTitle(e.name, 'zh')).toBe(title);
			expect(afdTitleZh(e.name)).toBe(title);
			expect(eventTitle(e.name, 'en')).toBe(e.name);
			// Hover and details say more than the table where there is more to say.
			expect(eventText(e.name, 'zh')).toBe(AFD_EVENT_TEXT_ZH[e.id]!.description ?? title);
			expect(eventText(e.name, 'en')).toBeNull();
		}
	});
	it('the event and level cells use the words given, and the names without them', () => {
		const row = { event: 'ConnectIPv4', phase: 'enter', level: 4 } as unknown as RowView;
		const base: CellContext = { processNames: new Map(), timeMode: 'relative', startFiletime: '0' };
		const words = {
			event: (n: string) => eventTitle(n, 'zh'),
			level: (n: string) => `L:${n}`,
			phase: (p: string) => `P:${p}`,
			withPhase: (name: string, phase: string) => `${name}（${phase}）`,
		};
		const event = COLUMNS.find((c) => c.id === 'event')!;
		const level = COLUMNS.find((c) => c.id === 'level')!;
		expect(event.text(row, base)).toBe('ConnectIPv4 (enter)');
		expect(event.text(row, { ...base, words })).toBe(
			`${AFD_EVENT_TEXT_ZH[afd.find((e) => e.name === 'ConnectIPv4')!.id]!.title}（P:enter）`,
		);
		expect(level.text(row, base)).toBe('info');
		expect(level.text(row, { ...base, words })).toBe('L:info');
		// The filter term stays the manifest name whatever the table shows.
		expect(event.term(row, { ...base, words })).toBe('event:ConnectIPv4');
	});
});
