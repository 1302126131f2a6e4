// A socket's life in one sentence, e.g. "chrome.exe (PID 4120) connected to 142.250.74.46:443 in
// 38 ms, sent 12.4 KiB, received 1.2 MiB, closed by the application after 41.2 s". Built as a
// message (i18n/render.ts) so the page can tell it in the reader's language; storyOf is English.
import { english, list, msg, type Msg, type Text } from '../i18n/render.ts';
import { IP_PROTOCOLS } from '../generated/codes.ts';
import { protocolLabel, ticksToMs } from './format.ts';
import { namedEndpoint } from './names.ts';
import type { SocketSummary } from './socket.ts';

/** Remotes a datagram socket's story names one by one. */
const STORY_PEERS = 4;
const REFUSED = new Set(['STATUS_CONNECTION_REFUSED', 'STATUS_REMOTE_NOT_LISTENING']);
const TIMED_OUT = new Set(['STATUS_IO_TIMEOUT', 'STATUS_TIMEOUT']);

function who(s: SocketSummary): string {
	return s.pid !== null && s.process !== `PID ${s.pid}` ? `${s.process} (PID ${s.pid})` : s.process;
}

/** The peer as `name (address:port)` when the trace's lookups name it. */
function peer(s: SocketSummary): string | null {
	return s.remote === null ? null : namedEndpoint(s.remoteName, s.remote);
}

/** "a, b and c", or "a, b, c, d and 2 more" past `shown` items. */
function andList(items: readonly Text[], total: number): Text {
	const more = total - items.length;
	if (more > 0) return msg('story.list-more', { first: list(items, 'enum'), count: more });
	if (items.length === 1) return items[0]!;
	return msg('story.list-and', { first: list(items.slice(0, -1), 'enum'), last: items.at(-1)! });
}

/** Clauses said one after the other ("connected to X" "in 38 ms"). */
function clauses(...parts: (Text | null | false)[]): Text {
	return list(
		parts.filter((p): p is Text => p !== null && p !== false),
		'space',
	);
}

/** The same label as a message: 'raw', 'protocol 58' and 'socket' are words, in the reader's language. */
function protocolText(type: number | null, protocol: number | null): Text {
	const label = protocolLabel(type, protocol);
	if (label === 'raw') return msg('socket.kind.raw');
	if (label === 'socket') return msg('socket.kind.socket');
	if (protocol !== null && !(protocol in IP_PROTOCOLS) && label === `protocol ${protocol}`)
		return msg('socket.kind.protocol', { protocol });
	return label;
}

/** What the socket was for: its first clause. */
function opening(s: SocketSummary): Text {
	const label = protocolLabel(s.type, s.protocol);
	const kind =
		label === 'socket'
			? msg('story.socket')
			: msg('story.labelled-socket', { label: protocolText(s.type, s.protocol) });
	const early = s.origin === 'before-trace' || s.origin === 'missing-create';
	const since =
		s.origin === 'before-trace' ? msg('story.since-before-trace') : msg('story.since-no-create');
	const w = who(s);
	if (s.listening)
		return clauses(
			msg('story.listened', { who: w, local: s.local ?? msg('story.unknown-address') }),
			s.accepts > 0 && msg('story.listened-accepts', { count: s.accepts }),
			early && msg('story.early-socket', { since }),
		);
	if (s.listener !== null || (s.origin === 'accepted' && s.remote))
		return clauses(
			msg('story.accepted', { who: w, remote: peer(s) ?? msg('story.unknown-peer') }),
			s.local !== null && msg('story.on', { local: s.local }),
		);
	const c = s.connect;
	const to = peer(s) ?? msg('story.unknown-address');
	if (c?.outcome === 'connected')
		return clauses(
			msg('story.connected', { who: w, to }),
			c.ms !== null && msg('story.in', { duration: { durationMs: c.ms } }),
		);
	if (c?.outcome === 'failed') {
		const name = c.statusName ?? msg('story.an-error');
		const how = REFUSED.has(c.statusName ?? '')
			? msg('story.how-refused')
			: TIMED_OUT.has(c.statusName ?? '')
				? msg('story.how-timed-out')
				: msg('story.how-failed');
		// Chinese says when before what: "5 秒后被拒绝".
		return c.failedAfterMs !== null
			? msg('story.connect-failed-after', {
					who: w,
					to,
					how,
					name,
					duration: { durationMs: c.failedAfterMs },
				})
			: msg('story.connect-failed', { who: w, to, how, name });
	}
	if (c?.outcome === 'pending') return msg('story.connecting', { who: w, to });
	if (s.peers.length > 1) {
		const each = s.peers.slice(0, STORY_PEERS).map((p) =>
			msg('story.peer-flow', {
				remote: namedEndpoint(p.remoteName, p.remote),
				sent: { bytes: p.bytesSent },
				received: { bytes: p.bytesReceived },
			}),
		);
		return msg('story.with-peers', {
			opening: clauses(
				msg('story.datagrams-peers', { who: w, count: s.peers.length }),
				s.local !== null && msg('story.from', { local: s.local }),
				early && msg('story.early-kind', { kind, since }),
			),
			peers: andList(each, s.peers.length),
		});
	}
	if (early)
		return s.remote
			? msg('story.used-to', { who: w, kind, remote: peer(s)!, since })
			: msg('story.used', { who: w, kind, since });
	if (s.type === 2 && s.remote)
		return clauses(
			msg('story.datagrams', { who: w, remote: peer(s)! }),
			s.local !== null && msg('story.from', { local: s.local }),
		);
	if (s.error && s.local === null && s.errors.some((e) => e.op === 'bind'))
		return msg('story.bind-failed', {
			who: w,
			kind,
			error: s.error,
			why: { status: s.errors.find((e) => e.op === 'bind')!.status, bare: true },
		});
	return clauses(
		msg('story.opened', { who: w, kind }),
		s.local !== null && msg('story.on', { local: s.local }),
	);
}

