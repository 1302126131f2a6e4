// Filter edits made by clicks: refine, exclude, toggles, and where an error points.
import { describe, expect, it } from 'vitest';
import { msg, textIn } from '../../../web/src/i18n/render.ts';
import { parseFilter } from '../../../web/src/query/filter-parser.ts';
import {
	errorPosition,
	hasTerm,
	negateTerm,
	refine,
	shownErrorOf,
	syntaxErrorOf,
	toggleTerm,
} from '../../../web/src/views/filter/filter-edit.ts';

describe('filter edits', () => {
	it('narrows an empty, a plain and an "or" filter', () => {
		expect(refine('', 'process:5200')).toBe('process:5200');
		expect(refine('status:error', 'process:5200')).toBe('status:error process:5200');
		expect(refine('pid:4 or pid:8', 'cpu:1')).toBe('(pid:4 or pid:8) cpu:1');
	});

	it('excludes single and compound terms', () => {
		expect(refine('', 'event:AfdSend', true)).toBe('-event:AfdSend');
		expect(refine('x', 'raddr:10.0.0.5 rport:8081', true)).toBe(
			'x not (raddr:10.0.0.5 rport:8081)',
		);
		expect(negateTerm('event:"My Event"')).toBe('-event:"My Event"');
	});

	it('does not add a term twice', () => {
		expect(refine('status:error process:5200', 'process:5200')).toBe('status:error process:5200');
	});

	it('toggles a term on and off, wherever it is among the others', () => {
		const on = toggleTerm('event:Afd*', '-level:verbose');
		expect(on).toBe('event:Afd* -level:verbose');
		expect(hasTerm(on, '-level:verbose')).toBe(true);
		expect(hasTerm(on, 'not level:verbose')).toBe(true);
		expect(toggleTerm(on, '-level:verbose')).toBe('event:Afd*');
		expect(toggleTerm('status:error', 'status:error')).toBe('');
		expect(toggleTerm('status:error pid:4 cpu:1', 'pid:4')).toBe('status:error cpu:1');
	});

	it('every edit still parses', () => {
		for (const f of [
			refine('a or (b c)', 'event:"x y"', true),
			toggleTerm('(a or b) -c', 'status:error'),
			refine('"quoted text"', 'time>=2026-03-14T09:26:53.5897932Z'),
			toggleTerm('not (a b) c', 'c'),
		])
			expect(() => parseFilter(f), f).not.toThrow();
	});

	it('reads the position of an error from its message', () => {
		expect(errorPosition('unknown field "foo"; fields: event, id (at 5)')).toBe(4);
		expect(errorPosition('superseded by a newer query')).toBe(null);
	});
});

describe('the error under the filter box', () => {
	const workerError = 'unknown field "colour" (at 1)';

	it('is the syntax error of what is typed, at its place', () => {
		const draft = 'status:error (';
		const syntax = syntaxErrorOf(draft);
		expect(syntax).not.toBe(null);
		expect(shownErrorOf(draft, syntax, 'status:error', workerError)).toEqual({
			message: syntax!.whole,
			at: syntax!.at,
			text: draft,
		});
		expect(errorPosition(syntax!.message)).toBe(syntax!.at);
	});

	it('is the worker’s error while the box holds the filter it is about', () => {
		const applied = 'colour:red';
		expect(shownErrorOf(applied, syntaxErrorOf(applied), applied, workerError)).toEqual({
			message: workerError,
			at: 0,
			text: applied,
		});
		// With its message, the worker's error is said in the reader's language.
		const coded = {
			error: workerError,
			message: msg('filter.at', {
				text: msg('filter.unknown-field-near', { field: 'colour', near: 'color' }),
				at: 1,
			}),
		};
		const shown = shownErrorOf(applied, null, applied, coded)!;
		expect(shown.at).toBe(0);
		expect(textIn('zh', shown.message)).toBe(
			'未知字段“colour”；是否要输入 color？（第 1 个字符处）',
		);
		const edited = 'colour:blue';
		expect(shownErrorOf(edited, syntaxErrorOf(edited), applied, workerError)).toBe(null);
		expect(shownErrorOf(applied, null, applied, null)).toBe(null);
	});
});
