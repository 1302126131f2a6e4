import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { numericCases, numericCasesIn } from '../../scripts/event-id-cases.ts';

const planted = `function f(id: number, role: string) {
	// case 7: a comment is not a label
	const s = 'case 9:';
	switch (role) {
		case 'bind':
			return s;
	}
	switch (id) {
		case 1001:
			return 1;
		case 0x3e9:
		case -(2):
			return 2;
	}
}
`;

describe('numericCases', () => {
	it('finds numeric case labels, with their lines, and nothing else', () => {
		expect(numericCases(planted, 'planted.ts')).toEqual([
			{ file: 'planted.ts', line: 9, label: '1001' },
			{ file: 'planted.ts', line: 11, label: '0x3e9' },
			{ file: 'planted.ts', line: 12, label: '-(2)' },
		]);
	});

	it('finds a case planted in a nested file of a folder', () => {
		const dir = mkdtempSync(join(tmpdir(), 'event-id-cases-'));
		try {
			mkdirSync(join(dir, 'inner'));
			writeFileSync(join(dir, 'roles.ts'), "switch (r) {\n\tcase 'send':\n}\n");
			writeFileSync(join(dir, 'inner', 'ids.ts'), 'switch (id) {\n\tcase 35:\n}\n');
			expect(numericCasesIn(dir, dir)).toEqual([
				{ file: join('inner', 'ids.ts'), line: 2, label: '35' },
			]);
		} finally {
			rmSync(dir, { recursive: true });
		}
	});

	it('finds none in web/src/sockets/', () => {
		const root = fileURLToPath(new URL('../..', import.meta.url));
		expect(numericCasesIn(join(root, 'web/src/sockets'), root)).toEqual([]);
	});
});