/** How the socket ended, with its lifetime when the trace holds its close ("41.2 秒后由…关闭"). */
function lifetime(s: SocketSummary, how: Msg): Msg {
	const from = s.opened ?? s.firstEvent;
	const to = s.closed ?? s.closeRequested;
	return to
		? msg('story.ended-after', { how, duration: { durationMs: ticksToMs(to.ticks - from.ticks) } })
		: how;
}

function reasonOf(s: SocketSummary): Text {
	return s.abort
		? { valueMap: 'afdAbort', value: s.abort.reason }
		: msg('story.reason', { reason: 'undefined' });
}

function ending(s: SocketSummary): Text | null {
	switch (s.endedBy) {
		case null:
			// i18n: data (a socket state's identifier, as the CLI prints it; the page says it in its words)
			return s.state === 'open at end of trace' || s.state === 'failed'
				? msg('story.still-open')
				: null;
		case 'afd-abort':
			return lifetime(s, msg('story.aborted-afd', { reason: reasonOf(s) }));
		case 'transport-abort':
			return lifetime(s, msg('story.reset-transport', { reason: reasonOf(s) }));
		case 'peer-disconnect':
			return lifetime(s, msg('story.closed-peer'));
		case 'application':
			return lifetime(s, msg('story.closed-app'));
		case 'unknown':
			return msg('story.end-unknown');
	}
}

/** The socket's story as a message, to tell in any language. */
export function storyMessageOf(s: SocketSummary): Text {
	const parts: Text[] = [opening(s)];
	// What TCP/IP itself logged: the reason a connect failed, retransmissions, a reset (worded by
	// sockets/tcp.ts, with the status names it quotes).
	const tcp = s.tcp;
	if (
		tcp &&
		(tcp.result === 'failed' || tcp.synRetransmits + tcp.dataRetransmits > 0 || tcp.ended !== null)
	)
		parts.push(tcp.message ?? tcp.text);
	const data = s.sends + s.receives > 0 || s.bytesSent + s.bytesReceived > 0;
	if (data)
		parts.push(
			s.nestedSendExits === 0
				? msg('story.sent', { bytes: { bytes: s.bytesSent } })
				: // The sent figure rests on taking exits at unknown Locations as parts of nested sends.
					msg('story.sent-nested', {
						bytes: { bytes: s.bytesSent },
						count: s.nestedSendExits,
						skipped: { bytes: s.nestedSendBytes },
					}),
			msg('story.received', { bytes: { bytes: s.bytesReceived } }),
		);
	if (s.datagramsDropped > 0)
		parts.push(
			msg('story.dropped', {
				count: s.datagramsDropped,
				reasons: list(
					s.dropReasons.map((r) => ({ valueMap: 'afdDatagramDrop', value: r.reason })),
					'semicolon',
				),
			}),
		);
	if (s.ioAfterClose > 0) parts.push(msg('story.after-close', { count: s.ioAfterClose }));
	const end = ending(s);
	if (end) parts.push(end);
	return list(parts, 'comma');
}

/** The socket's story in English (the CLI's). */
export function storyOf(s: SocketSummary): string {
	return english(storyMessageOf(s));
}

/** How the socket's PID was learnt, as a sentence for its details. */
export function pidSourceMessage(s: SocketSummary): Msg {
	if (s.pid === null || s.pidSource === null) return msg('pid-source.unknown');
	return msg(`pid-source.${s.pidSource}`, { pid: s.pid });
}

export function pidSourceText(s: SocketSummary): string {
	return english(pidSourceMessage(s));
}
