// The filter grammar as a table of what to write and what it means: the UI's Syntax panel shows
// it, and the README's table holds the same rows (tests/query/filter-syntax.test.ts checks).

export interface SyntaxRow {
	/** Spellings that mean the same, each a piece of filter text. */
	readonly write: readonly string[];
	readonly means: string;
	/** Its message key in the page's catalogs (filter.syntax.KEY), which say `means` in each language. */
	readonly key: string;
}

export const FILTER_SYNTAX: readonly SyntaxRow[] = [
	{
		write: ['rport:443', 'rport == 443', 'rport eq 443'],
		means: 'equal; names take * and ? globs: event:AfdConnect*',
		key: 'equal',
	},
	{ write: ['pid != 4', 'pid ne 4'], means: 'not equal', key: 'not-equal' },
	{
		write: ['bytes > 1000', 'bytes >= 1000', 'time < 1.5s', 'level <= info'],
		means: 'compare numbers, times since the start, levels',
		key: 'compare',
	},
	{ write: ['rport in {80 443}', 'rport:{80,443}'], means: 'any value of a set', key: 'set' },
	{
		write: ['rport:8000..8004', 'time:1s..2s'],
		means: 'a range, both ends included',
		key: 'range',
	},
	{ write: ['event contains Connect'], means: 'holds the text (case ignored)', key: 'contains' },
	{
		write: ['process matches "^(curl|wget)"', 'event ~ Connect$'],
		means: 'regular expression (case ignored)',
		key: 'matches',
	},
	{ write: ['status', 'SocketType'], means: 'a field alone: the event has that field', key: 'has' },
	{
		write: ['SocketType == SOCK_DGRAM', 'Backlog > 10', 'Option == SO_RCVBUF'],
		means: 'any decoded payload field by its name; values by number or by name',
		key: 'payload',
	},
	{ write: ['a b', 'a and b', 'a && b'], means: 'both', key: 'and' },
	{ write: ['a or b', 'a || b'], means: 'either', key: 'or' },
	{ write: ['not a', '!a', '-a'], means: 'not', key: 'not' },
	{ write: ['(a or b) c'], means: 'grouping', key: 'group' },
	{
		write: ['chrome', '"connection refused"'],
		means:
			'a plain word or quoted text: searched in event, provider, process and status names and addresses',
		key: 'text',
	},
];
