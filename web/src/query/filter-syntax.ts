// The filter grammar as a table of what to write and what it means: the UI's Syntax panel shows
// it, and the README's table holds the same rows (tests/query/filter-syntax.test.ts checks).

export interface SyntaxRow {
	/** Spellings that mean the same, each a piece of filter text. */
	readonly write: readonly string[];
	readonly means: string;
}

export const FILTER_SYNTAX: readonly SyntaxRow[] = [
	{
		write: ['rport:443', 'rport == 443', 'rport eq 443'],
		means: 'equal; names take * and ? globs: event:AfdConnect*',
	},
	{ write: ['pid != 4', 'pid ne 4'], means: 'not equal' },
	{
		write: ['bytes > 1000', 'bytes >= 1000', 'time < 1.5s', 'level <= info'],
		means: 'compare numbers, times since the start, levels',
	},
	{ write: ['rport in {80 443}', 'rport:{80,443}'], means: 'any value of a set' },
	{ write: ['rport:8000..8004', 'time:1s..2s'], means: 'a range, both ends included' },
	{ write: ['event contains Connect'], means: 'holds the text (case ignored)' },
	{
		write: ['process matches "^(curl|wget)"', 'event ~ Connect$'],
		means: 'regular expression (case ignored)',
	},
	{ write: ['status', 'SocketType'], means: 'a field alone: the event has that field' },
	{
		write: ['SocketType == SOCK_DGRAM', 'Backlog > 10', 'Option == SO_RCVBUF'],
		means: 'any decoded payload field by its name; values by number or by name',
	},
	{ write: ['a b', 'a and b', 'a && b'], means: 'both' },
	{ write: ['a or b', 'a || b'], means: 'either' },
	{ write: ['not a', '!a', '-a'], means: 'not' },
	{ write: ['(a or b) c'], means: 'grouping' },
	{
		write: ['chrome', '"connection refused"'],
		means:
			'a plain word or quoted text: searched in event, provider, process and status names and addresses',
	},
];
