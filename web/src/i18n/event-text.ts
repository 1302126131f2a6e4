// Chinese names of Winsock-AFD events and fields (schema/winsock-afd-zh.json, generated): the
// title on Microsoft's Simplified Chinese page, or for events beyond it a description.
import { AFD_EVENT_TEXT_ZH, AFD_FIELD_NAMES_ZH, EVENT_SCHEMAS } from '../generated/schemas.ts';
import type { Lang } from './render.ts';

const AFD = 1;
const BY_NAME = new Map(
	EVENT_SCHEMAS.filter((e) => e.provider === AFD).map((e) => [e.name, AFD_EVENT_TEXT_ZH[e.id]]),
);

/**
 * What an AFD event is, in `lang`, beside its manifest name: the description of an event beyond
 * Microsoft's page, else its title; null when nothing to add.
 */
export function eventText(name: string, lang: Lang): string | null {
	if (lang !== 'zh') return null;
	const text = BY_NAME.get(name);
	return text?.description ?? text?.title ?? null;
}

/**
 * The name the events table shows in `lang`: in Chinese its title, the page's or for events
 * beyond it Sockscope's own (which `event:` accepts, decoder/afd-titles.ts), else the manifest name.
 */
export function eventTitle(name: string, lang: Lang): string {
	return (lang === 'zh' && BY_NAME.get(name)?.title) || name;
}

/** An AFD event field's name in `lang` (the manifest's when the page names it so). */
export function fieldName(name: string, lang: Lang): string {
	return lang === 'zh' ? (AFD_FIELD_NAMES_ZH[name] ?? name) : name;
}
