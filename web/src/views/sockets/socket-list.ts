// The Sockets panel's list: one row per socket, a small filter language over its fields, sorting,
// and the events filter and time span that show a socket's own events in the Events panel.
import { formatBytes } from '../../lib/format-size.ts';
import { msg, type Lang, type Msg } from '../../i18n/render.ts';
import { formatDuration, ticksToMs } from '../../sockets/format.ts';
import type { SocketSummary } from '../../sockets/socket.ts';
import { namedEndpoint } from '../../sockets/names.ts';
import { globMatcher } from '../../query/glob.ts';
import { formatRelative } from '../events/row-format.ts';

export interface SocketRow {
	readonly socket: SocketSummary;
	readonly key: string;
	readonly process: string;
	readonly endpoint: string;
	readonly local: string;
	readonly remote: string;
	readonly state: string;
	/** Connect latency (or time to failure) in milliseconds, null without a connect outcome. */
	readonly connectMs: number | null;
	readonly bytesSent: number;
	readonly bytesReceived: number;
	readonly error: string;
	readonly endedBy: string;
	/** The state and "ended by" in English, which `state:` and `ended:` take besides the shown. */
	readonly english: { readonly state: string; readonly endedBy: string };
	/** Ticks of its first moment in the trace (the create, or its first event). */
	readonly openedTicks: number;
	/** Ticks to its end (the cleanup, or its last event while open). */
	readonly endTicks: number;
	readonly durationMs: number;
	/** Everything a plain word of the filter may match, lowercased (English and shown words). */
	readonly text: string;
}

export type SortKey =
	| 'process'
	| 'endpoint'
	| 'local'
	| 'remote'
	| 'state'
	| 'connectMs'
	| 'bytesSent'
	| 'bytesReceived'
	| 'error'
	| 'endedBy'
	| 'openedTicks'
	| 'durationMs';

/** A socket's state as the list names it, in the catalogue's words (sockets.state.*). */
export type StateWord = 'closed' | 'aborted' | 'failed' | 'open' | 'listening';

/** The reader's words for states and "ended by" (absent: the English names, as the CLI says). */
export interface RowWords {
	state(state: StateWord, connectFailed: boolean): string;
	endedBy(endedBy: string): string;
}

const STATE_WORD: Record<SocketSummary['state'], StateWord> = {
	closed: 'closed',
	aborted: 'aborted',
	failed: 'failed',
	// i18n: data (a socket state's identifier, as the CLI prints it; the page says it in its words)
	'open at end of trace': 'open',
};

export function rowOf(s: SocketSummary, words?: RowWords): SocketRow {
	const openedTicks = s.opened?.ticks ?? s.firstEvent.ticks;
	const endTicks = Math.max(openedTicks, s.closed?.ticks ?? s.lastEvent.ticks);
	const connectMs = s.connect ? (s.connect.ms ?? s.connect.failedAfterMs) : null;
	// i18n: data (a socket state's identifier, as the CLI prints it; the page says it in its words)
	const connectFailed = s.connect?.outcome === 'failed' && s.state !== 'open at end of trace';
	const word: StateWord =
		// i18n: data (a socket state's identifier, as the CLI prints it; the page says it in its words)
		s.listening && s.state === 'open at end of trace' ? 'listening' : STATE_WORD[s.state];
	const english = connectFailed
		? // i18n: data (the English row's state, as exports write it; the page passes its words)
			`${s.state} (connect failed)`
		: word === 'listening'
			? 'listening'
			: s.state;
	const state = words ? words.state(word, connectFailed) : english;
	const endedByEnglish = s.endedBy ?? '';
	const endedBy = words && s.endedBy ? words.endedBy(s.endedBy) : endedByEnglish;
	const row = {
		socket: s,
		key: s.key,
		process: s.pid === null ? s.process : `${s.process} (${s.pid})`,
		endpoint: s.endpoint,
		local: s.local ?? '',
		// `name (address:port)` when the trace's DNS answers name the peer.
		remote: s.remote === null ? '' : namedEndpoint(s.remoteName, s.remote),
		state,
		connectMs,
		bytesSent: s.bytesSent,
		bytesReceived: s.bytesReceived,
		error: s.error ?? '',
		endedBy,
		english: { state: english, endedBy: endedByEnglish },
		openedTicks,
		endTicks,
		durationMs: ticksToMs(endTicks - openedTicks),
	};
	const text = [
		row.process,
		row.endpoint,
		row.local,
		row.remote,
		...(s.remoteNames ?? []),
		row.state,
		row.error,
		row.endedBy,
		// The English words too: the filter takes them whatever the language shown.
		...(words ? [english, endedByEnglish] : []),
		s.abort?.reasonName ?? '',
	]
		.join(' ')
		.toLowerCase();
	return { ...row, text };
}

