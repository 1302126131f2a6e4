// Statistics of a trace's captured frames: the protocol hierarchy (each protocol under the one
// that carries it, with its frames and bytes, as Wireshark's Protocol Hierarchy) and the top
// talkers by process, from the socket join's owner (frames and bytes in and out), the frames no
// socket owns by why. Every row carries the packet filter that shows its frames.
import type { PacketOwner, UnownedReason } from './join.ts';
import type { Frame } from './types.ts';

/** The protocols the hierarchy names, with the filter field that keeps their frames. */
const PROTOCOL_FIELDS: Readonly<Record<string, string>> = {
	Ethernet: 'eth',
	ARP: 'arp',
	IPv4: 'ip',
	IPv6: 'ipv6',
	TCP: 'tcp',
	UDP: 'udp',
	ICMP: 'icmp',
	ICMPv6: 'icmpv6',
	DNS: 'dns',
};

export interface ProtocolRow {
	/** Its path in the hierarchy: 'Ethernet/IPv4/TCP'. */
	readonly key: string;
	readonly name: string;
	/** 0 for a protocol no other carries (Ethernet, raw IP of a wireless WAN). */
	readonly depth: number;
	readonly frames: number;
	readonly bytes: number;
	/** The packet filter of its frames: its path's fields ('eth ip tcp', '-eth ip tcp'). */
	readonly filter: string;
}

export interface TalkerRow {
	readonly key: string;
	/** The owner's process, or null for the frames no socket owns (then `reason` says why). */
	readonly pid: number | null;
	readonly process: string | null;
	readonly reason: UnownedReason | 'unknown-process' | null;
	readonly frames: number;
	readonly bytes: number;
	readonly framesIn: number;
	readonly bytesIn: number;
	readonly framesOut: number;
	readonly bytesOut: number;
	readonly filter: string;
}

export interface PacketStatistics {
	readonly frames: number;
	readonly bytes: number;
	/** In hierarchy order: each protocol right after the one carrying it, busiest first. */
	readonly protocols: readonly ProtocolRow[];
	/** Processes by bytes (busiest first), then the unowned frames by reason. */
	readonly talkers: readonly TalkerRow[];
}

/** A frame's length on the wire (frame.len). */
export const frameLength = (f: Frame): number =>
	f.originalLength ?? f.dissection.wireLength ?? f.bytes.length;

interface Node {
	name: string;
	frames: number;
	bytes: number;
	children: Map<string, Node>;
}

type Tally = {
	-readonly [K in keyof TalkerRow]: TalkerRow[K];
};

export function packetStatistics(
	frames: readonly Frame[],
	owners: readonly PacketOwner[],
): PacketStatistics {
	const root: Node = { name: '', frames: 0, bytes: 0, children: new Map() };
	const talkers = new Map<string, Tally>();
	let bytes = 0;
	for (let k = 0; k < frames.length; k++) {
		const f = frames[k]!;
		const o = owners[k]!;
		const length = frameLength(f);
		bytes += length;
		let node = root;
		for (const layer of f.dissection.layers) {
			if (!(layer.name in PROTOCOL_FIELDS)) continue;
			let next = node.children.get(layer.name);
			if (!next)
				node.children.set(
					layer.name,
					(next = { name: layer.name, frames: 0, bytes: 0, children: new Map() }),
				);
			next.frames++;
			next.bytes += length;
			node = next;
		}
		// A socket whose process the trace never named owns frames too: apart from the unowned.
		const reason: TalkerRow['reason'] =
			o.pid !== null ? null : o.socket !== null ? 'unknown-process' : (o.reason ?? 'no-socket');
		const key = reason === null ? `pid:${o.pid}` : `unowned:${reason}`;
		let t = talkers.get(key);
		if (!t) {
			t = {
				key,
				pid: o.pid,
				process: o.process,
				reason,
				frames: 0,
				bytes: 0,
				framesIn: 0,
				bytesIn: 0,
				framesOut: 0,
				bytesOut: 0,
				filter:
					reason === null
						? `pid:${o.pid}`
						: reason === 'unknown-process'
							? 'owned -pid'
							: `reason:${reason}`,
			};
			talkers.set(key, t);
		}
		t.frames++;
		t.bytes += length;
		// The owner's side when a socket owns it, else the capture's.
		const direction = o.direction ?? f.direction;
		if (direction === 'in') {
			t.framesIn++;
			t.bytesIn += length;
		} else if (direction === 'out') {
			t.framesOut++;
			t.bytesOut += length;
		}
	}
	const protocols: ProtocolRow[] = [];
	const walk = (node: Node, path: string[], fields: string[], depth: number) => {
		const children = [...node.children.values()].sort(
			(a, b) => b.bytes - a.bytes || b.frames - a.frames,
		);
		for (const c of children) {
			const p = [...path, c.name];
			// A frame of raw IP (a wireless WAN's) has no Ethernet: its rows keep Ethernet's out.
			const root = depth === 0 && c.name !== 'Ethernet' ? ['-eth'] : [];
			const f = [...fields, ...root, PROTOCOL_FIELDS[c.name]!];
			protocols.push({
				key: p.join('/'),
				name: c.name,
				depth,
				frames: c.frames,
				bytes: c.bytes,
				filter: f.join(' '),
			});
			walk(c, p, f, depth + 1);
		}
	};
	walk(root, [], [], 0);
	const all = [...talkers.values()];
	const byBytes = (a: Tally, b: Tally) => b.bytes - a.bytes || b.frames - a.frames;
	return {
		frames: frames.length,
		bytes,
		protocols,
		talkers: [
			...all.filter((t) => t.pid !== null).sort(byBytes),
			...all.filter((t) => t.pid === null).sort(byBytes),
		],
	};
}
