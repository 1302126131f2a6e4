// The command line's words: commands, the options each takes, and their help texts. Parsing is
// node:util parseArgs over every option any command knows; an option known to another command
// but not to this one is a usage error that says so.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

/** Exit codes, as documented in the README and in `sockscope --help`. */
export const EXIT = { ok: 0, damaged: 1, usage: 2, internal: 3 } as const;

interface OptionSpec {
	readonly type: 'string' | 'boolean';
	readonly short?: string;
	readonly value?: string;
	readonly help: string;
}

const OPTIONS = {
	json: { type: 'boolean', help: 'one JSON object instead of text' },
	format: { type: 'string', value: 'FORMAT', help: 'output format' },
	provider: {
		type: 'string',
		value: 'afd|all',
		help: 'afd: only Microsoft-Windows-Winsock-AFD events (default all)',
	},
	filter: {
		type: 'string',
		value: 'EXPR',
		help: "only events the filter selects (the web app's filter language; see the README)",
	},
	columns: {
		type: 'string',
		value: 'LIST',
		help: 'comma-separated columns to print, in order; payload fields by name',
	},
	out: { type: 'string', value: 'DIR', help: 'directory to write the tables into' },
	'fail-on-change': { type: 'boolean', help: 'exit 4 when anything changed (for scripts)' },
	quiet: { type: 'boolean', short: 'q', help: 'no progress on stderr' },
	help: { type: 'boolean', short: 'h', help: 'this help' },
	version: { type: 'boolean', short: 'V', help: 'the version' },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;

const GLOBAL: readonly OptionName[] = ['quiet', 'help', 'version'];

interface CommandSpec {
	readonly summary: string;
	readonly args: string;
	/** Options this command takes, besides --quiet, --help and --version. */
	readonly options: readonly OptionName[];
	readonly formats?: readonly string[];
	readonly manyFiles?: boolean;
	/** Options that must be given. */
	readonly requires?: readonly OptionName[];
	readonly notes?: string;
}

export const COMMANDS = {
	info: { summary: "the trace header's facts", args: 'FILE', options: ['json'] },
	decode: {
		summary: 'every record in time order, one NDJSON line or CSV row each',
		args: 'FILE',
		options: ['format', 'provider', 'filter', 'columns'],
		formats: ['ndjson', 'csv'],
		notes:
			'Columns: kind time filetime providerGuid provider id version level opcode task keyword pid\n' +
			'tid cpu name fields (all payload fields as JSON), or any payload field by name (Status,\n' +
			'SocketType, StatusName, …).',
	},
	stats: {
		summary: 'counts by kind, provider and event; damage',
		args: 'FILE',
		options: ['json'],
	},
	sockets: {
		summary: 'one line per reconstructed socket',
		args: 'FILE',
		options: ['format', 'columns'],
		formats: ['ndjson', 'csv'],
	},
	findings: {
		summary: 'refused connects, timeouts, aborts, leaks, …',
		args: 'FILE',
		options: ['json'],
	},
	export: {
		summary: 'tables of events, sockets, conversations and findings for many traces',
		args: 'FILE...',
		options: ['format', 'out', 'filter'],
		formats: ['parquet', 'ndjson', 'csv'],
		manyFiles: true,
		requires: ['out'],
		notes:
			'Writes Hive-partitioned tables: DIR/events/trace=STEM/part-0.parquet, and the same for\n' +
			'sockets, conversations and findings. A damaged trace is reported and skipped.',
	},
	diff: {
		summary: 'what changed between a trace that works and one that fails',
		args: 'BASELINE PROBLEM',
		options: ['format', 'fail-on-change'],
		formats: ['text', 'ndjson', 'csv'],
		manyFiles: true,
		notes:
			'Pairs (process image, remote name or address, protocol, or a listening port) are matched\n' +
			'across the two traces; each is told its changes: refused, failed, timeout, latency, leak,\n' +
			'dns-failure, drops, resets, new, gone, bytes. Exit 0 whatever changed; with --fail-on-change,\n' +
			'4 when something did (1 still wins when either trace is damaged).',
	},
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;

export interface Options {
	readonly command: CommandName;
	readonly files: string[];
	readonly json: boolean;
	readonly format: string;
	readonly provider: 'afd' | 'all';
	readonly filter: string | null;
	readonly columns: string[] | null;
	readonly out: string | null;
	readonly quiet: boolean;
	readonly failOnChange: boolean;
}

export type Parsed =
	| { readonly kind: 'help'; readonly text: string }
	| { readonly kind: 'version' }
	| { readonly kind: 'run'; readonly options: Options };

const EXIT_TEXT = `exit codes:
  0  done
  1  damaged input (what decoded before the damage is written; the damage goes to stderr)
  2  usage or filter error
  3  internal error`;

function optionLine(name: OptionName, formats?: readonly string[]): string {
	const o: OptionSpec = OPTIONS[name];
	const value = name === 'format' && formats ? formats.join('|') : o.value;
	const flag = `${o.short ? `-${o.short}, ` : '    '}--${name}${value ? ` ${value}` : ''}`;
	const help = name === 'format' && formats ? `${o.help} (default ${formats[0]})` : o.help;
	return `  ${flag.padEnd(30)} ${help}`;
}

export function mainHelp(): string {
	const names = Object.keys(COMMANDS) as CommandName[];
	return [
		'usage: sockscope COMMAND [OPTIONS] FILE',
		'',
		"Decodes Windows ETW traces (.etl) and explains what a program's sockets did.",
		'FILE may be - for standard input.',
		'',
		'commands:',
		...names.map((n) => `  ${n.padEnd(10)} ${COMMANDS[n].summary}`),
		'',
		'options:',
		...GLOBAL.map((n) => optionLine(n)),
		'',
		'`sockscope COMMAND --help` lists the options of a command.',
		'',
		EXIT_TEXT,
	].join('\n');
}

export function commandHelp(name: CommandName): string {
	const c: CommandSpec = COMMANDS[name];
	const flag = (o: OptionName) => {
		const value = o === 'format' ? c.formats!.join('|') : (OPTIONS[o] as OptionSpec).value;
		return value ? `[--${o} ${value}]` : `[--${o}]`;
	};
	const usage = `usage: sockscope ${name} ${c.args} ${c.options.map(flag).join(' ')}`.trimEnd();
	return [
		usage,
		'',
		c.summary[0]!.toUpperCase() + c.summary.slice(1) + '.',
		...(c.notes ? ['', c.notes] : []),
		'',
		'options:',
		...[...c.options, ...GLOBAL].map((o) => optionLine(o, c.formats)),
		'',
		EXIT_TEXT,
	].join('\n');
}

function isCommand(s: string): s is CommandName {
	return Object.hasOwn(COMMANDS, s);
}

/** Node's message for a parse failure, as one short sentence. */
function parseFailure(e: unknown): UsageError {
	const x = e as { code?: string; message?: string };
	const m = /^(Unknown option|Option) '([^']+)'/.exec(x.message ?? '');
	if (x.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && m)
		return new UsageError(`unknown option ${m[2]}`);
	if (x.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && m) {
		const flag = m[2]!.split(' ')[0]!;
		return new UsageError(
			/argument missing/.test(x.message!) ? `${flag} needs a value` : `${flag} takes no value`,
		);
	}
	return new UsageError((x.message ?? String(e)).split('\n')[0]!);
}

