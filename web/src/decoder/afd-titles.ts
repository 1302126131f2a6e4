// The Chinese title of each AFD event (schema/winsock-afd-zh.json: Microsoft's page's, or a short
// one of Sockscope's for the events beyond it), by manifest name: what the events table shows in
// Chinese and what `event:` accepts besides the name.
import { AFD_EVENT_TEXT_ZH, EVENT_SCHEMAS } from '../generated/schemas.ts';

const AFD = 1;

/** Manifest name → Chinese title, or description for the events the page does not list. */
export const AFD_TEXT_ZH: ReadonlyMap<
	string,
	{ readonly title?: string; readonly description?: string }
> = new Map(
	EVENT_SCHEMAS.filter((e) => e.provider === AFD && AFD_EVENT_TEXT_ZH[e.id]).map((e) => [
		e.name,
		AFD_EVENT_TEXT_ZH[e.id]!,
	]),
);

/** The Chinese title of an AFD event, or undefined for none. */
export function afdTitleZh(name: string): string | undefined {
	return AFD_TEXT_ZH.get(name)?.title;
}
