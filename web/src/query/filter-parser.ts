// The filter language, shared by the web UI, `sockscope decode --filter` and `sockscope export`.
// It reads what Wireshark users type as well as the short forms:
//   terms are ANDed (or joined by `and`, `&&`); `or`, `||` and parentheses group;
//   `-term`, `!term` or `not term` negates;
//   `field:value` or `field == value` (globs with * and ?), `!=`, `<`, `<=`, `>`, `>=`
//   (also `eq ne lt le gt ge`), `field in {a b c}` or `field:{a,b}`, ranges `field:a..b`,
//   `field contains text`, `field matches regex` (`~`; both case-insensitive);
//   a field name alone (not quoted) tests that the event has that field;
//   a bare word or "quoted text" searches the decoded text of each event.
// Which fields exist is the compiler's business (filter-fields.ts); a word that is not a field but
// is followed by an operator is reported there, with the nearest field name.
// Errors name the position (0-based character offset) where the expression went wrong.
import { english, msg, type Msg } from '../i18n/render.ts';
import { nearest } from '../lib/nearest.ts';

export type Op = ':' | '==' | '!=' | '>' | '>=' | '<' | '<=' | 'contains' | 'matches' | 'in';

export type FilterNode =
	| { readonly type: 'and' | 'or'; readonly items: readonly FilterNode[] }
	| { readonly type: 'not'; readonly item: FilterNode }
	| {
			readonly type: 'field';
			readonly field: string;
			readonly op: Op;
			/** The value as typed (a set as `{a b}`). */
			readonly value: string;
			/** The items of a set (`in {…}`), else absent. */
			readonly items?: readonly string[];
			readonly at: number;
			/** Where the value starts. */
			readonly valueAt: number;
	  }
	| {
			readonly type: 'text';
			readonly value: string;
			readonly at: number;
			/** "Quoted": always a text search; a bare field name tests that the event has it. */
			readonly quoted?: true;
	  };

export type FieldNode = Extract<FilterNode, { type: 'field' }>;

/**
 * A filter that does not parse or names what does not exist: a catalogue message and its values
 * (the page says it in the reader's language), and where (0-based); its English text, with the
 * position counted from 1, is what the CLI prints.
 */
export class FilterError extends Error {
	/** What is wrong, without where. */
	readonly text: Msg;
	/** What is wrong and where ("… (at 7)"), to render in any language. */
	readonly whole: Msg;
	constructor(
		text: Msg,
		readonly at: number,
	) {
		const whole = msg('filter.at', { text, at: at + 1 });
		super(english(whole));
		this.text = text;
		this.whole = whole;
	}
}

/** Word operators, with the Wireshark spellings of the symbolic ones. */
const WORD_OPS: Readonly<Record<string, Op>> = {
	contains: 'contains',
	matches: 'matches',
	in: 'in',
	eq: '==',
	ne: '!=',
	lt: '<',
	le: '<=',
	gt: '>',
	ge: '>=',
};
const SYMBOL_OP = /^(==|!=|<=|>=|=~|<>|=>|=<|<|>|:|=|~)/;
/** Symbols people type for an operator the language spells otherwise. */
const MISTYPED: Readonly<Record<string, string>> = {
	'=': '==',
	'<>': '!=',
	'=>': '>=',
	'=<': '<=',
};
const SYMBOLS: Readonly<Record<string, Op>> = {
	'==': '==',
	'!=': '!=',
	'<=': '<=',
	'>=': '>=',
	'<': '<',
	'>': '>',
	':': ':',
	'~': 'matches',
	'=~': 'matches',
};
const IDENT = /^[A-Za-z_][A-Za-z0-9_.]*/;
const SPACE = /\s/;

