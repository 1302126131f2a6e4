// The `packets` table of an export: one row per captured frame, typed for Parquet, with the
// columns of `sockscope packets` (its owner from the socket join: pid, process, socket, or why
// none owns it) and each side's address and port apart, as SQL engines like them.
import { english } from '../i18n/render.ts';
import type { PacketOwner } from '../packets/join.ts';
import { packetRow } from '../packets/packet-row.ts';
import type { CaptureInterface, Frame } from '../packets/types.ts';
import type { Row, TableColumn } from './table-writer.ts';

export const PACKET_TABLE: readonly TableColumn[] = [
	{ name: 'number', type: 'INT64' },
	{ name: 'filetime', type: 'INT64' },
	{ name: 'time', type: 'TIMESTAMP' },
	{ name: 'interface', type: 'STRING' },
	{ name: 'interface_key', type: 'STRING' },
	{ name: 'direction', type: 'STRING' },
	{ name: 'length', type: 'INT64' },
	{ name: 'captured_length', type: 'INT64' },
	{ name: 'protocol', type: 'STRING' },
	{ name: 'src', type: 'STRING' },
	{ name: 'dst', type: 'STRING' },
	{ name: 'src_address', type: 'STRING' },
	{ name: 'src_port', type: 'INT32' },
	{ name: 'dst_address', type: 'STRING' },
	{ name: 'dst_port', type: 'INT32' },
	{ name: 'ip_protocol', type: 'INT32' },
	{ name: 'vlan', type: 'INT32' },
	{ name: 'tcp_flags', type: 'STRING' },
	{ name: 'payload_bytes', type: 'INT64' },
	{ name: 'pid', type: 'INT64' },
	{ name: 'process', type: 'STRING' },
	{ name: 'socket', type: 'STRING' },
	{ name: 'remote', type: 'STRING' },
	/** Why no socket owns it (arp, neighbor-discovery, other-host, closed-port, …). */
	{ name: 'reason', type: 'STRING' },
	{ name: 'drop_reason', type: 'STRING' },
	{ name: 'drop_location', type: 'INT64' },
	/** PktMon's PktGroupId, unsigned 64-bit: its digits (an INT64 cannot hold every value). */
	{ name: 'pkt_group_id', type: 'STRING' },
	/** The event header's PID: the context that logged it, not the owner. */
	{ name: 'header_pid', type: 'INT64' },
	{ name: 'event', type: 'INT64' },
	{ name: 'fragments', type: 'INT32' },
	{ name: 'malformed', type: 'STRING' },
	{ name: 'info', type: 'STRING' },
];

export function packetTableRow(
	f: Frame,
	o: PacketOwner,
	interfaces: ReadonlyMap<string, CaptureInterface>,
): Row {
	const r = packetRow(f, o, interfaces);
	const d = f.dissection;
	const malformed = d.malformed
		? `at offset ${d.malformed.at}: ${english(d.malformed.what)}`
		: f.problem && english(f.problem);
	return {
		number: r.number,
		filetime: f.filetime,
		time: r.time,
		interface: r.interface,
		interface_key: f.interfaceKey,
		direction: r.direction,
		length: r.length,
		captured_length: f.bytes.length,
		protocol: r.protocol,
		src: r.src,
		dst: r.dst,
		src_address: d.srcAddress,
		src_port: d.srcPort,
		dst_address: d.dstAddress,
		dst_port: d.dstPort,
		ip_protocol: d.ipProtocol,
		vlan: d.vlan,
		tcp_flags: r.tcp_flags,
		payload_bytes: r.payload_bytes,
		pid: r.pid,
		process: r.process,
		socket: r.socket,
		remote: o.remote,
		reason: r.reason,
		drop_reason: r.drop_reason,
		drop_location: f.dropLocation,
		pkt_group_id: f.pktGroupId === null ? null : String(f.pktGroupId),
		header_pid: r.header_pid,
		event: r.event,
		fragments: f.fragments,
		malformed,
		info: r.info,
	};
}
