// The grammar table of the Syntax panel: every spelling in it is a valid filter, and the README
// shows the same rows and every field.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../web/src/query/filter-compile.ts';
import { FIELDS } from '../../web/src/query/filter-fields.ts';
import { parseFilter } from '../../web/src/query/filter-parser.ts';
import { FILTER_SYNTAX } from '../../web/src/query/filter-syntax.ts';
import { en } from '../../web/src/i18n/en.ts';

const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
const context = { strings: [], eventTypes: [], startFiletime: 0n, processNames: new Map() };

describe('filter syntax table', () => {
	it('every spelling it shows compiles', () => {
		for (const row of FILTER_SYNTAX)
			for (const w of row.write)
				expect(() => compileFilter(parseFilter(w), context), w).not.toThrow();
	});

	it('the README holds its rows and every field', () => {
		const cell = (s: string) => s.replace(/\|/g, '\\|');
		for (const row of FILTER_SYNTAX)
			expect(readme).toContain(
				`| ${row.write.map((w) => `\`${cell(w)}\``).join(' · ')} | ${en[`filter.syntax.${row.key}`]} |`,
			);
		for (const name of Object.keys(FIELDS))
			expect(readme).toContain(`| \`${name}\` | ${en[`filter.field.${name}`]} |`);
	});
});
