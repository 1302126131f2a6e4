// A trace as `netsh trace start capture=yes` writes it: Winsock-AFD beside NDIS-PacketCapture 1001
// fragments (KW_PACKET_START … KW_PACKET_END, KW_SEND/KW_RECEIVE, the medium's keyword), the
// fragments' layout from schema/ndis-packetcapture.json (tests/builders/net-payloads.ts). Each
// frame comes shortly after the AFD call that causes it and is logged in whatever context ran the
// filter (System, Idle or an unrelated process), never reliably its owner's. The script says which
// socket owns every frame, or why none does; the tests take their expected values from it.
import {
	dns,
	ethernet,
	ipv4,
	ipv6,
	arpRequest,
	neighborSolicitation,
	tcp,
	TCP,
	udp,
} from './frames.ts';
import { BROADCAST } from './frames.ts';
import { netEvent } from './net-payloads.ts';
import { SOCK_DGRAM } from './lifecycles.ts';
import { WindowsAfd, type WindowsExpected, type WinSocket } from './windows-afd.ts';
import { STATUS_CONNECTION_REFUSED, STATUS_IO_TIMEOUT } from './afd-vocabulary.ts';

/** Keyword bits of NDIS-PacketCapture (its manifest's keywords). */
const KW = {
	ethernet: 0x1n,
	wirelessWan: 0x200n,
	start: 0x40000000n,
	end: 0x80000000n,
	send: 0x100000000n,
	receive: 0x200000000n,
} as const;

/** Why a frame has no owner, in the join's words. */
export type Unowned = 'arp' | 'neighbor-discovery' | 'other-host' | 'closed-port';

export interface ScriptedPacket {
	/** FILETIME of its last fragment: unique in the script, so a frame is found by it. */
	readonly time: bigint;
	/** Index of the owning socket in `sockets` / `expected`, or null. */
	readonly socket: number | null;
	readonly unowned: Unowned | null;
	readonly direction: 'in' | 'out';
	readonly ifIndex: number;
	readonly headerPid: number;
	readonly fragments: number;
	/** A SYN without ACK. */
	readonly syn: boolean;
	readonly rstIn: boolean;
	readonly payload: number;
	readonly length: number;
}

export interface CaptureScript {
	readonly bytes: Uint8Array;
	readonly expected: WindowsExpected[];
	/** PID → image name of the script's processes. */
	readonly images: ReadonlyMap<number, string>;
	readonly packets: readonly ScriptedPacket[];
	/** Indexes (in `expected`) of the sockets the tests single out. */
	readonly roles: {
		readonly web: number;
		readonly wwan: number;
		readonly dns: number;
		readonly refused: number;
		readonly timedOut: number;
		readonly loopback: number;
	};
	/** SYNs the timed-out connect sent again, and the refused connect's remote port. */
	readonly synRetransmits: number;
	readonly refusedPort: number;
	/** The interfaces (LowerIfIndex) frames came through. */
	readonly interfaces: readonly number[];
}

const ETH_IF = 7;
const WWAN_IF = 12;
const LOCAL = '10.0.0.5';
const WWAN_LOCAL = '100.64.20.7';
/** Header PIDs a capture event is logged with: System, Idle, and a process that happened to run. */
const CONTEXTS = [4, 0, 1337] as const;
const MSS = 1460;

/** `n` bytes of payload (their values do not matter, their count does). */
const bytes = (n: number) => Array.from({ length: n }, (_, k) => (k * 7) & 0xff);

