// What the shortcuts do in a trace view, and the arrow keys on its panel tabs.
import { describe, expect, it } from 'vitest';
import type { ShortcutAction } from '../../../web/src/state/shortcuts.ts';
import { PANELS, type Panel } from '../../../web/src/state/view-hash.ts';
import { zoomedOut } from '../../../web/src/views/timeline/timeline-data.ts';
import { toggleTerm } from '../../../web/src/views/filter/filter-edit.ts';
import {
	cancelsKey,
	keyCommand,
	tabAfter,
	type KeyContext,
} from '../../../web/src/views/trace/trace-keys.ts';

const span = { from: 0, to: 1000 };
const idle: KeyContext = {
	typing: false,
	dialogOpen: false,
	selected: false,
	filter: '',
	range: null,
	span,
};
const ALL: ShortcutAction[] = [
	'focus-filter',
	'escape',
	'help',
	'next',
	'previous',
	'errors-only',
	'time-format',
	'time-reference',
	'panel-events',
	'panel-stats',
	'panel-sockets',
	'zoom-out',
	'zoom-reset',
	'theme',
];

describe('shortcuts in a trace view', () => {
	it('do nothing while typing or with a dialog open', () => {
		const busy = { ...idle, selected: true, filter: 'x', range: { from: 1, to: 2 } };
		for (const action of ALL) {
			expect(keyCommand(action, { ...busy, typing: true })).toBe(null);
			expect(keyCommand(action, { ...busy, dialogOpen: true })).toBe(null);
		}
	});

	it('leave help and the theme to the page', () => {
		expect(keyCommand('help', idle)).toBe(null);
		expect(keyCommand('theme', idle)).toBe(null);
	});

	it('Esc drops the selection first, then the filter, then nothing', () => {
		expect(keyCommand('escape', { ...idle, selected: true, filter: 'x' })).toEqual({
			do: 'deselect',
		});
		expect(keyCommand('escape', { ...idle, filter: 'x' })).toEqual({ do: 'filter', filter: '' });
		expect(keyCommand('escape', idle)).toBe(null);
	});

	it('e turns errors-only on and off', () => {
		const on = keyCommand('errors-only', { ...idle, filter: 'process:x' });
		expect(on).toEqual({ do: 'filter', filter: toggleTerm('process:x', 'status:error') });
		if (on?.do !== 'filter') throw new Error('a filter command');
		expect(keyCommand('errors-only', { ...idle, filter: on.filter })).toEqual({
			do: 'filter',
			filter: toggleTerm(on.filter, 'status:error'),
		});
	});

	it('zoom out and reset only with a range', () => {
		expect(keyCommand('zoom-out', idle)).toBe(null);
		expect(keyCommand('zoom-reset', idle)).toBe(null);
		const range = { from: 400, to: 500 };
		expect(keyCommand('zoom-out', { ...idle, range })).toEqual({
			do: 'range',
			range: zoomedOut(range, span),
		});
		expect(keyCommand('zoom-out', { ...idle, range: { from: 0, to: 900 } })).toEqual({
			do: 'range',
			range: null,
		});
		expect(keyCommand('zoom-reset', { ...idle, range })).toEqual({ do: 'range', range: null });
	});

	it('j and k move through the table; 1 and 2 pick a panel; t switches the time', () => {
		expect(keyCommand('next', idle)).toEqual({ do: 'move', step: 1 });
		expect(keyCommand('previous', idle)).toEqual({ do: 'move', step: -1 });
		expect(keyCommand('panel-events', idle)).toEqual({ do: 'panel', panel: 'events' });
		expect(keyCommand('panel-stats', idle)).toEqual({ do: 'panel', panel: 'stats' });
		expect(keyCommand('panel-sockets', idle)).toEqual({ do: 'panel', panel: 'sockets' });
		expect(keyCommand('time-format', idle)).toEqual({ do: 'time-mode' });
	});

	it('cancel the key’s own effect only where it would get in the way', () => {
		const cancelled = ALL.flatMap((a) => {
			const c = keyCommand(a, { ...idle, selected: true, range: { from: 1, to: 2 } });
			return c && cancelsKey(c) ? [a] : [];
		});
		expect(cancelled).toEqual(['focus-filter', 'next', 'previous']);
	});
});

describe('arrow keys on the panel tabs', () => {
	const walk = (key: string) => {
		const seen: Panel[] = [];
		let p: Panel = PANELS[0]!;
		for (let i = 0; i < PANELS.length; i++) seen.push((p = tabAfter(p, key)!));
		return seen;
	};

	it('visit every tab round the ends, either way', () => {
		expect(walk('ArrowRight')).toEqual([...PANELS.slice(1), PANELS[0]]);
		expect(walk('ArrowLeft')).toEqual([...PANELS].reverse());
	});

	it('ignore other keys', () => {
		expect(tabAfter('events', 'ArrowDown')).toBe(null);
		expect(tabAfter('events', 'Enter')).toBe(null);
	});

	it('sets the time reference on the selected event only (Shift+T)', () => {
		expect(keyCommand('time-reference', idle)).toBeNull();
		expect(keyCommand('time-reference', { ...idle, selected: true })).toEqual({
			do: 'time-reference',
		});
	});
});