/** Text fields of `field:value` (substring, any case). */
const TEXT_FIELDS: Record<string, (r: SocketRow) => string> = {
	process: (r) => r.process,
	pid: (r) => String(r.socket.pid ?? ''),
	endpoint: (r) => r.endpoint,
	local: (r) => r.local,
	remote: (r) => r.remote,
	state: (r) => `${r.state}\n${r.english.state}`,
	error: (r) => r.error,
	status: (r) => r.error,
	endedby: (r) => `${r.endedBy}\n${r.english.endedBy}`,
	ended: (r) => `${r.endedBy}\n${r.english.endedBy}`,
};

/** Numeric fields of `field>N`, `field<N`, `field=N` (milliseconds, bytes, counts). */
const NUMBER_FIELDS: Record<string, (r: SocketRow) => number | null> = {
	duration: (r) => r.durationMs,
	latency: (r) => r.connectMs,
	connect: (r) => r.connectMs,
	sent: (r) => r.bytesSent,
	received: (r) => r.bytesReceived,
	bytes: (r) => r.bytesSent + r.bytesReceived,
	events: (r) => r.socket.eventCount,
	pid: (r) => r.socket.pid,
};

/**
 * Exact fields, spelled as the events filter spells them (`rport:443`, `raddr:10.0.0.5`), so a
 * filter made for a socket's events (the Compare view's Show sockets) selects the same sockets.
 */
const portOf = (endpoint: string | null) => /:(\d+)$/.exec(endpoint ?? '')?.[1] ?? '';
const hostOf = (endpoint: string | null) =>
	(endpoint ?? '')
		.replace(/:\d+$/, '')
		.replace(/^\[|\]$/g, '')
		.toLowerCase();
const EXACT_FIELDS: Record<string, (r: SocketRow) => readonly string[]> = {
	rport: (r) => [portOf(r.socket.remote)],
	lport: (r) => [portOf(r.socket.local)],
	port: (r) => [portOf(r.socket.local), portOf(r.socket.remote)],
	raddr: (r) => [hostOf(r.socket.remote)],
};

export type Test = (r: SocketRow) => boolean;

/** Milliseconds (plain, ms, s, us) or bytes (k, m): '1.5s' → 1500, '10k' → 10240. */
function numberOf(text: string): number | null {
	const m = /^(-?\d+(?:\.\d+)?)(ms|s|us|µs|k|kb|m|mb)?$/i.exec(text);
	if (!m) return null;
	const n = Number(m[1]);
	const unit = (m[2] ?? '').toLowerCase();
	const scale: Record<string, number> = {
		'': 1,
		ms: 1,
		s: 1000,
		us: 0.001,
		µs: 0.001,
		k: 1024,
		kb: 1024,
		m: 1024 * 1024,
		mb: 1024 * 1024,
	};
	return n * scale[unit]!;
}

function termOf(token: string): Test | Msg {
	const negate = token.startsWith('-') && token.length > 1;
	const body = negate ? token.slice(1) : token;
	let test: Test;
	const cmp = /^([a-z]+)(>=|<=|>|<|=)(.+)$/i.exec(body);
	const field = /^([a-z]+):(.*)$/i.exec(body);
	if (cmp && NUMBER_FIELDS[cmp[1]!.toLowerCase()]) {
		const get = NUMBER_FIELDS[cmp[1]!.toLowerCase()]!;
		const n = numberOf(cmp[3]!);
		if (n === null) return msg('sockets.filter-not-number', { value: cmp[3]! });
		const op = cmp[2]!;
		test = (r) => {
			const v = get(r);
			if (v === null) return false;
			return op === '>'
				? v > n
				: op === '<'
					? v < n
					: op === '>='
						? v >= n
						: op === '<='
							? v <= n
							: v === n;
		};
	} else if (field && field[1]!.toLowerCase() === 'host') {
		// host:*.example.com: a glob over every name the trace gave the remote address.
		const match = globMatcher(field[2]!);
		test = (r) => (r.socket.remoteNames ?? []).some(match);
	} else if (field && EXACT_FIELDS[field[1]!.toLowerCase()]) {
		const get = EXACT_FIELDS[field[1]!.toLowerCase()]!;
		const v = field[2]!.toLowerCase();
		test = (r) => get(r).includes(v);
	} else if (field && TEXT_FIELDS[field[1]!.toLowerCase()]) {
		const get = TEXT_FIELDS[field[1]!.toLowerCase()]!;
		const v = field[2]!.toLowerCase();
		test = (r) => get(r).toLowerCase().includes(v);
	} else if (cmp || field) {
		const name = (cmp ?? field)![1]!;
		return msg('sockets.filter-unknown-field', { name });
	} else {
		const v = body.toLowerCase();
		test = (r) => r.text.includes(v);
	}
	return negate ? (r) => !test(r) : test;
}

