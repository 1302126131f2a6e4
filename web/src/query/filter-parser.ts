// The filter language, shared by the web UI and `sockscope decode --filter`:
//   terms are ANDed; `or` and parentheses group; `-term` or `not term` negates;
//   `field:value` (globs with * and ?), `field>N`, `>=`, `<`, `<=`, `!=`;
//   a bare word or "quoted text" searches the decoded text of each event.
// Errors name the position (0-based character offset) where the expression went wrong.

export type Op = ':' | '!=' | '>' | '>=' | '<' | '<=';

export type FilterNode =
	| { readonly type: 'and' | 'or'; readonly items: readonly FilterNode[] }
	| { readonly type: 'not'; readonly item: FilterNode }
	| {
			readonly type: 'field';
			readonly field: string;
			readonly op: Op;
			readonly value: string;
			readonly at: number;
	  }
	| { readonly type: 'text'; readonly value: string; readonly at: number };

export class FilterError extends Error {
	constructor(
		message: string,
		readonly at: number,
	) {
		super(`${message} (at ${at + 1})`);
	}
}

interface Token {
	readonly kind: 'word' | 'quoted' | '(' | ')' | '-';
	readonly text: string;
	readonly at: number;
}

const OPS: Op[] = ['>=', '<=', '!=', ':', '>', '<'];

function tokenize(src: string): Token[] {
	const tokens: Token[] = [];
	let i = 0;
	while (i < src.length) {
		const ch = src[i]!;
		if (/\s/.test(ch)) {
			i++;
		} else if (ch === '(' || ch === ')') {
			tokens.push({ kind: ch, text: ch, at: i++ });
		} else if (ch === '-' && (i + 1 >= src.length || /[\s)]/.test(src[i + 1]!))) {
			throw new FilterError('"-" must be followed by a term', i);
		} else if (
			ch === '-' &&
			(tokens.length === 0 || !/\S/.test(src[i - 1] ?? ' ') || src[i - 1] === '(')
		) {
			tokens.push({ kind: '-', text: '-', at: i++ });
		} else if (ch === '"') {
			const end = src.indexOf('"', i + 1);
			if (end < 0) throw new FilterError('unterminated quote', i);
			tokens.push({ kind: 'quoted', text: src.slice(i + 1, end), at: i });
			i = end + 1;
		} else {
			// A word runs to white space or a parenthesis; a quoted value may follow an operator.
			const start = i;
			let text = '';
			while (i < src.length && !/[\s()]/.test(src[i]!)) {
				if (src[i] === '"') {
					const end = src.indexOf('"', i + 1);
					if (end < 0) throw new FilterError('unterminated quote', i);
					text += src.slice(i + 1, end);
					i = end + 1;
				} else text += src[i++];
			}
			tokens.push({ kind: 'word', text, at: start });
		}
	}
	return tokens;
}

/** Parses an expression; an empty one gives null (everything matches). */
export function parseFilter(src: string): FilterNode | null {
	const tokens = tokenize(src);
	let p = 0;
	const peek = () => tokens[p];
	const isKeyword = (t: Token | undefined, word: string) =>
		t?.kind === 'word' && t.text.toLowerCase() === word;

	function parseOr(): FilterNode {
		const items = [parseAnd()];
		while (isKeyword(peek(), 'or')) {
			const t = tokens[p++]!;
			if (!peek() || peek()!.kind === ')')
				throw new FilterError('"or" needs a term after it', t.at);
			items.push(parseAnd());
		}
		return items.length === 1 ? items[0]! : { type: 'or', items };
	}

	function parseAnd(): FilterNode {
		const items: FilterNode[] = [];
		while (p < tokens.length && peek()!.kind !== ')' && !isKeyword(peek(), 'or')) {
			if (isKeyword(peek(), 'and')) {
				p++;
				continue;
			}
			items.push(parseUnary());
		}
		if (items.length === 0) {
			const t = peek();
			throw new FilterError(t ? `unexpected "${t.text}"` : 'expected a term', t?.at ?? src.length);
		}
		return items.length === 1 ? items[0]! : { type: 'and', items };
	}

	function parseUnary(): FilterNode {
		const t = peek()!;
		if (t.kind === '-' || isKeyword(t, 'not')) {
			p++;
			if (!peek() || peek()!.kind === ')')
				throw new FilterError(`"${t.text}" needs a term after it`, t.at);
			return { type: 'not', item: parseUnary() };
		}
		if (t.kind === '(') {
			p++;
			const inner = parseOr();
			if (peek()?.kind !== ')') throw new FilterError('missing ")"', peek()?.at ?? src.length);
			p++;
			return inner;
		}
		if (t.kind === ')') throw new FilterError('unexpected ")"', t.at);
		p++;
		if (t.kind === 'quoted') return { type: 'text', value: t.text, at: t.at };
		return termOf(t);
	}

	const root = tokens.length === 0 ? null : parseOr();
	if (p < tokens.length) throw new FilterError(`unexpected "${tokens[p]!.text}"`, tokens[p]!.at);
	return root;
}

function termOf(t: Token): FilterNode {
	const m = /^([A-Za-z_][A-Za-z0-9_]*)(>=|<=|!=|:|>|<)(.*)$/s.exec(t.text);
	if (!m) return { type: 'text', value: t.text, at: t.at };
	const [, field, op, value] = m;
	if (!OPS.includes(op as Op))
		throw new FilterError(`unknown operator ${op}`, t.at + field!.length);
	if (value === '') throw new FilterError(`"${field}${op}" needs a value`, t.at + t.text.length);
	return { type: 'field', field: field!.toLowerCase(), op: op as Op, value: value!, at: t.at };
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
			return `${n.field}${n.op}${/[\s()"]/.test(n.value) ? `"${n.value}"` : n.value}`;
		case 'text':
			return /[\s()"]/.test(n.value) || /^[A-Za-z_]\w*(>=|<=|!=|:|>|<)/.test(n.value)
				? `"${n.value}"`
				: n.value;
	}
}
