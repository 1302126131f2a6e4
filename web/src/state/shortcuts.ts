// Keyboard shortcuts, matched on the character a key types (event.key) so that they follow the
// user's layout: `/` is Shift+: on a French keyboard and `j` sits elsewhere on Dvorak, and both
// still work. Only when a key types no Latin character (Cyrillic, Greek, Hebrew…) does the
// physical key (event.code) stand in, as if the layout were US QWERTY.
import { msg, type Msg } from '../i18n/render.ts';

export type ShortcutAction =
	| 'focus-filter'
	| 'escape'
	| 'help'
	| 'next'
	| 'previous'
	| 'errors-only'
	| 'time-format'
	| 'panel-events'
	| 'panel-stats'
	| 'panel-sockets'
	| 'panel-dns'
	| 'panel-packets'
	| 'zoom-out'
	| 'zoom-reset'
	| 'time-reference'
	| 'theme'
	| 'mark'
	| 'next-mark'
	| 'previous-mark';

export interface ShortcutHelp {
	readonly keys: readonly string[];
	readonly does: Msg;
}

/** What `?` lists. The table's own keys (arrows, Page Up/Down, Home/End) are listed too. */
export const SHORTCUT_HELP: readonly ShortcutHelp[] = [
	{ keys: ['/'], does: msg('shortcut.focus-the-filter-box') },
	{ keys: ['Esc'], does: msg('shortcut.clear-the-filter-in-the-box-else-close-m') },
	{ keys: ['j', '↓'], does: msg('shortcut.next-event') },
	{ keys: ['k', '↑'], does: msg('shortcut.previous-event') },
	{
		keys: ['PgDn', 'PgUp', 'Home', 'End'],
		does: msg('shortcut.move-a-page-or-to-the-first-or-last-even'),
	},
	{
		keys: ['Shift+↓', 'Shift+↑', 'Shift+click', 'Ctrl+click'],
		does: msg('shortcut.select-several-events'),
	},
	{ keys: ['Ctrl+C'], does: msg('shortcut.copy-the-selected-events-as-tab-separate') },
	{ keys: ['Enter', 'Shift+F10'], does: msg('shortcut.filter-on-a-cell-of-the-selected-event') },
	{ keys: ['e'], does: msg('shortcut.errors-only-on-or-off') },
	{ keys: ['t'], does: msg('shortcut.time-as-utc-or-since-the-trace-start') },
	{ keys: ['Shift+T'], does: msg('shortcut.time-reference') },
	{ keys: ['1', '2', '3', '4', '5'], does: msg('shortcut.panels') },
	{ keys: ['-', '0'], does: msg('shortcut.zoom-the-timeline-out-or-reset-it') },
	{ keys: ['W', 'S', 'A', 'D', '+'], does: msg('shortcut.timeline-keys') },
	{ keys: ['d'], does: msg('shortcut.theme-system-light-dark') },
	{ keys: ['m'], does: msg('shortcut.mark') },
	{ keys: ['n', 'Shift+N'], does: msg('shortcut.next-mark') },
	{ keys: ['?'], does: msg('shortcut.this-list') },
];

const BY_CHARACTER: Record<string, ShortcutAction> = {
	'/': 'focus-filter',
	'?': 'help',
	j: 'next',
	k: 'previous',
	e: 'errors-only',
	t: 'time-format',
	// Wireshark's Ctrl+T, which the browser keeps for a new tab.
	T: 'time-reference',
	'1': 'panel-events',
	'2': 'panel-stats',
	'3': 'panel-sockets',
	'4': 'panel-dns',
	'5': 'panel-packets',
	'-': 'zoom-out',
	'0': 'zoom-reset',
	d: 'theme',
	m: 'mark',
	n: 'next-mark',
	N: 'previous-mark',
};

/** US QWERTY characters of the physical keys, for layouts that type no Latin letters. */
const US_KEYS: Record<string, [plain: string, shifted: string]> = {
	Slash: ['/', '?'],
	KeyJ: ['j', 'J'],
	KeyK: ['k', 'K'],
	KeyE: ['e', 'E'],
	KeyT: ['t', 'T'],
	KeyD: ['d', 'D'],
	KeyM: ['m', 'M'],
	KeyN: ['n', 'N'],
	Digit1: ['1', '!'],
	Digit2: ['2', '@'],
	Digit3: ['3', '#'],
	Digit4: ['4', '$'],
	Digit5: ['5', '%'],
	Digit0: ['0', ')'],
	Minus: ['-', '_'],
};

export interface KeyLike {
	readonly key: string;
	readonly code: string;
	readonly ctrlKey: boolean;
	readonly metaKey: boolean;
	readonly altKey: boolean;
	readonly shiftKey: boolean;
}

/** The character a key stands for: what it types, or its US QWERTY meaning outside Latin. */
export function characterOf(e: KeyLike): string {
	if (e.key.length === 1 && /[\x20-\x7e]/.test(e.key)) return e.key;
	const us = US_KEYS[e.code];
	return us ? us[e.shiftKey ? 1 : 0] : e.key;
}

/** The page-wide action of a key press, or null (then the key does what it normally does). */
export function shortcutOf(e: KeyLike): ShortcutAction | null {
	if (e.key === 'Escape') return 'escape';
	// Ctrl, Cmd and AltGr combinations belong to the browser and the system (AltGr types `/` on
	// some layouts, and arrives as Ctrl+Alt; its e.key is then the character, which is fine).
	if (e.metaKey || (e.ctrlKey && !e.altKey)) return null;
	return BY_CHARACTER[characterOf(e)] ?? null;
}

/** Whether the key goes to a text field, where letters must type rather than act. */
export function isTyping(target: EventTarget | null): boolean {
	if (!(target instanceof HTMLElement)) return false;
	if (target.isContentEditable) return true;
	if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
	return (
		target instanceof HTMLInputElement &&
		!['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'file'].includes(target.type)
	);
}