export function parseCommandLine(argv: readonly string[]): Parsed {
	const config: ParseArgsConfig = {
		args: [...argv],
		options: Object.fromEntries(
			Object.entries(OPTIONS).map(([name, o]) => [
				name,
				'short' in o ? { type: o.type, short: o.short } : { type: o.type },
			]),
		),
		allowPositionals: true,
		strict: true,
	};
	let values: Record<string, string | boolean | undefined>;
	let positionals: string[];
	try {
		({ values, positionals } = parseArgs(config) as {
			values: Record<string, string | boolean | undefined>;
			positionals: string[];
		});
	} catch (e) {
		throw parseFailure(e);
	}
	const [first, ...files] = positionals;
	if (first === undefined || first === 'help') {
		if (first === 'help' && files[0] !== undefined) {
			if (!isCommand(files[0])) throw new UsageError(`unknown command: ${files[0]}`);
			return { kind: 'help', text: commandHelp(files[0]) };
		}
		if (values.version) return { kind: 'version' };
		if (values.help || first === 'help') return { kind: 'help', text: mainHelp() };
		throw new UsageError('a command is needed');
	}
	if (!isCommand(first)) throw new UsageError(`unknown command: ${first}`);
	const command = first;
	const spec: CommandSpec = COMMANDS[command];
	if (values.help) return { kind: 'help', text: commandHelp(command) };
	if (values.version) return { kind: 'version' };
	for (const name of Object.keys(values) as OptionName[])
		if (!GLOBAL.includes(name) && !spec.options.includes(name))
			throw new UsageError(
				`${command} does not take --${name}` +
					(spec.options.length
						? ` (its options: ${spec.options.map((o) => `--${o}`).join(', ')})`
						: ''),
			);
	const format = (values.format as string | undefined) ?? spec.formats?.[0] ?? 'ndjson';
	if (spec.formats && !spec.formats.includes(format))
		throw new UsageError(`--format must be ${spec.formats.join(' or ')}, not ${format}`);
	const provider = (values.provider as string | undefined) ?? 'all';
	if (provider !== 'afd' && provider !== 'all')
		throw new UsageError(`--provider must be afd or all, not ${provider}`);
	const columns =
		values.columns === undefined
			? null
			: (values.columns as string)
					.split(',')
					.map((c) => c.trim())
					.filter((c) => c !== '');
	if (columns && columns.length === 0) throw new UsageError('--columns names no column');
	if (files.length === 0) throw new UsageError(`${command} needs ${spec.args}`);
	if (!spec.manyFiles && files.length > 1)
		throw new UsageError(`${command} reads one FILE; unexpected argument: ${files[1]}`);
	for (const name of spec.requires ?? [])
		if (values[name] === undefined)
			throw new UsageError(`${command} needs --${name} ${(OPTIONS[name] as OptionSpec).value}`);
	if (files.filter((f) => f === '-').length > 1)
		throw new UsageError('standard input (-) can be read only once');
	return {
		kind: 'run',
		options: {
			command,
			files,
			json: values.json === true,
			format,
			provider,
			filter: (values.filter as string | undefined) ?? null,
			columns,
			out: (values.out as string | undefined) ?? null,
			quiet: values.quiet === true,
			failOnChange: values['fail-on-change'] === true,
		},
	};
}
