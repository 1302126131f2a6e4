// Packets joined to the sockets the tracker rebuilt: by protocol and local/remote address and
// port, within the socket's life. A TCP socket whose local port AFD did not log learns it from its
// first SYN to its remote after its connect; a datagram socket is matched per peer (or by its
// local port alone when it was bound to any address). A packet owned by no socket says why.
// Sockets gain what the wire says: SYN → SYN-ACK time, retransmissions, RST from the peer, zero
// windows.
import type { SocketSummary } from '../sockets/socket.ts';
import { NDP_TYPES } from './dissect-transport.ts';
import type { Frame } from './types.ts';

/** Why a packet has no owner. */
export type UnownedReason =
	| 'arp'
	| 'neighbor-discovery'
	| 'other-host'
	| 'closed-port'
	| 'no-socket'
	| 'not-ip'
	| 'malformed';

export interface PacketOwner {
	readonly socket: string | null;
	readonly pid: number | null;
	readonly process: string | null;
	/** The socket's remote end for this packet ('a.b.c.d:port' / '[v6]:port'). */
	readonly remote: string | null;
	readonly reason: UnownedReason | null;
	/** The owner's side: whether this packet went out from the socket (or came in to it). */
	readonly direction: 'in' | 'out' | null;
}

export interface WireFacts {
	readonly socket: string;
	readonly packets: number;
	readonly packetsIn: number;
	readonly packetsOut: number;
	readonly payloadIn: number;
	readonly payloadOut: number;
	/** The first SYN sent (frame number), and the SYN → SYN-ACK time in milliseconds. */
	readonly synFrame: number | null;
	readonly handshakeMs: number | null;
	/** Segments sent again: SYNs repeated before an answer, data with a sequence already sent. */
	readonly synRetransmits: number;
	readonly retransmits: number;
	/** The peer reset the connection (an RST that came in), and its frame. */
	readonly resetByPeer: boolean;
	readonly resetFrame: number | null;
	/** Segments from the peer advertising a zero window. */
	readonly zeroWindows: number;
}

/** Past its cleanup, a socket still owns the FIN/ACK exchange of its close for this long. */
const CLOSE_SLACK_TICKS = 20_000_000;
/** Before its create event (a socket from before the trace has none): as early as anything. */
const EARLY = -Infinity;

/** 'a.b.c.d:port' / '[v6]:port' → address (IPv4-mapped IPv6 as IPv4, no scope) and port. */
export function splitEndpoint(text: string | null): { address: string; port: number } | null {
	if (text === null) return null;
	const m = /^\[([^\]]+)\]:(\d+)$/.exec(text) ?? /^([^:]+):(\d+)$/.exec(text);
	if (!m) return null;
	let address = m[1]!.replace(/%.*$/, '').toLowerCase();
	const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
	if (mapped) address = mapped[1]!;
	return { address, port: Number(m[2]) };
}

const ANY = new Set(['0.0.0.0', '::']);

export function endpointText(address: string, port: number): string {
	return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}

interface Candidate {
	readonly s: SocketSummary;
	readonly from: number;
	readonly to: number;
	readonly proto: number;
	localAddress: string | null;
	localPort: number | null;
	readonly remote: { address: string; port: number } | null;
	/** Datagram peers' addresses, by endpoint text. */
	readonly peers: ReadonlySet<string>;
	/** Where its connect began (ticks), for learning the local port from the SYN. */
	readonly connectFrom: number;
}

class Facts {
	packets = 0;
	packetsIn = 0;
	packetsOut = 0;
	payloadIn = 0;
	payloadOut = 0;
	synFrame: number | null = null;
	synTicks = 0;
	handshakeMs: number | null = null;
	synRetransmits = 0;
	retransmits = 0;
	resetByPeer = false;
	resetFrame: number | null = null;
	zeroWindows = 0;
	/** Highest sequence end sent with data, to tell a retransmission from new data. */
	sentEnd: number | null = null;
}

/** SocketSummary.protocol, else the type (1 stream = TCP, 2 datagram = UDP). */
function protoOf(s: SocketSummary): number | null {
	if (s.protocol === 6 || s.protocol === 17) return s.protocol;
	if (s.type === 1) return 6;
	if (s.type === 2) return 17;
	return null;
}

export class PacketJoin {
	readonly #candidates: Candidate[] = [];
	/** By `proto/port`: the sockets that may own a local port. */
	readonly #byPort = new Map<string, Candidate[]>();
	/** TCP sockets whose local port is not known yet, by remote endpoint. */
	readonly #byRemote = new Map<string, Candidate[]>();
	readonly #localAddresses = new Set<string>();
	readonly #facts = new Map<string, Facts>();
	readonly #origin: bigint;

