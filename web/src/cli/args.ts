// The command line's words: commands, the options each takes, and their help texts. Parsing is
// getopt's: an option that takes a value takes the next argument whatever it starts with
// (`--filter -status:error`), or `--name=value`; every option any command knows is recognised,
// and one known to another command but not to this one is a usage error that says so.
import { nearest } from '../lib/nearest.ts';

export class UsageError extends Error {}

/** Exit codes, as documented in the README and in `sockscope --help`. */
export const EXIT = { ok: 0, damaged: 1, usage: 2, notEtl: 2, internal: 3 } as const;

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
	out: {
		type: 'string',
		value: 'DIR',
		help: 'directory to write the tables into (pcapng: the file to write, - or none for stdout)',
	},
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
	/** The formats --format takes; the first is the default. */
	readonly formats?: readonly string[];
	/** The default instead when standard output is a terminal (a person reads it). */
	readonly terminalFormat?: string;
	readonly manyFiles?: boolean;
	/** --out names a folder, which standard output (`--out -`) cannot be. */
	readonly outIsFolder?: boolean;
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
		formats: ['ndjson', 'csv', 'table'],
		terminalFormat: 'table',
		notes: 'On a terminal the default is an aligned table; piped, one NDJSON line per socket.',
	},
	findings: {
		summary: 'refused connects, timeouts, aborts, leaks, …',
		args: 'FILE',
		options: ['json', 'format'],
		formats: ['list', 'table', 'ndjson', 'csv'],
		terminalFormat: 'table',
		notes:
			'On a terminal the default is an aligned table; piped, a list with each explanation.\n' +
			'--json prints one object with the socket count and every finding.',
	},
	export: {
		summary: 'tables of events, sockets, conversations, findings and packets for many traces',
		args: 'FILE...',
		options: ['format', 'out', 'filter'],
		formats: ['parquet', 'ndjson', 'csv'],
		manyFiles: true,
		requires: ['out'],
		outIsFolder: true,
		notes:
			'Writes Hive-partitioned tables: DIR/events/trace=STEM/part-0.parquet, and the same for\n' +
			'sockets, conversations, findings and packets (captured frames with their owners).\n' +
			'A damaged trace is reported and skipped.',
	},
	packets: {
		summary: 'one line per captured frame, with the process and socket that own it',
		args: 'FILE',
		options: ['format', 'filter', 'columns'],
		formats: ['ndjson', 'csv'],
		notes:
			'Columns: number time interface direction length protocol src dst tcp_flags payload_bytes\n' +
			'pid process socket reason drop_reason header_pid event info. The filter takes packet\n' +
			'fields as Wireshark spells them (tcp.flags.syn, frame.len>1000, ip.addr==10.0.0.5,\n' +
			'udp.port==53, dns, arp) and pid:, process:, socket:, host:, reason:.',
	},
	pcapng: {
		summary: 'the captured frames as pcapng for Wireshark, each commented with its process',
		args: 'FILE',
		options: ['out', 'filter'],
		notes:
			'Writes to --out F.pcapng, or to standard output. One interface block per capture\n' +
			'interface (if_tsresol 7: 100 ns), one enhanced packet block per frame whose comment\n' +
			'begins pid=<PID> process=<image>, or pid=unknown when no socket owns it.',
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
  2  usage or filter error, or a file that is not an ETL trace
  3  internal error`;

function optionLine(name: OptionName, c?: CommandSpec): string {
	const o: OptionSpec = OPTIONS[name];
	const formats = c?.formats;
	const value = name === 'format' && formats ? formats.join('|') : o.value;
	const flag = `${o.short ? `-${o.short}, ` : '    '}--${name}${value ? ` ${value}` : ''}`;
	const byDefault = c?.terminalFormat
		? `${c.terminalFormat} on a terminal, else ${formats![0]}`
		: formats?.[0];
	const help = name === 'format' && formats ? `${o.help} (default ${byDefault})` : o.help;
	return `  ${flag.padEnd(30)} ${help}`;
}

export function mainHelp(): string {
	const names = Object.keys(COMMANDS) as CommandName[];
	return [
		'usage: sockscope COMMAND [OPTIONS] FILE',
		'',
		"Decodes Windows ETW traces (.etl) and explains what a program's sockets did.",
		'FILE may be - for standard input. An option that takes a value takes the next argument,',
		'whatever it starts with (--filter -status:error), or --name=value.',
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
		...[...c.options, ...GLOBAL].map((o) => optionLine(o, c)),
		'',
		EXIT_TEXT,
	].join('\n');
}

function isCommand(s: string): s is CommandName {
	return Object.hasOwn(COMMANDS, s);
}

type Values = Partial<Record<OptionName, string | boolean>>;

interface Scanned {
	readonly values: Values;
	readonly positionals: string[];
	/** The first word that looks like an option and is none (reported once the command is known). */
	readonly unknown: string | null;
}

const SHORT = new Map<string, OptionName>(
	Object.entries(OPTIONS).flatMap(([name, o]) =>
		'short' in o ? [[o.short, name as OptionName] as const] : [],
	),
);

function isOption(s: string): s is OptionName {
	return Object.hasOwn(OPTIONS, s);
}

/** `--name VALUE` as the help writes it, for messages. */
function withValue(name: OptionName, formats?: readonly string[]): string {
	const value =
		name === 'format' && formats ? formats.join('|') : (OPTIONS[name] as OptionSpec).value;
	return value ? `--${name} ${value}` : `--${name}`;
}

/**
 * getopt_long's reading of the words: `--name=value`, `--name value` (the value whatever it
 * starts with), `-q`, bundled short switches (`-qh`), `-` as a word, `--` ending the options.
 */
function scan(
	argv: readonly string[],
	formatsOf: (words: readonly string[]) => readonly string[] | undefined,
): Scanned {
	const values: Values = {};
	const positionals: string[] = [];
	let unknown: string | null = null;
	const take = (name: OptionName, flag: string, i: number): number => {
		if (i + 1 >= argv.length)
			throw new UsageError(`${flag} needs a value: ${withValue(name, formatsOf(positionals))}`);
		values[name] = argv[i + 1]!;
		return i + 1;
	};
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i]!;
		if (a === '--') {
			positionals.push(...argv.slice(i + 1));
			break;
		}
		if (a.startsWith('--')) {
			const eq = a.indexOf('=');
			const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
			if (!isOption(name)) {
				unknown ??= `--${name}`;
				continue;
			}
			const o: OptionSpec = OPTIONS[name];
			if (o.type === 'boolean') {
				if (eq >= 0) throw new UsageError(`--${name} takes no value (it is a switch: --${name})`);
				values[name] = true;
			} else if (eq >= 0) values[name] = a.slice(eq + 1);
			else i = take(name, `--${name}`, i);
			continue;
		}
		if (a.startsWith('-') && a !== '-') {
			// Short options: switches may be bundled; one that takes a value ends the bundle.
			for (let k = 1; k < a.length; k++) {
				const name = SHORT.get(a[k]!);
				if (!name) {
					unknown ??= `-${a[k]}`;
					break;
				}
				if (OPTIONS[name].type === 'boolean') {
					values[name] = true;
					continue;
				}
				if (k + 1 < a.length) values[name] = a.slice(k + 1);
				else i = take(name, `-${a[k]}`, i);
				break;
			}
			continue;
		}
		positionals.push(a);
	}
	return { values, positionals, unknown };
}

/** "did you mean" for a word that is not one of `known`, or nothing. */
function didYouMean(word: string, ...known: (readonly string[])[]): string {
	for (const names of known) {
		const near = nearest(word, names);
		if (near) return `; did you mean ${near}?`;
	}
	return '';
}

function unknownCommand(word: string): UsageError {
	return new UsageError(`unknown command: ${word}${didYouMean(word, Object.keys(COMMANDS))}`);
}

function unknownOption(flag: string, command: CommandName | null): UsageError {
	const all = Object.keys(OPTIONS).map((o) => `--${o}`);
	const mine = command
		? [...(COMMANDS[command] as CommandSpec).options, ...GLOBAL].map((o) => `--${o}`)
		: all;
	return new UsageError(`unknown option ${flag}${didYouMean(flag, mine, all)}`);
}

/** What the process's streams are, where a default depends on them. */
export interface Terminal {
	/** Standard output is a terminal (a person reads it). */
	readonly stdoutIsTTY?: boolean;
}

export function parseCommandLine(argv: readonly string[], terminal: Terminal = {}): Parsed {
	const commandOf = (words: readonly string[]) =>
		words[0] !== undefined && isCommand(words[0]) ? words[0] : null;
	const { values, positionals, unknown } = scan(argv, (words) => {
		const c = commandOf(words);
		return c ? (COMMANDS[c] as CommandSpec).formats : undefined;
	});
	if (unknown !== null) throw unknownOption(unknown, commandOf(positionals));
	const [first, ...files] = positionals;
	if (first === undefined || first === 'help') {
		if (first === 'help' && files[0] !== undefined) {
			if (!isCommand(files[0])) throw unknownCommand(files[0]);
			return { kind: 'help', text: commandHelp(files[0]) };
		}
		if (values.version) return { kind: 'version' };
		if (values.help || first === 'help') return { kind: 'help', text: mainHelp() };
		throw new UsageError('a command is needed');
	}
	if (!isCommand(first)) throw unknownCommand(first);
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
	if (values.json && values.format !== undefined)
		throw new UsageError(`${command} takes --json or --format, not both`);
	const format =
		(values.format as string | undefined) ??
		(terminal.stdoutIsTTY ? spec.terminalFormat : undefined) ??
		spec.formats?.[0] ??
		'ndjson';
	if (spec.formats && !spec.formats.includes(format))
		throw new UsageError(
			`--format must be ${spec.formats.slice(0, -1).join(', ')} or ${spec.formats.at(-1)}, ` +
				`not ${format}${didYouMean(format, spec.formats)}`,
		);
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
	if (spec.outIsFolder && values.out === '-')
		throw new UsageError(
			`${command} writes a folder of tables: --out names it (- for standard output is for commands that write one file)`,
		);
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