/** Compiles the list's filter: words all must match. Returns what is wrong when malformed. */
export function compileSocketFilter(filter: string): Test | Msg {
	const tokens = filter.trim().split(/\s+/).filter(Boolean);
	const tests: Test[] = [];
	for (const token of tokens) {
		const t = termOf(token);
		if (typeof t !== 'function') return t;
		tests.push(t);
	}
	return (r) => tests.every((t) => t(r));
}

export function sortRows(
	rows: readonly SocketRow[],
	key: SortKey,
	descending: boolean,
): SocketRow[] {
	const sign = descending ? -1 : 1;
	return [...rows].sort((a, b) => {
		const x = a[key];
		const y = b[key];
		// Missing values go last either way.
		if (x === null || x === '') return y === null || y === '' ? 0 : 1;
		if (y === null || y === '') return -1;
		const c =
			typeof x === 'number' && typeof y === 'number'
				? x - y
				: String(x).localeCompare(String(y), 'en', { numeric: true });
		return c * sign || a.openedTicks - b.openedTicks;
	});
}

/**
 * The rows shown: those of the finding picked (`keys`, null for all) that the filter keeps, in
 * the order asked. A malformed filter (what is wrong with it) keeps every row.
 */
export function shownRows(
	rows: readonly SocketRow[],
	filter: Test | Msg,
	keys: ReadonlySet<string> | null,
	key: SortKey,
	descending: boolean,
): SocketRow[] {
	const kept = rows.filter(
		(r) => (keys === null || keys.has(r.key)) && (typeof filter !== 'function' || filter(r)),
	);
	return sortRows(kept, key, descending);
}

export interface SortOrder {
	readonly key: SortKey;
	readonly descending: boolean;
}

/** A click on a column's head: sorts by it, or turns the order round when it already does. */
export function nextSort(order: SortOrder, key: SortKey): SortOrder {
	return order.key === key ? { key, descending: !order.descending } : { key, descending: false };
}

export type SortDirection = 'ascending' | 'descending' | 'none';

/** How the list is sorted by column `key`, in aria-sort's words. */
export function sortDirection(order: SortOrder, key: SortKey): SortDirection {
	if (order.key !== key) return 'none';
	return order.descending ? 'descending' : 'ascending';
}

/**
 * A click on a finding: picks it, or drops it when it is picked already. A finding about one
 * socket also selects that socket (`select`; null leaves the selection alone).
 */
export function pickFinding<F extends { readonly id: string; readonly sockets: readonly string[] }>(
	current: F | null,
	clicked: F,
): { finding: F | null; select: string | null } {
	const finding = current?.id === clicked.id ? null : clicked;
	const select = finding && finding.sockets.length === 1 ? finding.sockets[0]! : null;
	return { finding, select };
}

/** The lanes' time axis: the trace's span, widened to take in every socket shown. */
export function axisOf(
	span: { from: number; to: number },
	shown: readonly SocketRow[],
): { from: number; to: number } {
	return {
		from: Math.min(span.from, ...shown.map((r) => r.openedTicks)),
		to: Math.max(span.to, ...shown.map((r) => r.endTicks)),
	};
}

/** What a cell of the list says: a dash for nothing, sizes and durations made readable. */
export function cellText(r: SocketRow, key: SortKey, lang: Lang = 'en'): string {
	switch (key) {
		case 'connectMs':
			return msText(r.connectMs, lang);
		case 'bytesSent':
			return bytesText(r.bytesSent, lang);
		case 'bytesReceived':
			return bytesText(r.bytesReceived, lang);
		case 'openedTicks':
			return `${formatRelative(r.openedTicks)} ${lang === 'zh' ? '秒' : 's'}`;
		case 'durationMs':
			return formatDuration(r.durationMs, lang);
		default:
			return r[key] || '—';
	}
}

/** The Events panel's filter, time range and event to select for one socket's events. */
export function eventsOf(s: SocketSummary): {
	filter: string;
	range: { from: number; to: number };
	select: number;
} {
	const from = Math.min(s.opened?.ticks ?? s.firstEvent.ticks, s.firstEvent.ticks);
	const to = Math.max(s.closed?.ticks ?? s.lastEvent.ticks, s.lastEvent.ticks) + 1;
	const select =
		(s.connect?.outcome === 'failed' ? s.connect.endIndex : null) ??
		s.errors[0]?.index ??
		s.abort?.index ??
		s.opened?.index ??
		s.firstEvent.index;
	return { filter: `endpoint:${s.endpoint}`, range: { from, to }, select };
}

export const bytesText = (n: number, lang: Lang = 'en'): string =>
	n === 0 ? '—' : formatBytes(n, lang);
export const msText = (ms: number | null, lang: Lang = 'en'): string =>
	ms === null ? '—' : formatDuration(ms, lang);
