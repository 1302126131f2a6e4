// The plain renderer against i18next itself: every catalog message, in both languages, with
// values that would show a difference in how they are put in (replacement patterns, braces,
// other values' names) and counts for each plural form.
import { describe, expect, it } from 'vitest';
import { en } from '../../web/src/i18n/en.ts';
import { zh } from '../../web/src/i18n/zh.ts';
import { i18nextRender, plainRender, type Lang } from '../../web/src/i18n/render.ts';

const CATALOGS: Record<Lang, Record<string, string>> = { en, zh };

/** Message keys without their plural suffix, each once. */
function keysOf(catalog: Record<string, string>): string[] {
	return [
		...new Set(Object.keys(catalog).map((k) => k.replace(/_(zero|one|two|few|many|other)$/, ''))),
	];
}

/** The names of a message's values, over all its plural forms. */
function namesOf(catalog: Record<string, string>, key: string): string[] {
	const names = new Set<string>();
	for (const [k, text] of Object.entries(catalog))
		if (k === key || k.startsWith(`${key}_`))
			for (const m of text.matchAll(/\{\{(.+?)\}\}/g)) names.add(m[1]!.trim());
	return [...names];
}

const TRICKY = ["$& $' $` $$ $1", '{{who}} {{count}}', '', '名字'];

describe('plainRender', () => {
	for (const lang of ['en', 'zh'] as const)
		it(`renders every ${lang} message as i18next does`, () => {
			const catalog = CATALOGS[lang];
			let plain = 0;
			for (const key of keysOf(catalog)) {
				const names = namesOf(catalog, key);
				// Each value in turn tricky, with each plural form (and without a count).
				const cases: Record<string, string | number>[] = [undefined, 0, 1, 2].map((count, c) => ({
					...Object.fromEntries(names.map((n, j) => [n, TRICKY[(j + c) % TRICKY.length]!])),
					...(count === undefined ? {} : { count }),
				}));
				// A missing value, and an i18next option among the values, go to i18next.
				if (names.length > 0) cases.push({});
				cases.push({ context: 'x', ...Object.fromEntries(names.map((n) => [n, 1])) });
				for (const values of cases) {
					const quick = plainRender(lang, key, values);
					if (quick === null) continue;
					plain++;
					expect(quick, `${key} ${JSON.stringify(values)}`).toBe(i18nextRender(lang, key, values));
				}
			}
			// The catalogs are plain: nearly every case took the quick way.
			expect(plain).toBeGreaterThan(keysOf(catalog).length * 2);
		});

	it('leaves a missing key, a missing value and nesting to i18next', () => {
		expect(plainRender('en', 'no.such.key', {})).toBeNull();
		expect(plainRender('en', 'story.in', {})).toBeNull();
		expect(plainRender('en', 'story.in', { duration: 5, lng: 'zh' })).toBeNull();
		expect(plainRender('en', 'story.in', { duration: '$t(story.socket)' })).toBeNull();
		expect(plainRender('en', 'story.in', { duration: '38 ms' })).toBe('in 38 ms');
	});
});
