// Marks, saved filters and colouring rules as the page keeps them: pure functions over lists and
// a storage like localStorage.
import { describe, expect, it } from 'vitest';
import {
	loadMarks,
	markAfter,
	readsMarks,
	saveMarks,
	toggleMark,
} from '../../../web/src/views/marking/event-marks.ts';
import {
	loadSavedFilters,
	removeFilter,
	renameFilter,
	saveFilter,
	storeSavedFilters,
} from '../../../web/src/views/marking/saved-filters.ts';
import {
	activeFilters,
	DEFAULT_RULES,
	editRule,
	loadColourRules,
	moveRule,
	rowColours,
	storeColourRules,
} from '../../../web/src/views/marking/colour-rules.ts';

function memoryStorage() {
	const m = new Map<string, string>();
	return {
		m,
		getItem: (k: string) => m.get(k) ?? null,
		setItem: (k: string, v: string) => void m.set(k, v),
		removeItem: (k: string) => void m.delete(k),
	};
}

describe('marks', () => {
	it('toggle, step round the ends, and are kept per trace', () => {
		let marks = toggleMark(new Set(), 40);
		marks = toggleMark(marks, 7);
		marks = toggleMark(marks, 90);
		expect(markAfter(marks, null, 1)).toBe(7);
		expect(markAfter(marks, null, -1)).toBe(90);
		expect(markAfter(marks, 7, 1)).toBe(40);
		expect(markAfter(marks, 50, -1)).toBe(40);
		expect(markAfter(marks, 90, 1)).toBe(7);
		expect(markAfter(marks, 7, -1)).toBe(90);
		expect(markAfter(new Set(), 3, 1)).toBe(null);
		const s = memoryStorage();
		saveMarks(s, 'aaaa', marks);
		saveMarks(s, 'bbbb', new Set([1]));
		expect([...loadMarks(s, 'aaaa')]).toEqual([7, 40, 90]);
		expect([...loadMarks(s, 'bbbb')]).toEqual([1]);
		saveMarks(s, 'bbbb', toggleMark(new Set([1]), 1));
		expect(s.m.has('sockscope.marks.bbbb')).toBe(false);
		s.m.set('sockscope.marks.cccc', '[1, -2, "x", 3.5, 4]');
		expect([...loadMarks(s, 'cccc')]).toEqual([1, 4]);
		s.m.set('sockscope.marks.dddd', '{nope');
		expect(loadMarks(s, 'dddd').size).toBe(0);
	});

	it('tell which filters read them', () => {
		expect(readsMarks('marked:yes')).toBe(true);
		expect(readsMarks('status:error and not marked')).toBe(true);
		expect(readsMarks('event:AfdSend')).toBe(false);
	});
});

describe('saved filters', () => {
	it('save, replace by name, rename, delete and come back', () => {
		let list = saveFilter([], 'Errors', 'status:error');
		list = saveFilter(list, 'DNS', 'rport:53');
		list = saveFilter(list, 'Errors', 'status:error and process:chrome.exe');
		expect(list).toEqual([
			{ name: 'Errors', filter: 'status:error and process:chrome.exe' },
			{ name: 'DNS', filter: 'rport:53' },
		]);
		expect(saveFilter(list, '  ', 'x')).toEqual(list);
		expect(renameFilter(list, 1, 'Errors')).toEqual(list);
		list = renameFilter(list, 1, 'Name lookups');
		expect(list[1]!.name).toBe('Name lookups');
		const s = memoryStorage();
		storeSavedFilters(s, list);
		expect(loadSavedFilters(s)).toEqual(list);
		expect(removeFilter(list, 0)).toEqual([{ name: 'Name lookups', filter: 'rport:53' }]);
		s.m.set(
			'sockscope.saved-filters',
			'[{"name":"ok","filter":""},{"name":3},null,{"name":"ok","filter":"x"}]',
		);
		expect(loadSavedFilters(s)).toEqual([{ name: 'ok', filter: '' }]);
	});
});

describe('colouring rules', () => {
	it('start with errors, aborts and DNS, and turn off one or all', () => {
		expect(DEFAULT_RULES.rules.map((r) => r.colour)).toEqual(['red', 'orange', 'blue']);
		expect(activeFilters(DEFAULT_RULES)[0]).toBe('status:error');
		const off = editRule(DEFAULT_RULES, 0, { ...DEFAULT_RULES.rules[0]!, enabled: false });
		expect(activeFilters(off)).toHaveLength(2);
		expect(activeFilters({ ...DEFAULT_RULES, enabled: false })).toEqual([]);
	});

	it('colour each row by its first active rule', () => {
		const rules = editRule(DEFAULT_RULES, 1, { ...DEFAULT_RULES.rules[1]!, enabled: false });
		// Active: errors (0), DNS (1).
		const colours = rowColours(rules, [10, 11, 12], [0, -1, 1]);
		expect([...colours]).toEqual([
			[10, 'red'],
			[12, 'blue'],
		]);
	});

	it('are edited, moved and kept', () => {
		let rules = editRule(DEFAULT_RULES, 3, {
			name: 'Big',
			filter: 'bytes>1000',
			colour: 'green',
			enabled: true,
		});
		rules = moveRule(rules, 3, -1);
		expect(rules.rules.map((r) => r.colour)).toEqual(['red', 'orange', 'green', 'blue']);
		expect(moveRule(rules, 0, -1)).toBe(rules);
		rules = editRule(rules, 0, null);
		const s = memoryStorage();
		storeColourRules(s, { ...rules, enabled: false });
		expect(loadColourRules(s)).toEqual({ ...rules, enabled: false });
		s.m.set(
			'sockscope.colour-rules',
			'{"rules":[{"name":"x","filter":"","colour":"pink","enabled":true}]}',
		);
		expect(loadColourRules(s)).toEqual({ enabled: true, rules: [] });
		s.m.set('sockscope.colour-rules', 'broken');
		expect(loadColourRules(s)).toBe(DEFAULT_RULES);
	});
});
