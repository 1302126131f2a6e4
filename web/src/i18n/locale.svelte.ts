// The page's language: the browser's on a first visit, then the reader's choice, kept on this
// device (localStorage). Text read through t() follows a switch at once.
import type { Message } from '../lib/message.ts';
import { LANGS, msg, render, textIn, type Lang, type Msg, type Text } from './render.ts';

const STORAGE_KEY = 'sockscope-lang';

function initial(): Lang {
	try {
		const saved = globalThis.localStorage?.getItem(STORAGE_KEY);
		if (saved && (LANGS as readonly string[]).includes(saved)) return saved as Lang;
	} catch {
		// Storage may be refused (privacy settings): fall back to the browser's language.
	}
	const wanted = globalThis.navigator?.languages ?? [globalThis.navigator?.language ?? 'en'];
	for (const l of wanted) {
		const base = l.toLowerCase().split('-')[0];
		if (base === 'zh') return 'zh';
		if (base === 'en') return 'en';
	}
	return 'en';
}

class Locale {
	lang = $state<Lang>(initial());

	set(lang: Lang): void {
		this.lang = lang;
		try {
			localStorage.setItem(STORAGE_KEY, lang);
		} catch {
			// Not remembered: the choice still holds for this page.
		}
		if (typeof document !== 'undefined') document.documentElement.lang = htmlLang(lang);
	}
}

export const locale = new Locale();

export function htmlLang(lang: Lang): string {
	return lang === 'zh' ? 'zh-Hans' : 'en';
}

/** The catalog's text for `key` in the page's language. */
export function t(key: string, params?: Readonly<Record<string, Text>>): string {
	return render(locale.lang, msg(key, params));
}

/** A message made elsewhere (findings, stories) in the page's language. */
export function tm(x: Text): string {
	return textIn(locale.lang, x);
}

/** A message the worker built (lib/message.ts names its shape) in the page's language; '' for none. */
export function tmessage(m: Message | null | undefined): string {
	return m ? textIn(locale.lang, m as Msg) : '';
}