/** Parses an expression; an empty one gives null (everything matches). */
export function parseFilter(src: string): FilterNode | null {
	let p = 0;
	const skip = () => {
		while (p < src.length && SPACE.test(src[p]!)) p++;
	};
	const boundary = (i: number) => i >= src.length || /[\s(){}"]/.test(src[i]!);
	/** The keyword at p (case ignored), followed by a boundary. */
	const keyword = (word: string) =>
		src.slice(p, p + word.length).toLowerCase() === word && boundary(p + word.length);
	const orOp = () => (src.startsWith('||', p) ? 2 : keyword('or') ? 2 : 0);
	const andOp = () => (src.startsWith('&&', p) ? 2 : keyword('and') ? 3 : 0);
	const notOp = (): string | null => {
		if (keyword('not')) return 'not';
		const ch = src[p];
		if (ch === '!' && src[p + 1] !== '=') return '!';
		if (ch === '-') {
			if (p + 1 >= src.length || /[\s)]/.test(src[p + 1]!))
				throw new FilterError(msg('filter.minus-needs-term'), p);
			return '-';
		}
		return null;
	};

	function parseOr(): FilterNode {
		const items = [parseAnd()];
		skip();
		for (let n = orOp(); n; n = orOp()) {
			const at = p;
			const word = src.slice(p, p + n);
			p += n;
			skip();
			if (p >= src.length || src[p] === ')')
				throw new FilterError(msg('filter.word-needs-term', { word }), at);
			items.push(parseAnd());
			skip();
		}
		return items.length === 1 ? items[0]! : { type: 'or', items };
	}

	function parseAnd(): FilterNode {
		const items: FilterNode[] = [];
		for (;;) {
			skip();
			if (p >= src.length || src[p] === ')' || orOp()) break;
			const n = andOp();
			if (n) {
				p += n;
				continue;
			}
			items.push(parseUnary());
		}
		if (items.length === 0) {
			if (p >= src.length) throw new FilterError(msg('filter.expected-term'), src.length);
			throw new FilterError(msg('filter.unexpected', { text: src.slice(p, p + (orOp() || 1)) }), p);
		}
		return items.length === 1 ? items[0]! : { type: 'and', items };
	}

	function parseUnary(): FilterNode {
		skip();
		const not = notOp();
		if (not) {
			const at = p;
			p += not.length;
			skip();
			if (p >= src.length || src[p] === ')')
				throw new FilterError(msg('filter.word-needs-term', { word: not }), at);
			return { type: 'not', item: parseUnary() };
		}
		const ch = src[p]!;
		if (ch === '(') {
			p++;
			const inner = parseOr();
			skip();
			if (src[p] !== ')') throw new FilterError(msg('filter.missing-paren'), p);
			p++;
			return inner;
		}
		if (ch === ')') throw new FilterError(msg('filter.unexpected', { text: ')' }), p);
		if (ch === '"') {
			const at = p;
			return { type: 'text', value: quoted(), at, quoted: true };
		}
		return term();
	}

	/** A quoted string at p; p moves past it. */
	function quoted(): string {
		const end = src.indexOf('"', p + 1);
		if (end < 0) throw new FilterError(msg('filter.unterminated-quote'), p);
		const s = src.slice(p + 1, end);
		p = end + 1;
		return s;
	}

	/** A bare value or word: to white space or a parenthesis (and `stop`), quoted parts kept. */
	function bare(stop = /[\s()]/): string {
		let text = '';
		while (p < src.length && !stop.test(src[p]!)) {
			if (src[p] === '"') text += quoted();
			else text += src[p++];
		}
		return text;
	}

	/** The operator at p, if any: [op, its length] or a "did you mean" error. */
	function operator(field: string): [Op, number] | null {
		const sym = SYMBOL_OP.exec(src.slice(p))?.[1];
		if (sym) {
			if (MISTYPED[sym])
				throw new FilterError(msg('filter.unknown-operator', { op: sym, near: MISTYPED[sym] }), p);
			return [SYMBOLS[sym]!, sym.length];
		}
		const word = /^[A-Za-z]+/.exec(src.slice(p))?.[0];
		if (!word || !boundary(p + word.length)) return null;
		const op = WORD_OPS[word.toLowerCase()];
		if (op) return [op, word.length];
		// `port contain 80`: a near miss of a word operator after a field name.
		const near = word.length >= 5 ? nearest(word, ['contains', 'matches']) : null;
		if (near && /^[A-Za-z_]/.test(field) && boundary(p + word.length) && src[p + word.length])
			throw new FilterError(msg('filter.unknown-operator', { op: word, near }), p);
		return null;
	}

	function setItems(): string[] {
		const open = p;
		p++;
		const items: string[] = [];
		for (;;) {
			while (p < src.length && /[\s,]/.test(src[p]!)) p++;
			if (p >= src.length) throw new FilterError(msg('filter.missing-brace'), open);
			if (src[p] === '}') {
				p++;
				break;
			}
			items.push(src[p] === '"' ? quoted() : bare(/[\s,{}()]/));
		}
		if (items.length === 0) throw new FilterError(msg('filter.empty-set'), open);
		return items;
	}

	function term(): FilterNode {
		const at = p;
		const ident = IDENT.exec(src.slice(p))?.[0];
		if (ident) {
			const afterName = p + ident.length;
			p = afterName;
			skip();
			const spaced = p > afterName;
			const op = operator(ident);
			if (op) {
				const opText = src.slice(p, p + op[1]);
				p += op[1];
				skip();
				return fieldTerm(ident, op[0], opText, at, spaced);
			}
		}
		p = at;
		return { type: 'text', value: bare(), at };
	}

	function fieldTerm(
		field: string,
		op: Op,
		opText: string,
		at: number,
		spaced: boolean,
	): FilterNode {
		const valueAt = p;
		const needs = () => {
			const shown = spaced ? `${field} ${opText}` : `${field}${opText}`;
			return new FilterError(msg('filter.needs-value', { shown }), p);
		};
		if (src[p] === '{') {
			if (op !== ':' && op !== '==' && op !== 'in' && op !== '!=')
				throw new FilterError(msg('filter.set-op', { op: opText }), valueAt);
			const items = setItems();
			const value = `{${items.map(formatValue).join(' ')}}`;
			const set: FilterNode = { type: 'field', field, op: 'in', value, items, at, valueAt };
			return op === '!=' ? { type: 'not', item: set } : set;
		}
		if (op === 'in') throw new FilterError(msg('filter.in-set'), valueAt);
		if (p >= src.length || /[)]/.test(src[p]!)) throw needs();
		const value = src[p] === '"' ? quoted() : bare();
		if (value === '' && src[valueAt] !== '"') throw needs();
		return { type: 'field', field, op, value, at, valueAt };
	}

	skip();
	const root = p >= src.length ? null : parseOr();
	skip();
	if (p < src.length) throw new FilterError(msg('filter.unexpected', { text: src[p]! }), p);
	return root;
}

