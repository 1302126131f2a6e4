// Findings: what deserves a look, each with a count, a plain explanation, and the sockets and
// record indexes behind it (so the UI can go from a finding to the exact events).
import { explainStatus } from '../decoder/status.ts';
import { formatDuration, ticksToMs } from './format.ts';
import { namedEndpoint } from './names.ts';
import type { SocketSummary } from './socket.ts';
import type { PollActivity, TrackedTrace } from './tracker.ts';
import type { DnsNameRow } from '../dns/dns-report.ts';
import { english, list, msg, type Msg, type Text } from '../i18n/render.ts';

export type FindingKind =
	| 'connect-refused'
	| 'connect-timeout'
	| 'connect-failed'
	| 'retry-storm'
	| 'afd-abort'
	| 'transport-abort'
	| 'datagram-dropped'
	| 'open-at-end'
	| 'io-after-close'
	| 'tiny-send-storm'
	| 'busy-poll'
	| 'port-exhaustion'
	| 'address-in-use'
	| 'bind-failed'
	| 'tcp-connect-failed'
	| 'syn-retransmits'
	| 'dns-failure';

export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
	/** `kind:subject`, unique in one trace's findings. */
	readonly id: string;
	readonly kind: FindingKind;
	readonly severity: Severity;
	readonly title: string;
	/** What it is about: a process and peer, an abort or drop reason, a process. */
	readonly subject: string;
	/** How many: failed connects, aborted sockets, dropped datagrams, requests … (see kind). */
	readonly count: number;
	readonly explanation: string;
	/** Title and explanation as messages, for a reader of another language (see i18n/). */
	readonly message: { readonly title: Msg; readonly explanation: Msg };
	/** Keys of the sockets behind it (the first maxLinks). */
	readonly sockets: readonly string[];
	/** Record indexes of the events behind it, ascending (the first maxLinks). */
	readonly events: readonly number[];
	readonly socketCount: number;
	readonly eventCount: number;
}

export interface FindingOptions {
	/** Failed connects from one process to one peer that make a retry storm (default 5). */
	readonly retryStormMin?: number;
	/** Sockets and events listed per finding (default 1000). */
	readonly maxLinks?: number;
}

const REFUSED = new Set(['STATUS_CONNECTION_REFUSED', 'STATUS_REMOTE_NOT_LISTENING']);
const TIMEOUT = new Set(['STATUS_IO_TIMEOUT', 'STATUS_TIMEOUT']);
const PORT_EXHAUSTION = new Set(['STATUS_TOO_MANY_ADDRESSES', 'STATUS_INSUFFICIENT_RESOURCES']);
const ADDRESS_IN_USE = new Set(['STATUS_ADDRESS_ALREADY_EXISTS', 'STATUS_SHARING_VIOLATION']);
const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** What a group keeps of one of its sockets (not the summary: the sockets stream by). */
interface SocketRef {
	readonly key: string;
	readonly firstTicks: number;
	readonly lastTicks: number;
}

/** A failed connect, kept until every socket has been seen (for retry storms). */
interface FailedConnect extends SocketRef {
	readonly endIndex: number | null;
}

/** The sockets (any iterable: a reader may sum them up one at a time) and what else findings use. */
export type FindingInput = Pick<TrackedTrace, 'pollers' | 'thresholds' | 'dns'> & {
	readonly sockets: Iterable<SocketSummary>;
};

function refOf(s: SocketSummary): SocketRef {
	return { key: s.key, firstTicks: s.firstEvent.ticks, lastTicks: s.lastEvent.ticks };
}

interface Group {
	kind: FindingKind;
	subject: string;
	count: number;
	sockets: Set<string>;
	events: Set<number>;
	/** The first event of its earliest socket and the last of its latest, in ticks. */
	firstTicks: number;
	lastTicks: number;
	extra: number;
	statuses: Set<number>;
	/** What TCP/IP logged for the sockets (TcpOutcome.text → its message), when the trace has it. */
	tcp: Map<string, Text>;
	/** The DNS view's row of the name (dns-failure). */
	dnsName?: DnsNameRow;
	/** Whose sockets and why, for aborts, drops and TCP failures (the subject is both). */
	about?: string;
	reason?: string;
	/** The reason in the reader's language, and the subject built of both. */
	reasonText?: Text;
	subjectText?: Text;
}

