// Autocomplete for the filter box: field names while a word is being typed, then the values the
// trace holds for that field (event names, processes, providers, statuses, levels, kinds).

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
	readonly detail: string;
}

export interface Suggestions {
	/** The span of the text the chosen item replaces. */
	readonly from: number;
	readonly to: number;
	readonly items: readonly Suggestion[];
}

/** The filter language's fields, with what each matches (FILTER_FIELDS in filter-compile.ts). */
export const FIELD_HELP: readonly { field: string; detail: string }[] = [
	{ field: 'event', detail: 'event name, globs allowed: event:AfdConnect*' },
	{ field: 'process', detail: 'process name or PID' },
	{ field: 'status', detail: 'NTSTATUS name or code, or status:error' },
	{ field: 'raddr', detail: 'remote address or CIDR: raddr:10.0.0.0/8' },
	{ field: 'host', detail: 'remote host name from DNS answers: host:*.example.com' },
	{ field: 'rport', detail: 'remote port: rport:443' },
	{ field: 'laddr', detail: 'local address or CIDR' },
	{ field: 'lport', detail: 'local port' },
	{ field: 'addr', detail: 'local or remote address' },
	{ field: 'port', detail: 'local or remote port' },
	{ field: 'endpoint', detail: 'AFD endpoint pointer: the socket' },
	{ field: 'pid', detail: 'PID in the event header' },
	{ field: 'tid', detail: 'thread id' },
	{ field: 'cpu', detail: 'processor number' },
	{ field: 'level', detail: 'critical, error, warning, info, verbose, or <, >' },
	{ field: 'bytes', detail: 'byte count: bytes>1000' },
	{ field: 'time', detail: 'since the trace start: time>1.5s, time<200ms' },
	{ field: 'provider', detail: 'provider name or GUID' },
	{ field: 'kind', detail: 'record kind: event, system, classic, wpp…' },
	{ field: 'id', detail: 'event id: id:1018' },
	{ field: 'opcode', detail: 'opcode number' },
];

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
				detail: `${e.count.toLocaleString('en-US')} events`,
			}));
		case 'process':
			return vocab.processes.flatMap((p) => {
				const detail = `${p.count.toLocaleString('en-US')} events`;
				const byPid = {
					label: `${p.pid}${p.name ? ` (${p.name})` : ''}`,
					insert: `${p.pid}`,
					detail,
				};
				return p.name ? [{ label: p.name, insert: quote(p.name), detail }, byPid] : [byPid];
			});
		case 'provider':
			return vocab.providers.map((p) => ({ label: p, insert: quote(p), detail: 'provider' }));
		case 'status':
			return [
				{ label: 'error', insert: 'error', detail: 'any failed status' },
				{ label: 'ok', insert: 'ok', detail: 'a status that is not a failure' },
				...vocab.statuses.map((s) => ({
					label: s.name,
					insert: s.name,
					detail: `${s.wsa ? `${s.wsa} · ` : ''}${s.count.toLocaleString('en-US')} events`,
				})),
			];
		case 'level':
			return LEVELS.map((l) => ({ label: l, insert: l, detail: 'level' }));
		case 'kind':
			return KINDS.map((k) => ({ label: k, insert: k, detail: 'record kind' }));
		default:
			return [];
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
	const field = /^([A-Za-z_]\w*)(:|!=)(.*)$/s.exec(word);
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
			.map((s) => ({ ...s, insert: `${name}${op}${s.insert}` }));
		return items.length ? { from: start, to: end, items } : null;
	}
	if (!/^[\w.*-]+$/.test(word)) return null;
	const lower = word.toLowerCase();
	const fields = FIELD_HELP.filter((f) => f.field.startsWith(lower) && f.field !== lower).map(
		(f) => ({ label: `${f.field}:`, insert: `${f.field}:`, detail: f.detail }),
	);
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
