// Autocomplete for the filter box: field names while a word is being typed, then the values the
// trace holds for that field (event names, processes, providers, statuses, levels, kinds), or the
// value names of a payload field. Both `field:value` and `field == value` are completed.
import { mapNames } from '../../decoder/event-fields.ts';
import { PAYLOAD_FIELDS, payloadField } from '../../decoder/payload-fields.ts';
import { msg, type Text } from '../../i18n/render.ts';
import { FIELDS } from '../../query/filter-fields.ts';

export interface Vocabulary {
	readonly events: readonly { name: string; count: number }[];
	readonly providers: readonly string[];
	readonly processes: readonly { pid: number; name: string | null; count: number }[];
	readonly statuses: readonly { name: string; wsa: string | null; count: number }[];
	readonly hosts?: readonly (readonly [string, readonly string[]])[];
}

export interface Suggestion {
	/** What the list shows. */
	readonly label: string;
	/** What replaces the word being typed. */
	readonly insert: string;
	readonly detail: Text;
}

export interface Suggestions {
	/** The span of the text the chosen item replaces. */
	readonly from: number;
	readonly to: number;
	readonly items: readonly Suggestion[];
}

/** The filter language's fields over columns, with what each matches (filter-fields.ts). */
export const FIELD_HELP: readonly { field: string; detail: Text }[] = Object.keys(FIELDS).map(
	(field) => ({ field, detail: msg(`filter.field.${field}`) }),
);

/** Payload fields by name, offered after the column fields. */
const PAYLOAD_HELP: readonly { field: string; detail: Text }[] = [...PAYLOAD_FIELDS.values()].map(
	(f) => ({ field: f.name.replace(/\s+/g, ''), detail: msg('suggest.payload-field') }),
);

const LEVELS = ['critical', 'error', 'warning', 'info', 'verbose'];
const KINDS = ['event', 'system', 'classic', 'instance', 'perfinfo', 'compact', 'wpp', 'header'];
const MAX_ITEMS = 12;