function formatValue(v: string): string {
	return v === '' || /[\s()"{},]/.test(v) ? `"${v}"` : v;
}

/** The expression back as text (for the URL and for tests). */
export function formatFilter(n: FilterNode | null): string {
	if (!n) return '';
	switch (n.type) {
		case 'and':
			return n.items
				.map((x) => (x.type === 'or' ? `(${formatFilter(x)})` : formatFilter(x)))
				.join(' ');
		case 'or':
			return n.items.map(formatFilter).join(' or ');
		case 'not':
			return `-${n.item.type === 'and' || n.item.type === 'or' ? `(${formatFilter(n.item)})` : formatFilter(n.item)}`;
		case 'field':
			if (n.items) return `${n.field} in {${n.items.map(formatValue).join(' ')}}`;
			if (n.op === 'contains' || n.op === 'matches')
				return `${n.field} ${n.op} ${formatValue(n.value)}`;
			return `${n.field}${n.op}${/[\s()"]/.test(n.value) || n.value === '' ? `"${n.value}"` : n.value}`;
		case 'text':
			return n.quoted ||
				/[\s()"{}]/.test(n.value) ||
				/^[A-Za-z_][\w.]*(==|!=|<=|>=|<|>|:|=|~)/.test(n.value) ||
				/^(-|!)/.test(n.value) ||
				/^(and|or|not)$/i.test(n.value)
				? `"${n.value}"`
				: n.value;
	}
}
