// Messages in both languages, rendered by i18next from catalogs compiled into the bundle (no
// fetch, no eval: the page's Content-Security-Policy holds). Shared by the page and the CLI,
// which renders English only.
import i18next, { type i18n } from 'i18next';
import { statusExplanation } from '../decoder/status.ts';
import { dnsStatus } from '../dns/dns-status.ts';
import { EVENT_MAPS, EVENT_MAPS_ZH } from '../generated/schemas.ts';
import type { Message } from '../lib/message.ts';
import { formatBytes } from '../lib/format-size.ts';
import { formatDuration } from '../sockets/format.ts';
import { en } from './en.ts';
import { zh } from './zh.ts';

export type Lang = 'en' | 'zh';
export const LANGS: readonly Lang[] = ['en', 'zh'];

/** A value in a message: data shown as is, a number, another message, or a list of them. */
export type Text =
	| string
	| number
	| Msg
	| TextList
	| StatusText
	| DnsStatusText
	| DurationText
	| ValueText
	| BytesText;

/** A byte count, in the reader's units ("242 bytes", "242 字节", "1.2 MiB"). */
export interface BytesText {
	readonly bytes: number;
}

/**
 * A value's name from a manifest value map (abort and drop reasons), in the reader's language
 * where the schema names it (schema/winsock-afd-zh.json), else the manifest's name.
 */
export interface ValueText {
	readonly valueMap: string;
	readonly value: number;
}

/** A duration, in the reader's units ("41.2 s", "41.2 秒"). */
export interface DurationText {
	readonly durationMs: number;
}
/** What a DNS query's status means, in the reader's language (schema/dns-status.json). */
export interface DnsStatusText {
	readonly dnsStatus: number;
}
/** What an NTSTATUS means, in the reader's language (generated from schema/). */
export interface StatusText {
	readonly status: number;
	/** Without its closing full stop, to stand inside a sentence. */
	readonly bare?: boolean;
}
export interface TextList {
	readonly list: readonly Text[];
	/**
	 * How the items are joined: clauses by ", " / "，", "; " / "；", or a space (none in
	 * Chinese); items of an enumeration by ", " / "、" (`enum`).
	 */
	readonly sep: 'comma' | 'semicolon' | 'space' | 'enum';
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
	en: { comma: ', ', semicolon: '; ', space: ' ', enum: ', ' },
	zh: { comma: '，', semicolon: '；', space: '', enum: '、' },
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
	if ('durationMs' in x) return formatDuration(x.durationMs, lang);
	if ('bytes' in x) return formatBytes(x.bytes, lang);
	if ('valueMap' in x) {
		const zh = lang === 'zh' ? EVENT_MAPS_ZH[x.valueMap]?.[x.value] : undefined;
		return (
			zh ??
			EVENT_MAPS[x.valueMap]?.[x.value] ??
			render(lang, msg('story.reason', { reason: x.value }))
		);
	}
	if ('dnsStatus' in x) {
		const d = dnsStatus(x.dnsStatus);
		return (lang === 'zh' ? d.zh : d.plain) ?? d.plain ?? d.message ?? d.name;
	}
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
	return plainRender(lang, m.key, values) ?? i18nextRender(lang, m.key, values);
}

/** The message as i18next renders it (what plainRender must equal). */
export function i18nextRender(
	lang: Lang,
	key: string,
	values: Readonly<Record<string, string | number>>,
): string {
	let t = fixed.get(lang);
	if (!t) fixed.set(lang, (t = engine().getFixedT(lang)));
	return t(key, values) as string;
}

const CATALOGS: Record<Lang, Readonly<Record<string, string>>> = { en, zh };
const pluralRules = new Map<Lang, Intl.PluralRules>();
/** Value names that are i18next options (a message with one goes to i18next itself). */
const OPTION_NAMES = new Set([
	'lng',
	'lngs',
	'ns',
	'keyPrefix',
	'context',
	'ordinal',
	'defaultValue',
	'replace',
	'returnObjects',
	'returnDetails',
	'joinArrays',
	'postProcess',
	'interpolation',
	'skipInterpolation',
	'nest',
	'missingInterpolationHandler',
]);

/**
 * What i18next gives for a message of the plain kind the catalogs hold (`{{name}}` values, `_one`
 * / `_other` plurals by `count`), without its per-call option copies, which cost a sockets listing
 * more than its tracking; null for anything else (a missing key or value, nesting, formats,
 * option names), which i18next renders. Follows i18next's steps exactly: the plural key by
 * Intl.PluralRules (`_zero` first for 0), then each `{{…}}` in turn replaced at its first
 * occurrence, the search going on after the value (skipOnVariables); tests/i18n check it
 * against i18next for every catalog key.
 */
export function plainRender(
	lang: Lang,
	key: string,
	values: Readonly<Record<string, string | number>>,
): string | null {
	for (const k in values) if (OPTION_NAMES.has(k)) return null;
	const catalog = CATALOGS[lang];
	const count = values['count'];
	let template: string | undefined;
	if (typeof count === 'number') {
		let rules = pluralRules.get(lang);
		if (!rules) pluralRules.set(lang, (rules = new Intl.PluralRules(lang)));
		template =
			(count === 0 ? catalog[`${key}_zero`] : undefined) ??
			catalog[`${key}_${rules.select(count)}`] ??
			catalog[key];
	} else template = catalog[key];
	if (template === undefined || template.includes('{{-') || template.includes('$t(')) return null;
	let text = template;
	const variable = /\{\{(.+?)\}\}/g;
	for (let m = variable.exec(text), n = 0; m !== null && n < 1000; m = variable.exec(text), n++) {
		const name = m[1]!.trim();
		if (name.includes(',') || name.includes('.') || !Object.hasOwn(values, name)) return null;
		const v = values[name];
		const value = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
		if (value === null) return null;
		text = text.replace(m[0], () => value);
		variable.lastIndex += value.length - m[0].length;
	}
	return text.includes('$t(') ? null : text;
}

/** A message, list or value in `lang`. */
export function textIn(lang: Lang, x: Text): string {
	return String(textOf(lang, x));
}

/**
 * What a failure from the worker or the shell says, as a message: its catalogue message when it
 * has one (worker messages are built as Msg, lib/message.ts only names their shape), else its
 * English text as data.
 */
export function failureText(f: { readonly error: string; readonly message?: Message }): Text {
	return f.message ? (f.message as Msg) : f.error;
}

/** A message in English (what the CLI prints). */
export function english(x: Text): string {
	return textIn('en', x);
}
