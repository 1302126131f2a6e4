// Edits of a filter expression made by clicks rather than typing: "filter on this" and "exclude
// this" on a cell or a statistic, the level and "errors only" toggles. Each adds or removes one
// top-level term, so the box always shows exactly what is applied.
import { failureText, type Text } from '../../i18n/render.ts';
import type { Message } from '../../lib/message.ts';
import {
	FilterError,
	formatFilter,
	parseFilter,
	type FilterNode,
} from '../../query/filter-parser.ts';

/**
 * The expression as text, as the filter box writes it: like formatFilter(), but a negated group
 * reads `not (…)`, plainer for people than `-(…)`.
 */
export function formatNode(n: FilterNode): string {
	switch (n.type) {
		case 'and':
			return n.items.map((x) => (x.type === 'or' ? `(${formatNode(x)})` : formatNode(x))).join(' ');
		case 'or':
			return n.items.map(formatNode).join(' or ');
		case 'not':
			return n.item.type === 'and' || n.item.type === 'or'
				? `not (${formatNode(n.item)})`
				: `-${formatNode(n.item)}`;
		default:
			return formatFilter(n);
	}
}

/** `term` negated: `-term`, or `not (a b)` when it has several parts. */
export function negateTerm(term: string): string {
	const node = parseFilter(term);
	if (!node) return term;
	return formatNode({ type: 'not', item: node });
}

function topLevelTerms(filter: string): FilterNode[] | null {
	try {
		const root = parseFilter(filter);
		if (!root) return [];
		return root.type === 'and' ? [...root.items] : [root];
	} catch (e) {
		if (e instanceof FilterError) return null;
		throw e;
	}
}

const same = (a: FilterNode, b: FilterNode) => formatNode(a) === formatNode(b);

/** The filter narrowed by `term` (or by its negation); unchanged if it already holds it. */
export function refine(filter: string, term: string, negate = false): string {
	const parsed = parseFilter(term);
	const add = negate ? negateTerm(term) : parsed ? formatNode(parsed) : '';
	if (!add) return filter;
	const text = filter.trim();
	if (!text) return add;
	const terms = topLevelTerms(text);
	const node = parseFilter(add)!;
	const parts = node.type === 'and' ? node.items : [node];
	if (terms && parts.every((p) => terms.some((t) => same(t, p)))) return text;
	// `a or b` then `c` must read `(a or b) c`: "and" binds tighter than "or".
	const root = terms && terms.length === 1 ? terms[0]! : null;
	return root?.type === 'or' ? `(${text}) ${add}` : `${text} ${add}`;
}

/** Whether `term` is one of the filter's top-level (ANDed) terms. */
export function hasTerm(filter: string, term: string): boolean {
	const terms = topLevelTerms(filter);
	const node = parseFilter(term);
	return terms !== null && node !== null && terms.some((t) => same(t, node));
}

/** Adds the term if missing, removes it (every top-level copy) if present. */
export function toggleTerm(filter: string, term: string): string {
	if (!hasTerm(filter, term)) return refine(filter, term);
	const node = parseFilter(term)!;
	const rest = topLevelTerms(filter)!.filter((t) => !same(t, node));
	if (rest.length === 0) return '';
	return formatNode(rest.length === 1 ? rest[0]! : { type: 'and', items: rest });
}

/** Where a filter error points: the character offset from the worker's "(at N)" message. */
export function errorPosition(message: string): number | null {
	const m = /\(at (\d+)\)$/.exec(message);
	return m ? Number(m[1]) - 1 : null;
}

/** The expression's own syntax error, as it is typed (unknown names show when applied). */
export function syntaxErrorOf(text: string): FilterError | null {
	try {
		parseFilter(text);
		return null;
	} catch (e) {
		return e instanceof FilterError ? e : null;
	}
}

/** A filter failure from the worker: its English text and, when it has one, its message. */
export type FilterFailure = { readonly error: string; readonly message?: Message };

/** An error as the box shows it: the message, and the text with the place it points to. */
export interface ShownError {
	/** In the reader's language (i18n/render.ts's Text). */
	readonly message: Text;
	readonly at: number | null;
	readonly text: string;
}

/**
 * The error under the box: the syntax error of what is typed (`syntax`, syntaxErrorOf(draft)),
 * else the worker's error about the applied filter while the box still holds it.
 */
export function shownErrorOf(
	draft: string,
	syntax: FilterError | null,
	applied: string,
	error: FilterFailure | string | null,
): ShownError | null {
	if (syntax) return { message: syntax.whole, at: syntax.at, text: draft };
	if (error && draft === applied) {
		const failure = typeof error === 'string' ? { error } : error;
		return { message: failureText(failure), at: errorPosition(failure.error), text: applied };
	}
	return null;
}
