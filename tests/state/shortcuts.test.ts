// Shortcuts follow the character typed, so they work on any keyboard layout.
import { describe, expect, it } from 'vitest';
import { characterOf, shortcutOf, type KeyLike } from '../../web/src/state/shortcuts.ts';

const key = (k: string, code: string, mods: Partial<KeyLike> = {}): KeyLike => ({
	key: k,
	code,
	ctrlKey: false,
	metaKey: false,
	altKey: false,
	shiftKey: false,
	...mods,
});

describe('shortcuts on any layout', () => {
	it('QWERTY', () => {
		expect(shortcutOf(key('/', 'Slash'))).toBe('focus-filter');
		expect(shortcutOf(key('?', 'Slash', { shiftKey: true }))).toBe('help');
		expect(shortcutOf(key('j', 'KeyJ'))).toBe('next');
		expect(shortcutOf(key('Escape', 'Escape'))).toBe('escape');
	});

	it('AZERTY: "/" is Shift+":" and "?" is Shift+","', () => {
		expect(shortcutOf(key('/', 'Period', { shiftKey: true }))).toBe('focus-filter');
		expect(shortcutOf(key('?', 'KeyM', { shiftKey: true }))).toBe('help');
		// The key where QWERTY has "/" types "!" on AZERTY: no shortcut.
		expect(shortcutOf(key('!', 'Slash'))).toBe(null);
	});

	it('Dvorak: "j" is typed by the key QWERTY calls C', () => {
		expect(shortcutOf(key('j', 'KeyC'))).toBe('next');
		expect(shortcutOf(key('k', 'KeyV'))).toBe('previous');
		// QWERTY's J key types "h" on Dvorak: no shortcut.
		expect(shortcutOf(key('h', 'KeyJ'))).toBe(null);
	});

	it('Cyrillic: keys that type no Latin letter act as on US QWERTY', () => {
		expect(characterOf(key('о', 'KeyJ'))).toBe('j');
		expect(shortcutOf(key('о', 'KeyJ'))).toBe('next');
		expect(shortcutOf(key('.', 'Slash'))).toBe(null);
		expect(shortcutOf(key(',', 'Slash', { shiftKey: true }))).toBe(null);
	});

	it('AltGr characters count; Ctrl and Cmd combinations belong to the browser', () => {
		expect(shortcutOf(key('/', 'Digit7', { ctrlKey: true, altKey: true }))).toBe('focus-filter');
		expect(shortcutOf(key('j', 'KeyJ', { ctrlKey: true }))).toBe(null);
		expect(shortcutOf(key('k', 'KeyK', { metaKey: true }))).toBe(null);
	});
});
