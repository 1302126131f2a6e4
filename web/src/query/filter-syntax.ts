// The filter grammar as a table of what to write and what it means: the UI's Syntax panel shows
// it, and the README's table holds the same rows, their meaning in the English catalogue's words
// (tests/query/filter-syntax.test.ts checks). What to write is filter text (i18n: data).

export interface SyntaxRow {
	/** Spellings that mean the same, each a piece of filter text. */
	readonly write: readonly string[];
	/** What it means: its message key in the catalogues (filter.syntax.KEY). */
	readonly key: string;
}

export const FILTER_SYNTAX: readonly SyntaxRow[] = [
	{
		// i18n: data (filter text)
		write: ['rport:443', 'rport == 443', 'rport eq 443'],
		key: 'equal',
	},
	// i18n: data (filter text)
	{ write: ['pid != 4', 'pid ne 4'], key: 'not-equal' },
	{
		write: ['bytes > 1000', 'bytes >= 1000', 'time < 1.5s', 'level <= info'],
		key: 'compare',
	},
	// i18n: data (filter text)
	{ write: ['rport in {80 443}', 'rport:{80,443}'], key: 'set' },
	{
		write: ['rport:8000..8004', 'time:1s..2s'],
		key: 'range',
	},
	// i18n: data (filter text)
	{ write: ['event contains Connect'], key: 'contains' },
	{
		// i18n: data (filter text)
		write: ['process matches "^(curl|wget)"', 'event ~ Connect$'],
		key: 'matches',
	},
	{ write: ['status', 'SocketType'], key: 'has' },
	{
		write: ['SocketType == SOCK_DGRAM', 'Backlog > 10', 'Option == SO_RCVBUF'],
		key: 'payload',
	},
	{ write: ['a b', 'a and b', 'a && b'], key: 'and' },
	{ write: ['a or b', 'a || b'], key: 'or' },
	{ write: ['not a', '!a', '-a'], key: 'not' },
	{ write: ['(a or b) c'], key: 'group' },
	{
		// i18n: data (filter text)
		write: ['chrome', '"connection refused"'],
		key: 'text',
	},
];
