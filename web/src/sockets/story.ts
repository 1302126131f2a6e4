// A socket's life in one sentence, e.g. "chrome.exe (PID 4120) connected to 142.250.74.46:443 in
// 38 ms, sent 12.4 KiB, received 1.2 MiB, closed by the application after 41.2 s".
import { explainStatus } from '../decoder/status.ts';
import { formatBytes } from '../lib/format-size.ts';
import { formatDuration, protocolLabel, ticksToMs } from './format.ts';
import { namedEndpoint } from './names.ts';
import type { SocketPidSource, SocketSummary } from './socket.ts';

/** Remotes a datagram socket's story names one by one. */
const STORY_PEERS = 4;
const REFUSED = new Set(['STATUS_CONNECTION_REFUSED', 'STATUS_REMOTE_NOT_LISTENING']);
const TIMED_OUT = new Set(['STATUS_IO_TIMEOUT', 'STATUS_TIMEOUT']);

function plural(n: number, one: string, many = `${one}s`): string {
	return `${n} ${n === 1 ? one : many}`;
}

function who(s: SocketSummary): string {
	return s.pid !== null && s.process !== `PID ${s.pid}` ? `${s.process} (PID ${s.pid})` : s.process;
}

/** The peer as `name (address:port)` when the trace's lookups name it. */
function peer(s: SocketSummary): string | null {
	return s.remote === null ? null : namedEndpoint(s.remoteName, s.remote);
}

/** What the socket was for: its first clause. */
function opening(s: SocketSummary): string {
	const label = protocolLabel(s.type, s.protocol);
	const kind = label === 'socket' ? 'socket' : `${label} socket`;
	const early = s.origin === 'before-trace' || s.origin === 'missing-create';
	const since =
		s.origin === 'before-trace'
			? 'opened before the trace began'
			: 'whose creation is not in the trace';
	if (s.listening)
		return `${who(s)} listened on ${s.local ?? 'an unknown address'}${
			s.accepts ? ` and accepted ${plural(s.accepts, 'connection')}` : ''
		}${early ? ` (a socket ${since})` : ''}`;
	if (s.listener !== null || (s.origin === 'accepted' && s.remote))
		return `${who(s)} accepted a connection from ${peer(s) ?? 'an unknown peer'}${
			s.local ? ` on ${s.local}` : ''
		}`;
	const c = s.connect;
	const to = peer(s) ?? 'an unknown address';
	if (c?.outcome === 'connected')
		return `${who(s)} connected to ${to}${c.ms !== null ? ` in ${formatDuration(c.ms)}` : ''}`;
	if (c?.outcome === 'failed') {
		const name = c.statusName ?? 'an error';
		const how = REFUSED.has(name) ? 'refused' : TIMED_OUT.has(name) ? 'timed out' : 'failed';
		const after = c.failedAfterMs !== null ? ` after ${formatDuration(c.failedAfterMs)}` : '';
		return `${who(s)} tried to connect to ${to}: ${how} (${name})${after}`;
	}
	if (c?.outcome === 'pending') return `${who(s)} was connecting to ${to}`;
	if (s.peers.length > 1) {
		const each = s.peers
			.slice(0, STORY_PEERS)
			.map(
				(p) =>
					`${namedEndpoint(p.remoteName, p.remote)} (sent ${formatBytes(p.bytesSent)}, received ${formatBytes(p.bytesReceived)})`,
			);
		const from = s.local ? ` from ${s.local}` : '';
		const old = early ? ` (a ${kind} ${since})` : '';
		const more = s.peers.length - each.length;
		const list = more
			? `${each.join(', ')} and ${more} more`
			: `${each.slice(0, -1).join(', ')} and ${each.at(-1)}`;
		return `${who(s)} exchanged datagrams with ${s.peers.length} remotes${from}${old}: ${list}`;
	}
	if (early) return `${who(s)} used a ${kind}${s.remote ? ` to ${peer(s)}` : ''} ${since}`;
	if (s.type === 2 && s.remote)
		return `${who(s)} exchanged datagrams with ${peer(s)}${s.local ? ` from ${s.local}` : ''}`;
	if (s.error && s.local === null && s.errors.some((e) => e.op === 'bind'))
		return `${who(s)} could not bind a ${kind} (${s.error}: ${explainStatus(s.errors.find((e) => e.op === 'bind')!.status).explanation.replace(/\.$/, '')})`;
	return `${who(s)} opened a ${kind}${s.local ? ` on ${s.local}` : ''}`;
}