function whoOf(s: { process: string; pid: number | null }): string {
	return s.pid !== null && s.process !== `PID ${s.pid}` ? `${s.process} (PID ${s.pid})` : s.process;
}

function statusText(status: number): string {
	const x = explainStatus(status);
	return `${x.name}${x.wsa ? `, ${x.wsa}` : ''}`;
}

class Groups {
	readonly #map = new Map<string, Group>();

	add(
		kind: FindingKind,
		subject: string,
		s: SocketRef | null,
		events: readonly number[],
		count = 1,
	): Group {
		const id = `${kind}:${subject}`;
		let g = this.#map.get(id);
		if (!g) {
			g = {
				kind,
				subject,
				count: 0,
				sockets: new Set(),
				events: new Set(),
				firstTicks: Infinity,
				lastTicks: -Infinity,
				extra: 0,
				statuses: new Set(),
				tcp: new Map(),
			};
			this.#map.set(id, g);
		}
		g.count += count;
		if (s && !g.sockets.has(s.key)) {
			g.sockets.add(s.key);
			g.firstTicks = Math.min(g.firstTicks, s.firstTicks);
			g.lastTicks = Math.max(g.lastTicks, s.lastTicks);
		}
		for (const e of events) g.events.add(e);
		return g;
	}

	values(): Group[] {
		return [...this.#map.values()];
	}
}

function span(g: Group): string {
	return formatDuration(ticksToMs(g.lastTicks - g.firstTicks));
}

/** Title, severity and explanation of a group. */
/** The socket's own connect events (findings lead to events that name the socket). */
function socketLinks(s: SocketSummary): number[] {
	const c = s.connect;
	const links = [c?.startIndex ?? null, c?.endIndex ?? null].filter((x): x is number => x !== null);
	return links.length ? links : [s.firstEvent.index];
}

/**
 * Title, severity and explanation of a group, with what TCP/IP logged for connect failures (in
 * English: sockets/tcp.ts words it).
 */
function describe(g: Group, t: FindingInput): [Msg, Severity, Msg] {
	const [title, severity, text] = describeAfd(g, t);
	const tcp = [...g.tcp.values()];
	if (tcp.length === 0) return [title, severity, text];
	return [title, severity, msg('finding.tcp-logged', { text, tcp: list(tcp, 'semicolon') })];
}

function describeAfd(g: Group, t: FindingInput): [Msg, Severity, Msg] {
	const count = g.count;
	const subject = g.subject;
	const statuses = list([...g.statuses].map(statusText), 'semicolon');
	const why = list(
		[...g.statuses].map((x) => ({ status: x })),
		'space',
	);
	const title = (kind: FindingKind) =>
		msg(`finding.${kind}.title`, { subject: g.subjectText ?? subject });
	switch (g.kind) {
		case 'connect-refused':
			return [
				title(g.kind),
				'warning',
				msg('finding.connect-refused.explanation', { count, subject, statuses, why }),
			];
		case 'connect-timeout':
			return [
				title(g.kind),
				'warning',
				msg('finding.connect-timeout.explanation', { count, subject, statuses }),
			];
		case 'connect-failed':
			return [
				title(g.kind),
				'warning',
				msg('finding.connect-failed.explanation', { count, subject, statuses, why }),
			];
		case 'retry-storm':
			return [
				title(g.kind),
				'error',
				msg('finding.retry-storm.explanation', { count, subject, span: span(g) }),
			];
		case 'afd-abort':
		case 'transport-abort':
			return [
				title(g.kind),
				'warning',
				msg(`finding.${g.kind}.explanation`, {
					count,
					about: g.about ?? subject,
					reason: g.reasonText ?? subject,
				}),
			];
		case 'datagram-dropped': {
			const bytes: Text = { bytes: g.extra };
			const reason = g.reasonText ?? subject;
			const params = { count, about: g.about ?? subject, reason, bytes };
			return [
				title(g.kind),
				'warning',
				/buffer space/i.test(g.reason ?? '')
					? msg('finding.datagram-dropped.explanation-buffer', params)
					: msg('finding.datagram-dropped.explanation', params),
			];
		}
		case 'open-at-end':
			return [title(g.kind), 'info', msg('finding.open-at-end.explanation', { count, subject })];
		case 'io-after-close':
			return [
				title(g.kind),
				'warning',
				msg('finding.io-after-close.explanation', {
					count,
					subject,
					sockets: msg('finding.sockets', { count: g.sockets.size }),
				}),
			];
		case 'tiny-send-storm':
			return [
				title(g.kind),
				'warning',
				msg('finding.tiny-send-storm.explanation', {
					count,
					subject,
					bytes: t.thresholds.tinySendBytes,
					sockets: msg('finding.sockets', { count: g.sockets.size }),
					least: t.thresholds.tinySendCount,
					window: formatDuration(t.thresholds.tinySendWindowMs),
				}),
			];
		case 'busy-poll':
			return [
				title(g.kind),
				'warning',
				msg('finding.busy-poll.explanation', {
					count,
					subject,
					least: t.thresholds.pollCount,
					window: formatDuration(t.thresholds.pollWindowMs),
				}),
			];
		case 'port-exhaustion':
			return [
				title(g.kind),
				'error',
				msg('finding.port-exhaustion.explanation', { count, subject, statuses }),
			];
		case 'address-in-use':
			return [
				title(g.kind),
				'warning',
				msg('finding.address-in-use.explanation', { count, subject, statuses }),
			];
		case 'bind-failed':
			return [
				title(g.kind),
				'warning',
				msg('finding.bind-failed.explanation', { count, subject, statuses, why }),
			];
		case 'tcp-connect-failed':
			return [
				title(g.kind),
				'warning',
				g.statuses.size > 0
					? msg('finding.tcp-connect-failed.explanation-status', {
							count,
							subject: g.subjectText ?? subject,
							statuses,
						})
					: msg('finding.tcp-connect-failed.explanation', {
							count,
							subject: g.subjectText ?? subject,
						}),
			];
		case 'syn-retransmits':
			return [
				title(g.kind),
				'warning',
				msg('finding.syn-retransmits.explanation', {
					count,
					subject,
					sockets: msg('finding.sockets', { count: g.sockets.size }),
				}),
			];
		case 'dns-failure': {
			const row = g.dnsName;
			const top = row?.statuses[0]?.status ?? 0;
			const who = (row?.processes ?? []).map((p) =>
				whoOf({ process: p.name ?? (p.pid === null ? '?' : `PID ${p.pid}`), pid: p.pid }),
			);
			return [
				title(g.kind),
				'warning',
				msg('finding.dns-failure.explanation', {
					count,
					subject,
					statuses: list(
						(row?.statuses ?? []).map((x) => x.name),
						'semicolon',
					),
					why: { dnsStatus: top },
					processes: list(who, 'comma'),
				}),
			];
		}
	}
}

/** Whose sockets and why: the subject in parts, the reason in the reader's language. */
function aboutAndWhy(g: Group, about: string, reason: string, why: Text): void {
	g.about = about;
	g.reason = reason;
	g.reasonText = why;
	g.subjectText = msg('finding.subject-reason', { about, reason: why });
}

function pollFinding(groups: Groups, p: PollActivity): void {
	if (p.busyAt !== null)
		groups.add('busy-poll', whoOf(p), null, [p.busyAt, ...p.events], p.busyCalls);
}

export function findingsOf(t: FindingInput, options: FindingOptions = {}): Finding[] {
	const retryMin = options.retryStormMin ?? 5;
	const maxLinks = options.maxLinks ?? 1000;
	const groups = new Groups();
	// Per process and remote: the subject a retry storm would have (its first socket's) and its sockets.
	const failedConnects = new Map<string, { subject: string; list: FailedConnect[] }>();
	for (const s of t.sockets) {
		const ref = refOf(s);
		const who = whoOf(s);
		const peer = `${who} → ${namedEndpoint(s.remoteName, s.remote)}`;
		const c = s.connect;
		if (c?.outcome === 'failed' && c.status !== null) {
			const name = c.statusName ?? '';
			const links = [c.startIndex, c.endIndex].filter((x): x is number => x !== null);
			if (!PORT_EXHAUSTION.has(name)) {
				const kind = REFUSED.has(name)
					? 'connect-refused'
					: TIMEOUT.has(name)
						? 'connect-timeout'
						: 'connect-failed';
				const g = groups.add(kind, peer, ref, links);
				g.statuses.add(c.status);
				if (s.tcp?.text) g.tcp.set(s.tcp.text, s.tcp.message ?? s.tcp.text);
			}
			const key = `${s.pid ?? s.eprocess}|${s.remote}`;
			let failed = failedConnects.get(key);
			if (!failed) failedConnects.set(key, (failed = { subject: peer, list: [] }));
			failed.list.push({ ...ref, endIndex: c.endIndex });
		}
		for (const e of s.errors) {
			const bindLike = e.op === 'bind' || (e.op === 'connect' && PORT_EXHAUSTION.has(e.name));
			if (!bindLike) continue;
			const kind = PORT_EXHAUSTION.has(e.name)
				? 'port-exhaustion'
				: ADDRESS_IN_USE.has(e.name)
					? 'address-in-use'
					: 'bind-failed';
			groups.add(kind, who, ref, [e.index]).statuses.add(e.status);
		}
		// Aborts and drops name whose sockets (and their peer, when they have one) and why.
		const about = s.remote ? peer : who;
		if (s.abort) {
			const kind = s.abort.by === 'afd' ? 'afd-abort' : 'transport-abort';
			const reason = s.abort.reasonName ?? `reason ${s.abort.reason}`;
			const g = groups.add(kind, `${about} — ${reason}`, ref, [s.abort.index]);
			aboutAndWhy(g, about, reason, { valueMap: 'afdAbort', value: s.abort.reason });
		}
		for (const r of s.dropReasons) {
			const g = groups.add('datagram-dropped', `${about} — ${r.name}`, ref, s.dropEvents, r.count);
			g.extra += r.bytes;
			aboutAndWhy(g, about, r.name, { valueMap: 'afdDatagramDrop', value: r.reason });
		}
		if (s.closed === null && s.closeRequested === null && s.endedBy !== 'unknown')
			groups.add('open-at-end', who, ref, [s.opened?.index ?? s.firstEvent.index]);
		if (s.ioAfterClose > 0)
			groups.add('io-after-close', who, ref, [...s.ioAfterCloseEvents], s.ioAfterClose);
		if (s.tinySendStorm !== null)
			groups.add('tiny-send-storm', who, ref, [s.tinySendStorm], s.tinySends);
		const tcp = s.tcp;
		if (tcp?.result === 'failed' && tcp.failure !== null && c?.outcome !== 'failed') {
			// TCP/IP saw a connect fail that the AFD events do not show (e.g. their events are missing).
			const g = groups.add('tcp-connect-failed', `${peer}: ${tcp.failure}`, ref, socketLinks(s));
			g.subjectText = msg('finding.subject-tcp', {
				about: peer,
				reason: tcp.failureMessage ?? tcp.failure,
			});
			if (tcp.status) g.statuses.add(tcp.status);
		}
		if (tcp && tcp.synRetransmits > 0 && tcp.result !== 'failed')
			groups.add('syn-retransmits', peer, ref, socketLinks(s), tcp.synRetransmits);
	}
	for (const { subject, list } of failedConnects.values()) {
		if (list.length < retryMin) continue;
		for (const x of list)
			groups.add('retry-storm', subject, x, x.endIndex === null ? [] : [x.endIndex]);
	}
	for (const p of t.pollers) pollFinding(groups, p);
	// A name no lookup resolved: whatever the application meant to reach, it never got an address.
	const never = (t.dns?.names ?? []).filter((n) => n.neverResolved && n.failed > 0);
	if (never.length > 0) {
		const events = new Map(never.map((n) => [n.key, [] as number[]]));
		for (const l of t.dns!.lookups) events.get(l.name.toLowerCase())?.push(l.index);
		for (const n of never)
			groups.add('dns-failure', n.name, null, events.get(n.key)!, n.failed).dnsName = n;
	}
	return groups
		.values()
		.map((g): Finding => {
			const [title, severity, explanation] = describe(g, t);
			const events = [...g.events].sort((a, b) => a - b);
			return {
				id: `${g.kind}:${g.subject}`,
				kind: g.kind,
				severity,
				title: english(title),
				subject: g.subject,
				count: g.count,
				explanation: english(explanation),
				message: { title, explanation },
				sockets: [...g.sockets].slice(0, maxLinks),
				events: events.slice(0, maxLinks),
				socketCount: g.sockets.size,
				eventCount: events.length,
			};
		})
		.sort(
			(a, b) =>
				SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
				b.count - a.count ||
				(a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
		);
}
