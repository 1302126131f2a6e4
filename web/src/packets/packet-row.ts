// One frame as a row: the columns `sockscope packets` prints and a Packets panel shows.
import { filetimeToIso } from '../decoder/time.ts';
import { english, list, msg, type Msg, type Text } from '../i18n/render.ts';
import { endpointText, type PacketOwner } from './join.ts';
import type { CaptureInterface, Frame } from './types.ts';

export const PACKET_COLUMNS = [
	'number',
	'time',
	'interface',
	'direction',
	'length',
	'protocol',
	'src',
	'dst',
	'tcp_flags',
	'payload_bytes',
	'pid',
	'process',
	'socket',
	'reason',
	'drop_reason',
	'header_pid',
	'event',
	'info',
] as const;

export type PacketColumn = (typeof PACKET_COLUMNS)[number];
export type PacketRow = Record<PacketColumn, string | number | null>;

function side(address: string | null, port: number | null): string | null {
	if (address === null) return null;
	return port === null ? address : endpointText(address, port);
}

/**
 * A short line of what the frame is (DNS question and answers, ICMP type, what is malformed), as
 * a message the page says in the reader's language; the capture's and dissectors' own
 * descriptions of a problem, the TCP option names and the DNS names are data.
 */
export function packetInfoText(f: Frame): Msg | null {
	const d = f.dissection;
	const parts: Text[] = [];
	if (f.problem) parts.push(f.problem);
	if (d.dns) {
		const q = d.dns.questions[0];
		const rest =
			(q ? ` ${q.name}` : '') +
			(d.dns.answers.length ? ` → ${d.dns.answers.map((a) => a.data ?? a.name).join(' ')}` : '');
		parts.push(
			d.dns.response
				? msg('packet.dns-response', { id: d.dns.id, rest })
				: msg('packet.dns-query', { id: d.dns.id, rest }),
		);
	}
	if (d.icmp) parts.push(msg('packet.icmp', { type: d.icmp.type, code: d.icmp.code }));
	if (d.tcp?.mss != null) parts.push(`MSS ${d.tcp.mss}`);
	if (d.tcp?.wscale != null) parts.push(`WS ${d.tcp.wscale}`);
	if (d.malformed)
		parts.push(msg('packet.malformed', { at: d.malformed.at, what: d.malformed.what }));
	return parts.length ? msg('packet.info', { parts: list(parts, 'semicolon') }) : null;
}

/** The same line in English: the `info` column of `sockscope packets` and of exports. */
export function packetInfo(f: Frame): string | null {
	const m = packetInfoText(f);
	return m && english(m);
}

export function packetRow(
	f: Frame,
	owner: PacketOwner,
	interfaces: ReadonlyMap<string, CaptureInterface>,
): PacketRow {
	const d = f.dissection;
	return {
		number: f.number,
		time: filetimeToIso(f.filetime),
		interface: interfaces.get(f.interfaceKey)?.name ?? f.interfaceKey,
		direction: f.direction,
		length: f.originalLength ?? d.wireLength ?? f.bytes.length,
		protocol: d.protocol,
		src: side(d.srcAddress, d.srcPort),
		dst: side(d.dstAddress, d.dstPort),
		tcp_flags: d.tcp?.flagNames ?? null,
		payload_bytes: d.payloadBytes,
		pid: owner.pid,
		process: owner.process,
		socket: owner.socket,
		reason: owner.reason,
		drop_reason: f.dropReasonName ?? (f.dropReason === null ? null : String(f.dropReason)),
		header_pid: f.headerPid,
		event: f.index,
		info: packetInfo(f),
	};
}