function lifetime(s: SocketSummary): string {
	const from = s.opened ?? s.firstEvent;
	const to = s.closed ?? s.closeRequested;
	return to ? ` after ${formatDuration(ticksToMs(to.ticks - from.ticks))}` : '';
}

function ending(s: SocketSummary): string {
	switch (s.endedBy) {
		case null:
			return s.state === 'open at end of trace' || s.state === 'failed'
				? 'still open at the end of the trace'
				: '';
		case 'afd-abort':
			return `aborted by AFD (${s.abort?.reasonName ?? `reason ${s.abort?.reason}`})${lifetime(s)}`;
		case 'transport-abort':
			return `reset by the transport (${s.abort?.reasonName ?? `reason ${s.abort?.reason}`})${lifetime(s)}`;
		case 'peer-disconnect':
			return `closed by the peer${lifetime(s)}`;
		case 'application':
			return `closed by the application${lifetime(s)}`;
		case 'unknown':
			return 'its end is not in the trace';
	}
}

/** When the sent figure rests on taking exits at unknown Locations as parts of nested sends. */
function nested(s: SocketSummary): string {
	if (s.nestedSendExits === 0) return '';
	return ` (assuming ${plural(s.nestedSendExits, 'send completion')} at an unknown Location inside an unfinished send ${s.nestedSendExits === 1 ? 'was' : 'were'} part of it: ${formatBytes(s.nestedSendBytes)} not counted again)`;
}

export function storyOf(s: SocketSummary): string {
	const parts = [opening(s)];
	// What TCP/IP itself logged: the reason a connect failed, retransmissions, a reset.
	const tcp = s.tcp;
	if (
		tcp &&
		(tcp.result === 'failed' || tcp.synRetransmits + tcp.dataRetransmits > 0 || tcp.ended !== null)
	)
		parts.push(tcp.text);
	const data = s.sends + s.receives > 0 || s.bytesSent + s.bytesReceived > 0;
	if (data)
		parts.push(
			`sent ${formatBytes(s.bytesSent)}${nested(s)}`,
			`received ${formatBytes(s.bytesReceived)}`,
		);
	if (s.datagramsDropped > 0)
		parts.push(
			`${plural(s.datagramsDropped, 'datagram')} dropped (${s.dropReasons.map((r) => r.name).join('; ')})`,
		);
	if (s.ioAfterClose > 0) parts.push(`${plural(s.ioAfterClose, 'request')} after closesocket`);
	const end = ending(s);
	if (end) parts.push(end);
	return parts.join(', ');
}

const PID_SOURCES: Readonly<Record<SocketPidSource, string>> = {
	create: 'from its create event',
	'process-map': "from another socket's create in the same process (the same Process address)",
	'reliable-location': "from an event header at a Location where it is the caller's",
	'kernel-process': "from the kernel logger's process events",
	listener: 'from the listening socket it was accepted on',
	'caller-header': 'guessed from the header of an application call at an unknown Location',
};

/** How the socket's PID was learnt, as a sentence for its details. */
export function pidSourceText(s: SocketSummary): string {
	if (s.pid === null || s.pidSource === null)
		return 'PID unknown: no create or trusted event names its process';
	return `PID ${s.pid} ${PID_SOURCES[s.pidSource]}`;
}
