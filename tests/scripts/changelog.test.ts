import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { latestEntry } from '../../scripts/changelog.ts';

describe('latestEntry', () => {
	it('takes the first entry, its wrapped items joined', () => {
		const e = latestEntry('# Log\n\n## 2.0\n\n- one\n  two\n- three\n\n## 1.0\n\n- old\n');
		expect(e).toEqual({ title: '2.0', items: ['one two', 'three'] });
	});

	it('reads the repository CHANGELOG', () => {
		const e = latestEntry(readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8'));
		expect(e?.items.length).toBeGreaterThan(0);
	});
});
