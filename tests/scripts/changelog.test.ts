import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { latestEntry, translatedEntry } from '../../scripts/changelog.ts';

describe('latestEntry', () => {
	it('takes the first entry, its wrapped items joined', () => {
		const e = latestEntry('# Log\n\n## 2.0\n\n- one\n  two\n- three\n\n## 1.0\n\n- old\n');
		expect(e).toEqual({ title: '2.0', items: ['one two', 'three'] });
	});

	it('joins a wrapped Chinese line without a space, and a Latin word with one', () => {
		const e = latestEntry(
			'## 1.0（未发布）\n\n- 导入时，\n  文件只解码一遍\n  `sockscope`\n  命令\n',
		);
		expect(e?.items).toEqual(['导入时，文件只解码一遍 `sockscope` 命令']);
	});

	it('reads the repository CHANGELOG', () => {
		const e = latestEntry(readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8'));
		expect(e?.items.length).toBeGreaterThan(0);
	});

	it('the Chinese changelog is of the same version, item for item', () => {
		const read = (name: string) => readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8');
		const en = latestEntry(read('CHANGELOG.md'));
		const zh = translatedEntry(en, latestEntry(read('CHANGELOG.zh.md')));
		// A release writes its Chinese entry too: the prompt would fall back to English.
		expect(zh, 'CHANGELOG.zh.md lacks the latest version').not.toBeNull();
		expect(zh!.items).toHaveLength(en!.items.length);
		for (const item of zh!.items) expect(item).toMatch(/[\u4e00-\u9fff]/);
	});

	it('an entry of another version is no translation', () => {
		const en = latestEntry('## 2.0 (unreleased)\n\n- one\n');
		expect(translatedEntry(en, latestEntry('## 1.0（未发布）\n\n- 一\n'))).toBeNull();
		expect(translatedEntry(en, latestEntry('## 2.0（未发布）\n\n- 一\n'))?.items).toEqual(['一']);
	});
});
