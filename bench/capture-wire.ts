// The packets a `netsh trace start capture=yes` would log beside the Winsock-AFD trace of
// bench/winsock-trace.ts: for each TCP client connection the handshake, every send and receive as
// MSS-sized segments with the peer's ACKs, as NDIS-PacketCapture 1001 events (Ethernet, one
// interface, a frame in one fragment), logged in the System context. Frames are a
// header built with tests/builders/frames.ts and a slice of one payload buffer: cheap enough to
// write a capture of a gigabyte.
import { ethernet, ipv4, ipv6, tcp, TCP } from '../tests/builders/frames.ts';
import { netEvent } from '../tests/builders/net-payloads.ts';
import type { EtlWriter } from '../tests/builders/etl-writer.ts';
import type { Prng } from '../tests/builders/prng.ts';

const KW = {
	ethernet: 0x1n,
	start: 0x40000000n,
	end: 0x80000000n,
	send: 0x100000000n,
	receive: 0x200000000n,
} as const;
const IF_INDEX = 7;
const MSS = 1460;
const LOCAL_V4 = '10.0.0.7';
const LOCAL_V6 = '2001:db8:0:1::7';
const PAYLOAD = Uint8Array.from({ length: MSS }, (_, k) => (k * 31 + 7) & 0xff);
const CPUS = 8;

interface Flow {
	readonly v6: boolean;
	readonly local: string;
	readonly remote: string;
	readonly lport: number;
	readonly rport: number;
	seqOut: number;
	seqIn: number;
}

/** '[v6%12]:443' / 'a.b.c.d:443' → address (no scope) and port. */
function endpoint(text: string): { address: string; port: number } {
	const m = /^\[([^\]%]+)(?:%[^\]]*)?\]:(\d+)$/.exec(text) ?? /^([^:]+):(\d+)$/.exec(text)!;
	return { address: m[1]!, port: Number(m[2]) };
}

export class CaptureWire {
	readonly #w: EtlWriter;
	readonly #rng: Prng;
	readonly #flows = new Map<bigint, Flow>();
	events = 0;
	frames = 0;
	bytes = 0;

	constructor(w: EtlWriter, rng: Prng) {
		this.#w = w;
		this.#rng = rng;
	}

	/** A connect that succeeded: SYN out, SYN-ACK in, ACK out, just before `connected`. */
	connected(
		endpointKey: bigint,
		lport: number,
		remote: string,
		v6: boolean,
		connected: bigint,
	): void {
		const r = endpoint(remote);
		const flow: Flow = {
			v6,
			local: v6 ? LOCAL_V6 : LOCAL_V4,
			remote: r.address,
			lport,
			rport: r.port,
			seqOut: 0x10000000 + lport,
			seqIn: 0x50000000 + r.port,
		};
		this.#flows.set(endpointKey, flow);
		this.#segment(flow, connected - 3000n, true, TCP.SYN, 0);
		flow.seqOut++;
		this.#segment(flow, connected - 2000n, false, TCP.SYN | TCP.ACK, 0);
		flow.seqIn++;
		this.#segment(flow, connected - 1000n, true, TCP.ACK, 0);
	}

	/** `len` bytes sent from `at`: segments out, the peer's ACK after them. */
	sent(endpointKey: bigint, at: bigint, len: number): void {
		const flow = this.#flows.get(endpointKey);
		if (!flow) return;
		let t = at;
		for (let left = len; left > 0; left -= MSS) {
			this.#segment(flow, (t += 7n), true, TCP.PSH | TCP.ACK, Math.min(MSS, left));
		}
		this.#segment(flow, t + 300n, false, TCP.ACK, 0);
	}

	/** `len` bytes received by `at`: segments in, our ACK after them. */
	received(endpointKey: bigint, at: bigint, len: number): void {
		const flow = this.#flows.get(endpointKey);
		if (!flow) return;
		const n = Math.ceil(len / MSS);
		let t = at - BigInt(n * 7 + 10);
		for (let left = len; left > 0; left -= MSS) {
			this.#segment(flow, (t += 7n), false, TCP.ACK, Math.min(MSS, left));
		}
		this.#segment(flow, t + 3n, true, TCP.ACK, 0);
	}

	/** The socket closed: its FIN exchange, then it is forgotten. */
	closed(endpointKey: bigint, at: bigint): void {
		const flow = this.#flows.get(endpointKey);
		if (!flow) return;
		this.#segment(flow, at + 5n, true, TCP.FIN | TCP.ACK, 0);
		flow.seqOut++;
		this.#segment(flow, at + 900n, false, TCP.FIN | TCP.ACK, 0);
		flow.seqIn++;
		this.#segment(flow, at + 905n, true, TCP.ACK, 0);
		this.#flows.delete(endpointKey);
	}

	#segment(f: Flow, time: bigint, out: boolean, flags: number, payload: number): void {
		const header = tcp(out ? f.lport : f.rport, out ? f.rport : f.lport, flags, {
			seq: out ? f.seqOut : f.seqIn,
			ack: out ? f.seqIn : f.seqOut,
			...(flags & TCP.SYN ? { mss: MSS, wscale: 8 } : {}),
		});
		const [src, dst] = out ? [f.local, f.remote] : [f.remote, f.local];
		let ip: number[];
		if (f.v6) {
			ip = ipv6(src, dst, 6, header);
			const length = header.length + payload;
			ip[4] = length >> 8;
			ip[5] = length & 0xff;
		} else ip = ipv4(src, dst, 6, header, { totalLength: 20 + header.length + payload });
		const head = ethernet(f.v6 ? 0x86dd : 0x0800, ip);
		const frame = new Uint8Array(head.length + payload);
		frame.set(head);
		frame.set(PAYLOAD.subarray(0, payload), head.length);
		if (out) f.seqOut += payload;
		else f.seqIn += payload;
		// One fragment each: a frame's fragments must come one after the other in the merged
		// order, which times shared by several CPUs' buffers cannot promise.
		const parts = 1;
		const cut = Math.ceil(frame.length / parts);
		const dir = out ? KW.send : KW.receive;
		const cpu = this.#rng.int(0, CPUS - 1);
		for (let k = 0; k < parts; k++) {
			const keyword =
				KW.ethernet | dir | (k === 0 ? KW.start : 0n) | (k === parts - 1 ? KW.end : 0n);
			this.#w.addEvent(
				netEvent('ndiscap', {
					cpu,
					time: time + BigInt(k - parts + 1),
					pid: 4,
					tid: 88,
					id: 1001,
					keyword,
					values: {
						MiniportIfIndex: IF_INDEX,
						LowerIfIndex: IF_INDEX,
						Fragment: frame.subarray(k * cut, Math.min(frame.length, (k + 1) * cut)),
					},
				}),
			);
			this.events++;
		}
		this.frames++;
		this.bytes += frame.length;
	}
}
