// A small trace with captured frames for the fuzz corpus: one TCP socket (AFD) whose SYN, SYN-ACK
// and data the NDIS-PacketCapture events carry (the data in two fragments), DNS over UDP with
// compressed names on IPv4 and behind an IPv6 extension header, a TCP segment with options behind
// an 802.1Q tag, ARP and an ICMPv6 neighbor solicitation, and PktMon appearances of a DNS answer.
// Uncompressed 4 KiB buffers, so the frames lie in the file where the packet mutations aim.
import { NDIS_KEYWORDS } from '../../web/src/generated/packet-capture.ts';
import {
	arpRequest,
	BROADCAST,
	dns,
	ethernet,
	ipv4,
	ipv6,
	neighborSolicitation,
	TCP,
	tcp,
	udp,
} from '../builders/frames.ts';
import type { EtlFile } from '../builders/etl-writer.ts';
import { Lifecycles } from '../builders/lifecycles.ts';
import { netEvent } from '../builders/net-payloads.ts';

const LOCAL = '192.168.1.23';
const REMOTE = '142.250.74.46';
const RESOLVER = '192.168.1.1';
const K = NDIS_KEYWORDS;
const WHOLE = K.packetStart | K.packetEnd | K.media8023;

/** What the packet trace holds, for the tests that judge it. */
export const PACKET_TRACE = {
	/** NDIS-PacketCapture fragments: 8 frames, one of them in two. */
	ndisEvents: 9,
	/** PktMon packet events (160), and its one component name (20). */
	pktmonPackets: 2,
	pktmonOther: 1,
	/** Frames the capture rebuilds: 8 NDIS and 2 PktMon appearances. */
	frames: 10,
	/** Frames whose DNS message is read: a query, its answer on IPv4 and on IPv6, the answer twice in PktMon. */
	dnsFrames: 5,
	/** Frames the TCP socket owns: its SYN, the SYN-ACK and the data in two fragments. */
	owned: 3,
	/** Sockets the AFD events make. */
	sockets: 1,
} as const;

export function packetTrace(): Uint8Array {
	return packetTraceFile().bytes;
}

export function packetTraceFile(): EtlFile {
	const lc = new Lifecycles({ families: 'modern', cpus: 1, bufferSize: 4096 });
	const chrome = lc.process({ pid: 4120, name: 'chrome.exe', eprocess: 0xffffa50c12345080n });
	const s = lc.socket(chrome, { at: 10 });
	s.bind(`${LOCAL}:51000`).connect(`${REMOTE}:443`, { ms: 30 }).send(300).close();
	let ms = 12;
	const ndis = (frame: Uint8Array, keyword: bigint) =>
		lc.w.addEvent(
			netEvent('ndiscap', {
				cpu: 0,
				time: lc.at((ms += 1)),
				pid: 4,
				tid: 8,
				id: 1001,
				keyword,
				values: { MiniportIfIndex: 7, LowerIfIndex: 7, Fragment: frame },
			}),
		);
	const out = WHOLE | K.send;
	const inn = WHOLE | K.receive;
	const query = dns({ id: 0x2a2a, name: 'www.example.com' });
	const answer = dns({
		id: 0x2a2a,
		name: 'www.example.com',
		answers: ['93.184.216.34', '93.184.216.35'],
	});
	ndis(ethernet(0x0800, ipv4(LOCAL, RESOLVER, 17, udp(61000, 53, query))), out);
	ndis(ethernet(0x0800, ipv4(RESOLVER, LOCAL, 17, udp(53, 61000, answer))), inn);
	ndis(
		ethernet(0x0800, ipv4(LOCAL, REMOTE, 6, tcp(51000, 443, TCP.SYN, { mss: 1460, wscale: 8 }))),
		out,
	);
	ndis(
		ethernet(
			0x0800,
			ipv4(REMOTE, LOCAL, 6, tcp(443, 51000, TCP.SYN | TCP.ACK, { ack: 1001, mss: 1400 })),
		),
		inn,
	);
	const data = ethernet(
		0x0800,
		ipv4(
			LOCAL,
			REMOTE,
			6,
			tcp(51000, 443, TCP.PSH | TCP.ACK, { seq: 1001, payload: Array(300).fill(0x17) }),
		),
	);
	ndis(data.slice(0, 100), K.packetStart | K.media8023 | K.send);
	ndis(data.slice(100), K.packetEnd | K.media8023 | K.send);
	const hop = { type: 0, body: [1, 4, 0, 0, 0, 0] };
	ndis(
		ethernet(0x86dd, ipv6('2001:db8::53', '2001:db8::23', 17, udp(53, 61001, answer), [hop]), {
			vlan: 42,
		}),
		inn,
	);
	ndis(ethernet(0x0806, arpRequest(LOCAL, RESOLVER), { dst: BROADCAST }), out);
	ndis(
		ethernet(0x86dd, ipv6('fe80::2', 'ff02::1:ff00:1', 58, neighborSolicitation('fe80::1'))),
		inn,
	);
	lc.w.addEvent(
		netEvent('pktmon', {
			cpu: 0,
			time: lc.at((ms += 1)),
			pid: 4,
			tid: 8,
			id: 20,
			values: { Id: 3, Type: 1, Name: 'Ethernet0', Description: 'Virtual NIC' },
		}),
	);
	const seen = ethernet(0x0800, ipv4(RESOLVER, LOCAL, 17, udp(53, 61000, answer)));
	for (const appearance of [1, 2])
		lc.w.addEvent(
			netEvent('pktmon', {
				cpu: 0,
				time: lc.at((ms += 1)),
				pid: 4,
				tid: 8,
				id: 160,
				values: {
					PktGroupId: 77n,
					PktNumber: 1,
					AppearanceCount: appearance,
					PacketType: 1,
					ComponentId: 3,
					OriginalPayloadSize: seen.length,
					Payload: seen,
				},
			}),
		);
	return lc.finish().file;
}
