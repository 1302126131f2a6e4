// Messages in both languages, rendered by i18next from catalogs compiled into the bundle (no
// fetch, no eval: the page's Content-Security-Policy holds). Shared by the page and the CLI,
// which renders English only.
import i18next, { type i18n } from 'i18next';
import { statusExplanation } from '../decoder/status.ts';
import { en } from './en.ts';
import { zh } from './zh.ts';

export type Lang = 'en' | 'zh';
export const LANGS: readonly Lang[] = ['en', 'zh'];

/** A value in a message: data shown as is, a number, another message, or a list of them. */
export type Text = string | number | Msg | TextList | StatusText;
/** What an NTSTATUS means, in the reader's language (generated from schema/). */
export interface StatusText {
	readonly status: number;
	/** Without its closing full stop, to stand inside a sentence. */
	readonly bare?: boolean;
}
export interface TextList {
	readonly list: readonly Text[];
	/** How the items are joined: ", " / "，", "; " / "；", or a space (none in Chinese). */
	readonly sep: 'comma' | 'semicolon' | 'space';
}
/** A message to render later in the reader's language: a catalog key and its values. */
export interface Msg {
	readonly key: string;
	readonly params?: Readonly<Record<string, Text>>;
}

/** A message; `count` in params picks the plural form. */
export function msg(key: string, params?: Readonly<Record<string, Text>>): Msg {
	return params ? { key, params } : { key };
}

export function list(items: readonly Text[], sep: TextList['sep']): TextList {
	return { list: items, sep };
}

const SEPARATORS: Record<Lang, Record<TextList['sep'], string>> = {
	en: { comma: ', ', semicolon: '; ', space: ' ' },
	zh: { comma: '，', semicolon: '；', space: '' },
};

let instance: i18n | null = null;
function engine(): i18n {
	if (instance) return instance;
	instance = i18next.createInstance();
	void instance.init({
		initAsync: false,
		resources: { en: { translation: en }, zh: { translation: zh } },
		lng: 'en',
		fallbackLng: false,
		keySeparator: false,
		nsSeparator: false,
		// Svelte escapes text; the CLI prints plain text.
		interpolation: { escapeValue: false },
		returnNull: false,
		showSupportNotice: false,
	} as Parameters<i18n['init']>[0]);
	return instance;
}

function textOf(lang: Lang, x: Text): string | number {
	if (typeof x === 'string' || typeof x === 'number') return x;
	if ('status' in x) {
		const text = statusExplanation(x.status, lang);
		return x.bare ? text.replace(/[.。]$/, '') : text;
	}
	if ('list' in x) return x.list.map((y) => String(textOf(lang, y))).join(SEPARATORS[lang][x.sep]);
	return render(lang, x);
}

/** One translate function per language: making one costs more than most messages' rendering. */
const fixed = new Map<Lang, ReturnType<i18n['getFixedT']>>();

/** The message in `lang`. */
export function render(lang: Lang, m: Msg): string {
	const values: Record<string, string | number> = {};
	for (const [k, v] of Object.entries(m.params ?? {})) values[k] = textOf(lang, v);
	let t = fixed.get(lang);
	if (!t) fixed.set(lang, (t = engine().getFixedT(lang)));
	return t(m.key, values) as string;
}

/** A message, list or value in `lang`. */
export function textIn(lang: Lang, x: Text): string {
	return String(textOf(lang, x));
}

/** A message in English (what the CLI prints). */
export function english(x: Text): string {
	return textIn('en', x);
}