export function netshCaptureScenario(): CaptureScript {
	const sc = new WindowsAfd();
	const w = sc.lc.w;
	const packets: ScriptedPacket[] = [];
	const images = new Map<number, string>();
	const proc = (pid: number, name: string, eprocess: bigint) => {
		images.set(pid, name);
		return sc.process({ pid, name, eprocess });
	};
	const edge = proc(6100, 'msedge.exe', 0xffffa50c61000080n);
	const teams = proc(7200, 'ms-teams.exe', 0xffffa50c72000080n);
	const curl = proc(5200, 'curl.exe', 0xffffa50c52000080n);
	const agent = proc(3300, 'agent.exe', 0xffffa50c33000080n);
	let context = 0;
	/** Ticks past the ms clock, so frames keep their 100 ns digit and never share a time. */
	let odd = 3n;

	/** One frame at `ms`, in `parts` fragments (their times 1 tick apart, the last the frame's). */
	const frame = (
		ms: number,
		data: Uint8Array | number[],
		p: Omit<ScriptedPacket, 'time' | 'headerPid' | 'fragments' | 'length'> & { parts?: number },
	) => {
		const b = Uint8Array.from(data);
		const parts = p.parts ?? 1;
		const headerPid = CONTEXTS[context++ % CONTEXTS.length]!;
		const medium = p.ifIndex === WWAN_IF ? KW.wirelessWan : KW.ethernet;
		const dir = p.direction === 'out' ? KW.send : KW.receive;
		let time = sc.lc.at(ms) + odd;
		odd += 7n;
		const cut = Math.ceil(b.length / parts);
		for (let k = 0; k < parts; k++) {
			if (k > 0) time += 1n;
			const keyword = medium | dir | (k === 0 ? KW.start : 0n) | (k === parts - 1 ? KW.end : 0n);
			w.addEvent(
				netEvent('ndiscap', {
					cpu: 1,
					time,
					pid: headerPid,
					tid: headerPid === 0 ? 0 : headerPid + 8,
					id: 1001,
					keyword,
					values: {
						MiniportIfIndex: p.ifIndex,
						LowerIfIndex: p.ifIndex,
						Fragment: b.subarray(k * cut, Math.min(b.length, (k + 1) * cut)),
					},
				}),
			);
		}
		const { parts: _, ...rest } = p;
		packets.push({ ...rest, time, headerPid, fragments: parts, length: b.length });
	};

	/** A TCP conversation's frames: each on its link (Ethernet or raw IP for the WWAN). */
	const conversation = (
		socket: number,
		ifIndex: number,
		local: string,
		lport: number,
		remote: string,
		rport: number,
	) => {
		let seqOut = 0x10000000 + lport;
		let seqIn = 0x50000000 + rport;
		const wrap = (out: boolean, seg: number[]) => {
			const ip = out ? ipv4(local, remote, 6, seg) : ipv4(remote, local, 6, seg);
			return ifIndex === WWAN_IF ? ip : ethernet(0x0800, ip);
		};
		const send = (
			ms: number,
			out: boolean,
			flags: number,
			payload = 0,
			o: { parts?: number; seq?: number } = {},
		) => {
			const seq = o.seq ?? (out ? seqOut : seqIn);
			const seg = out
				? tcp(lport, rport, flags, {
						seq,
						ack: seqIn,
						payload: bytes(payload),
						...(flags & TCP.SYN ? { mss: MSS, wscale: 8 } : {}),
					})
				: tcp(rport, lport, flags, {
						seq,
						ack: seqOut,
						payload: bytes(payload),
						...(flags & TCP.SYN ? { mss: MSS } : {}),
					});
			const syn = (flags & (TCP.SYN | TCP.ACK)) === TCP.SYN;
			frame(ms, wrap(out, seg), {
				socket,
				unowned: null,
				direction: out ? 'out' : 'in',
				ifIndex,
				syn,
				rstIn: !out && (flags & TCP.RST) !== 0,
				payload,
				...(o.parts ? { parts: o.parts } : {}),
			});
			if (o.seq === undefined) {
				const n = payload + (flags & (TCP.SYN | TCP.FIN) ? 1 : 0);
				if (out) seqOut = (seqOut + n) >>> 0;
				else seqIn = (seqIn + n) >>> 0;
			}
			return seq;
		};
		return { send };
	};

	/** The data of `n` bytes as MSS-sized segments, the first `parts` fragments when given. */
	const segments = (n: number) => {
		const out: number[] = [];
		for (let left = n; left > 0; left -= MSS) out.push(Math.min(MSS, left));
		return out;
	};

	// 0: msedge.exe over Ethernet: handshake, a send whose frame is split into 3 fragments, a
	// receive in three segments, the close's FIN exchange.
	const web = sc.sockets.length;
	const webSock = sc.socket(edge, { at: 10 }).connect('0.0.0.0:50443', '20.190.160.1:443');
	const webTcp = conversation(web, ETH_IF, LOCAL, 50443, '20.190.160.1', 443);
	const after = (s: WinSocket, ms: number) => s.ms + ms;
	// The SYN goes out between the connect's enter and its exit: the exit is logged last.
	webTcp.send(after(webSock, -0.04), true, TCP.SYN);
	webTcp.send(after(webSock, -0.03), false, TCP.SYN | TCP.ACK);
	webTcp.send(after(webSock, -0.02), true, TCP.ACK);
	webSock.send(517);
	webTcp.send(after(webSock, 0.01), true, TCP.PSH | TCP.ACK, 517, { parts: 3 });
	webSock.recv(4000, { completion: 'system' });
	let t = webSock.ms - 0.04;
	for (const n of segments(4000)) webTcp.send((t += 0.003), false, TCP.ACK, n);
	webTcp.send((t += 0.003), true, TCP.ACK);
	webSock.close();
	webTcp.send(after(webSock, 0.01), true, TCP.FIN | TCP.ACK);
	webTcp.send(after(webSock, 0.02), false, TCP.FIN | TCP.ACK);
	webTcp.send(after(webSock, 0.03), true, TCP.ACK);

	// 1: ms-teams.exe over the wireless WAN (raw IP frames): a second interface.
	const wwan = sc.sockets.length;
	const wwanSock = sc.socket(teams, { at: 20 }).connect('0.0.0.0:50600', '52.113.194.132:443');
	const wwanTcp = conversation(wwan, WWAN_IF, WWAN_LOCAL, 50600, '52.113.194.132', 443);
	wwanTcp.send(after(wwanSock, -0.04), true, TCP.SYN);
	wwanTcp.send(after(wwanSock, -0.03), false, TCP.SYN | TCP.ACK);
	wwanTcp.send(after(wwanSock, -0.02), true, TCP.ACK);
	wwanSock.send(1200);
	wwanTcp.send(after(wwanSock, 0.01), true, TCP.PSH | TCP.ACK, 1200);
	wwanSock.recv(300);
	wwanTcp.send(after(wwanSock, -0.04), false, TCP.PSH | TCP.ACK, 300);
	wwanTcp.send(after(wwanSock, 0.01), true, TCP.ACK);

	// 2: msedge.exe's DNS over UDP: its local port is learnt from its first datagram out.
	const dnsIndex = sc.sockets.length;
	const query = dns({ id: 0x3c1a, name: 'login.example.com' });
	const answer = dns({ id: 0x3c1a, name: 'login.example.com', answers: ['20.190.160.1'] });
	const dnsSock = sc
		.socket(edge, { at: 8, type: SOCK_DGRAM })
		.sendto('192.168.1.1:53', query.length);
	const datagram = (ms: number, out: boolean, payload: number[]) =>
		frame(
			ms,
			ethernet(
				0x0800,
				out
					? ipv4(LOCAL, '192.168.1.1', 17, udp(61000, 53, payload))
					: ipv4('192.168.1.1', LOCAL, 17, udp(53, 61000, payload)),
			),
			{
				socket: dnsIndex,
				unowned: null,
				direction: out ? 'out' : 'in',
				ifIndex: ETH_IF,
				syn: false,
				rstIn: false,
				payload: payload.length,
			},
		);
	datagram(after(dnsSock, 0.01), true, query);
	dnsSock.recvfrom('192.168.1.1:53', answer.length);
	datagram(after(dnsSock, -0.02), false, answer);
	dnsSock.close();

	// 3: curl.exe's connect refused: SYN out, RST,ACK from the peer; the connect fails after it.
	const refusedPort = 8081;
	const refused = sc.sockets.length;
	const refusedSock = sc
		.socket(curl, { at: 30 })
		.connect('0.0.0.0:50700', `10.0.0.9:${refusedPort}`, {
			status: STATUS_CONNECTION_REFUSED,
			exitAfterMs: 1,
		});
	const refusedTcp = conversation(refused, ETH_IF, LOCAL, 50700, '10.0.0.9', refusedPort);
	refusedTcp.send(after(refusedSock, -0.9), true, TCP.SYN);
	refusedTcp.send(after(refusedSock, -0.5), false, TCP.RST | TCP.ACK);
	refusedSock.close();

	// 4: curl.exe's connect that times out: the SYN sent three times, never answered.
	const synRetransmits = 2;
	const timedOut = sc.sockets.length;
	const timedSock = sc.socket(curl, { at: 40 }).connect('0.0.0.0:50701', '10.0.0.10:8080', {
		status: STATUS_IO_TIMEOUT,
		exitAfterMs: 7000,
	});
	const timedTcp = conversation(timedOut, ETH_IF, LOCAL, 50701, '10.0.0.10', 8080);
	const synAt = timedSock.ms - 7000;
	const seq = timedTcp.send(synAt, true, TCP.SYN);
	for (let k = 1; k <= synRetransmits; k++)
		timedTcp.send(synAt + 1000 * (2 ** k - 1), true, TCP.SYN, 0, { seq });
	timedSock.close();

	// 5: agent.exe over loopback: loopback never reaches NDIS, no frames.
	const loopback = sc.sockets.length;
	sc.socket(agent, { at: 50 })
		.connect('127.0.0.1:50800', '127.0.0.1:9000')
		.send(100)
		.recv(40)
		.close();

	// Frames no socket owns: ARP, a neighbor solicitation, another host's broadcast, a SYN to a
	// local port nothing listens on.
	const none = (
		ms: number,
		data: number[] | Uint8Array,
		unowned: Unowned,
		direction: 'in' | 'out',
	) =>
		frame(ms, data, {
			socket: null,
			unowned,
			direction,
			ifIndex: ETH_IF,
			syn: false,
			rstIn: false,
			payload: 0,
		});
	none(9, ethernet(0x0806, arpRequest(LOCAL, '10.0.0.1'), { dst: BROADCAST }), 'arp', 'out');
	none(
		9.5,
		ethernet(0x86dd, ipv6('fe80::5', 'ff02::1:ff00:1', 58, neighborSolicitation('fe80::1'))),
		'neighbor-discovery',
		'out',
	);
	frame(
		35,
		ethernet(0x0800, ipv4('10.0.0.77', '10.0.0.255', 17, udp(138, 138, bytes(180))), {
			dst: BROADCAST,
			src: '02:00:00:00:00:4d',
		}),
		{
			socket: null,
			unowned: 'other-host',
			direction: 'in',
			ifIndex: ETH_IF,
			syn: false,
			rstIn: false,
			payload: 180,
		},
	);
	frame(
		36,
		ethernet(0x0800, ipv4('10.0.0.66', LOCAL, 6, tcp(51515, 3389, TCP.SYN, { mss: MSS }))),
		{
			socket: null,
			unowned: 'closed-port',
			direction: 'in',
			ifIndex: ETH_IF,
			syn: true,
			rstIn: false,
			payload: 0,
		},
	);

	const { file, expected } = sc.finish();
	packets.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
	return {
		bytes: file.bytes,
		expected,
		images,
		packets,
		roles: { web, wwan, dns: dnsIndex, refused, timedOut, loopback },
		synRetransmits,
		refusedPort,
		interfaces: [ETH_IF, WWAN_IF],
	};
}