	/** `origin`: the trace's StartTime (FILETIME), tick 0 of the sockets' TimeMarks. */
	constructor(
		sockets: Iterable<SocketSummary>,
		origin: bigint,
		localAddresses: Iterable<string> = [],
	) {
		this.#origin = origin;
		for (const a of localAddresses) this.#localAddresses.add(a.toLowerCase());
		for (const s of sockets) this.#add(s);
	}

	#add(s: SocketSummary): void {
		const proto = protoOf(s);
		if (proto === null) return;
		const local = splitEndpoint(s.local);
		const remote = splitEndpoint(s.remote);
		const c: Candidate = {
			s,
			proto,
			from: s.origin === 'created' || s.origin === 'accepted' ? (s.opened?.ticks ?? EARLY) : EARLY,
			to: s.closed ? s.closed.ticks + CLOSE_SLACK_TICKS : Infinity,
			localAddress: local && !ANY.has(local.address) ? local.address : null,
			localPort: local && local.port !== 0 ? local.port : null,
			remote,
			peers: new Set(s.peers.map((p) => p.remote)),
			connectFrom: s.opened?.ticks ?? EARLY,
		};
		if (c.localAddress) this.#localAddresses.add(c.localAddress);
		this.#candidates.push(c);
		if (c.localPort !== null) this.#index(c);
		else {
			// Its local port is learnt from its first packet out to a remote it talked to.
			const remotes = new Set(c.peers);
			if (remote) remotes.add(endpointText(remote.address, remote.port));
			for (const k of remotes) {
				const list = this.#byRemote.get(k) ?? [];
				list.push(c);
				this.#byRemote.set(k, list);
			}
		}
	}

	#index(c: Candidate): void {
		const k = `${c.proto}/${c.localPort}`;
		const list = this.#byPort.get(k) ?? [];
		list.push(c);
		this.#byPort.set(k, list);
	}

	/** Addresses taken as this machine's: the sockets' own, outbound frames' sources, and those given. */
	learnLocal(frame: Frame): void {
		const d = frame.dissection;
		if (frame.direction === 'out' && d.srcAddress && (d.ipVersion !== null || d.protocol === 'ARP'))
			this.#localAddresses.add(d.srcAddress);
	}

	/** The addresses taken as this machine's so far. */
	localAddresses(): string[] {
		return [...this.#localAddresses];
	}

	#ticks(f: Frame): number {
		return Number(f.filetime - this.#origin);
	}

	#match(
		proto: number,
		local: string,
		lport: number,
		remote: string,
		rport: number,
		t: number,
		syn: boolean,
	) {
		const remoteText = endpointText(remote, rport);
		const list = this.#byPort.get(`${proto}/${lport}`);
		let best: Candidate | null = null;
		if (list)
			for (const c of list) {
				if (t < c.from || t > c.to) continue;
				if (c.localAddress !== null && c.localAddress !== local) continue;
				if (proto === 6) {
					if (c.s.listening) {
						// A listener owns only the SYN that asks it; the accepted socket owns the rest.
						if (syn && !best) best = c;
						continue;
					}
					if (c.remote && (c.remote.address !== remote || c.remote.port !== rport)) continue;
					return c;
				}
				// Datagrams: a connected socket's peer, any of its peers, or bound and unconnected.
				if (c.remote && endpointText(c.remote.address, c.remote.port) === remoteText) return c;
				if (c.peers.has(remoteText)) return c;
				if (!c.remote && !best) best = c;
			}
		if (best) return best;
		if (syn) {
			// A connect whose local port was not logged: its SYN (or first datagram) out tells it.
			const waiting = this.#byRemote.get(remoteText);
			const c = waiting?.find(
				(x) => x.proto === proto && x.localPort === null && t >= x.connectFrom && t <= x.to,
			);
			if (c) {
				c.localPort = lport;
				c.localAddress ??= local;
				this.#index(c);
				return c;
			}
		}
		return null;
	}

	/** The owner of a frame (frames in time order: a SYN can teach a socket its port). */
	owner(frame: Frame): PacketOwner {
		const d = frame.dissection;
		const none = (reason: UnownedReason): PacketOwner => ({
			socket: null,
			pid: null,
			process: null,
			remote: null,
			reason,
			direction: null,
		});
		if (d.protocol === 'ARP') return none('arp');
		if (d.icmp && d.ipProtocol === 58 && NDP_TYPES.has(d.icmp.type))
			return none('neighbor-discovery');
		if (d.ipVersion === null) return none(d.malformed ? 'malformed' : 'not-ip');
		const src = d.srcAddress!;
		const dst = d.dstAddress!;
		const srcLocal = this.#localAddresses.has(src);
		const dstLocal = this.#localAddresses.has(dst);
		if (d.srcPort === null || d.dstPort === null || (d.ipProtocol !== 6 && d.ipProtocol !== 17))
			return none(srcLocal || dstLocal ? 'no-socket' : 'other-host');
		const proto = d.ipProtocol;
		const syn = proto === 6 && (d.tcp!.flags & 0x12) === 0x02;
		const t = this.#ticks(frame);
		// Which side is ours: the capture's direction, else whichever side is a local address.
		const tries: [string, number, string, number, 'out' | 'in'][] = [];
		const out: [string, number, string, number, 'out'] = [src, d.srcPort, dst, d.dstPort, 'out'];
		const inn: [string, number, string, number, 'in'] = [dst, d.dstPort, src, d.srcPort, 'in'];
		if (frame.direction === 'out') tries.push(out);
		else if (frame.direction === 'in') tries.push(inn);
		else if (srcLocal && !dstLocal) tries.push(out);
		else if (dstLocal && !srcLocal) tries.push(inn);
		else tries.push(out, inn);
		for (const [local, lport, remote, rport, dir] of tries) {
			// An answer to a SYN comes in as SYN,ACK: not the SYN that teaches a port.
			// A SYN out (or any datagram out) may teach a socket its local port.
			const teaches = dir === 'out' && (syn || proto === 17);
			const c = this.#match(proto, local, lport, remote, rport, t, teaches);
			if (c) {
				this.#wire(c.s.key, frame, dir);
				return {
					socket: c.s.key,
					pid: c.s.pid,
					process: c.s.pid === null ? null : c.s.process,
					remote: endpointText(remote, rport),
					reason: null,
					direction: dir,
				};
			}
		}
		if (!srcLocal && !dstLocal) return none('other-host');
		const inbound = frame.direction === 'in' || (frame.direction === null && dstLocal);
		// A SYN to a port nothing listens on, or the RST that refuses it.
		if (proto === 6 && ((inbound && syn) || (!inbound && (d.tcp!.flags & 0x04) !== 0)))
			return none('closed-port');
		return none('no-socket');
	}

	#wire(key: string, f: Frame, dir: 'in' | 'out'): void {
		let w = this.#facts.get(key);
		if (!w) this.#facts.set(key, (w = new Facts()));
		const d = f.dissection;
		w.packets++;
		if (dir === 'in') {
			w.packetsIn++;
			w.payloadIn += d.payloadBytes;
		} else {
			w.packetsOut++;
			w.payloadOut += d.payloadBytes;
		}
		const tcp = d.tcp;
		if (!tcp) return;
		const ticks = this.#ticks(f);
		const SYN = 0x02;
		const ACK = 0x10;
		const RST = 0x04;
		if (dir === 'out' && (tcp.flags & (SYN | ACK)) === SYN) {
			if (w.synFrame === null) {
				w.synFrame = f.number;
				w.synTicks = ticks;
			} else if (w.handshakeMs === null) w.synRetransmits++;
		}
		if (
			dir === 'in' &&
			(tcp.flags & (SYN | ACK)) === (SYN | ACK) &&
			w.synFrame !== null &&
			w.handshakeMs === null
		)
			w.handshakeMs = (ticks - w.synTicks) / 10_000;
		if (dir === 'in' && tcp.flags & RST && !w.resetByPeer) {
			w.resetByPeer = true;
			w.resetFrame = f.number;
		}
		if (dir === 'in' && tcp.window === 0 && !(tcp.flags & (SYN | RST))) w.zeroWindows++;
		if (dir === 'out' && d.payloadBytes > 0) {
			const end = (tcp.seq + d.payloadBytes) >>> 0;
			// Data wholly at or below what was already sent is sent again (sequence numbers wrap).
			if (w.sentEnd !== null && ((end - w.sentEnd) | 0) <= 0) w.retransmits++;
			else w.sentEnd = end;
		}
	}

	/** What the wire said about each socket that owned packets. */
	wireFacts(): WireFacts[] {
		return [...this.#facts].map(([socket, w]) => ({
			socket,
			packets: w.packets,
			packetsIn: w.packetsIn,
			packetsOut: w.packetsOut,
			payloadIn: w.payloadIn,
			payloadOut: w.payloadOut,
			synFrame: w.synFrame,
			handshakeMs: w.handshakeMs,
			synRetransmits: w.synRetransmits,
			retransmits: w.retransmits,
			resetByPeer: w.resetByPeer,
			resetFrame: w.resetFrame,
			zeroWindows: w.zeroWindows,
		}));
	}
}

/** Owners of frames in time order: this machine's addresses are learnt from all of them first. */
export function joinFrames(
	frames: readonly Frame[],
	sockets: Iterable<SocketSummary>,
	origin: bigint,
	localAddresses: Iterable<string> = [],
): { owners: PacketOwner[]; wire: WireFacts[] } {
	const join = new PacketJoin(sockets, origin, localAddresses);
	for (const f of frames) join.learnLocal(f);
	const owners = frames.map((f) => join.owner(f));
	return { owners, wire: join.wireFacts() };
}