const quote = (s: string) => (/[\s()"]/.test(s) ? `"${s}"` : s);

function values(field: string, vocab: Vocabulary): Suggestion[] {
	switch (field) {
		case 'event':
			return vocab.events.map((e) => ({
				label: e.name,
				insert: quote(e.name),
				detail: msg('suggest.events', { count: e.count.toLocaleString('en-US') }),
			}));
		case 'process':
			return vocab.processes.flatMap((p) => {
				const detail = msg('suggest.events', { count: p.count.toLocaleString('en-US') });
				const byPid = {
					label: `${p.pid}${p.name ? ` (${p.name})` : ''}`,
					insert: `${p.pid}`,
					detail,
				};
				return p.name ? [{ label: p.name, insert: quote(p.name), detail }, byPid] : [byPid];
			});
		case 'provider':
			return vocab.providers.map((p) => ({
				label: p,
				insert: quote(p),
				detail: msg('suggest.provider'),
			}));
		case 'status':
			return [
				{ label: 'error', insert: 'error', detail: msg('suggest.status-error') },
				{ label: 'ok', insert: 'ok', detail: msg('suggest.status-ok') },
				...vocab.statuses.map((s) => ({
					label: s.name,
					insert: s.name,
					detail: s.wsa
						? msg('suggest.status-events', { wsa: s.wsa, count: s.count.toLocaleString('en-US') })
						: msg('suggest.events', { count: s.count.toLocaleString('en-US') }),
				})),
			];
		case 'level':
			return LEVELS.map((l) => ({ label: l, insert: l, detail: msg('suggest.level') }));
		case 'kind':
			return KINDS.map((k) => ({ label: k, insert: k, detail: msg('suggest.kind') }));
		case 'marked':
			return [
				{ label: 'yes', insert: 'yes', detail: msg('suggest.marked-yes') },
				{ label: 'no', insert: 'no', detail: msg('suggest.marked-no') },
			];
		default: {
			const payload = payloadField(field);
			if (!payload) return [];
			return payload.maps.flatMap(mapNames).map((n) => ({
				label: n,
				insert: quote(n),
				detail: payload.name,
			}));
		}
	}
}

/** What to offer for the word at `caret`, or null when nothing fits. */
export function suggest(text: string, caret: number, vocab: Vocabulary): Suggestions | null {
	let start = caret;
	while (start > 0 && !/[\s()]/.test(text[start - 1]!)) start--;
	let end = caret;
	while (end < text.length && !/[\s()]/.test(text[end]!)) end++;
	if (text[start] === '-') start++;
	const word = text.slice(start, caret);
	// `field == val…`: the field and operator are words of their own before this one.
	const spaced = /([A-Za-z_]\w*)\s*(==|!=|:|\beq|\bne)\s*$/.exec(text.slice(0, start));
	const field = spaced ? [word, spaced[1]!, '', word] : /^([A-Za-z_]\w*)(:|==|!=)(.*)$/s.exec(word);
	if (field) {
		const [, name, op, partial] = field;
		const needle = partial!.replace(/^"/, '').toLowerCase();
		const all = values(name!.toLowerCase(), vocab);
		const starts = all.filter((s) => s.label.toLowerCase().startsWith(needle));
		const inside = all.filter(
			(s) => !s.label.toLowerCase().startsWith(needle) && s.label.toLowerCase().includes(needle),
		);
		const items = [...starts, ...inside]
			.filter((s) => s.insert.toLowerCase() !== partial!.toLowerCase())
			.slice(0, MAX_ITEMS)
			.map((s) => ({ ...s, insert: spaced ? s.insert : `${name}${op}${s.insert}` }));
		return items.length ? { from: start, to: end, items } : null;
	}
	if (!/^[\w.*-]+$/.test(word)) return null;
	const lower = word.toLowerCase();
	const fields = [
		...FIELD_HELP.filter((f) => f.field.startsWith(lower) && f.field !== lower).map((f) => ({
			label: `${f.field}:`,
			insert: `${f.field}:`,
			detail: f.detail,
		})),
		...(lower.length < 2
			? []
			: PAYLOAD_HELP.filter(
					(f) => f.field.toLowerCase().startsWith(lower) && f.field.toLowerCase() !== lower,
				).map((f) => ({ label: `${f.field} ==`, insert: `${f.field} == `, detail: f.detail }))),
	];
	// A bare word also finds the values it is part of: "refused" offers
	// status:STATUS_CONNECTION_REFUSED, "curl" offers process:curl.exe.
	const found =
		lower.length < 2
			? []
			: (['event', 'process', 'status'] as const).flatMap((name) =>
					values(name, vocab)
						.filter((s) => s.label.toLowerCase().includes(lower) && !/^\d/.test(s.label))
						.map((s) => ({ ...s, label: `${name}:${s.label}`, insert: `${name}:${s.insert}` })),
				);
	const items = [...fields, ...found].slice(0, MAX_ITEMS);
	return items.length ? { from: start, to: end, items } : null;
}

/**
 * The box's text once `item` replaces the word being typed, and the caret after it. A space
 * follows unless one is there already; a field name (`process:`) goes on to its values, so the
 * list stays open.
 */
export function insertSuggestion(
	text: string,
	s: Pick<Suggestions, 'from' | 'to'>,
	item: Pick<Suggestion, 'insert'>,
): { text: string; caret: number; open: boolean } {
	const after = text.slice(s.to);
	const field = item.insert.endsWith(':');
	const spacer = field || /^\s/.test(after) ? '' : ' ';
	return {
		text: text.slice(0, s.from) + item.insert + spacer + after,
		caret: s.from + item.insert.length + spacer.length,
		open: field,
	};
}

/** What a key does in the box while a list of `count` suggestions is open. */
export type ListKey =
	| { readonly do: 'move'; readonly active: number }
	| { readonly do: 'accept' }
	| { readonly do: 'close' };

/**
 * Arrows move through the list (the first press lands on its first item), Tab or (once in the
 * list) Enter takes the active item, Escape closes the list. Other keys are the box's own.
 */
export function listKey(
	key: string,
	shift: boolean,
	list: { count: number; navigated: boolean; active: number },
): ListKey | null {
	if (key === 'ArrowDown' || key === 'ArrowUp') {
		const n = list.count;
		const active = list.navigated ? (list.active + (key === 'ArrowDown' ? 1 : n - 1)) % n : 0;
		return { do: 'move', active };
	}
	if ((key === 'Tab' && !shift) || (key === 'Enter' && list.navigated)) return { do: 'accept' };
	if (key === 'Escape') return { do: 'close' };
	return null;
}
