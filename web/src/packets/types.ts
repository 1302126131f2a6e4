// What the packet room hands on: frames rebuilt from the capture providers' events, each layer a
// dissector found in it, and the facts a socket join and a packet row need. Plain data
// (structured-clone safe), so a worker can give it to the page.
import type { LinkName } from '../generated/packet-capture.ts';
import type { Msg } from '../i18n/render.ts';

export type Direction = 'in' | 'out';

/** One protocol header found in a frame, with its fields for a details view. */
export interface Layer {
	readonly name: string;
	/** Where the header starts in the frame, and its length (payload excluded). */
	readonly at: number;
	readonly length: number;
	readonly fields: Readonly<Record<string, string | number | boolean | null>>;
}

export interface TcpFacts {
	readonly flags: number;
	/** 'SYN,ACK' — the set flags in header order (FIN…CWR), comma-separated. */
	readonly flagNames: string;
	readonly seq: number;
	readonly ack: number;
	readonly window: number;
	readonly mss: number | null;
	readonly wscale: number | null;
}

export interface DnsRecord {
	readonly name: string;
	readonly type: number;
	/** An address (A, AAAA) or a name (CNAME, PTR, NS), else null. */
	readonly data: string | null;
	readonly ttl: number;
}

export interface DnsMessage {
	readonly id: number;
	readonly response: boolean;
	readonly rcode: number;
	readonly questions: readonly { readonly name: string; readonly type: number }[];
	readonly answers: readonly DnsRecord[];
}

export interface Dissection {
	readonly layers: readonly Layer[];
	/** The innermost protocol named: TCP, UDP, DNS, ICMP, ICMPv6, ARP, IPv4, IPv6, Ethernet, … */
	readonly protocol: string;
	/** 4 or 6 when an IP header was read. */
	readonly ipVersion: 4 | 6 | null;
	/** IP protocol number of the transport (after IPv6 extension headers). */
	readonly ipProtocol: number | null;
	readonly srcAddress: string | null;
	readonly dstAddress: string | null;
	readonly srcPort: number | null;
	readonly dstPort: number | null;
	readonly vlan: number | null;
	/** The Ethernet destination is broadcast or multicast. */
	readonly linkBroadcast: boolean;
	readonly tcp: TcpFacts | null;
	/** ICMP/ICMPv6 type and code. */
	readonly icmp: { readonly type: number; readonly code: number } | null;
	/** Bytes of transport payload by the headers' lengths (not the captured bytes). */
	readonly payloadBytes: number;
	readonly dns: DnsMessage | null;
	/** Length the frame had on the wire, from the IP header's, when it says more than captured. */
	readonly wireLength: number | null;
	/** What is wrong with the frame and where (offset in the frame), or null. */
	readonly malformed: { readonly at: number; readonly what: Msg } | null;
}

/** Where a frame came from. */
export interface CaptureInterface {
	/** `ndis:<LowerIfIndex>` or `pktmon:<ComponentId>`: unique in the trace. */
	readonly key: string;
	readonly source: 'ndis' | 'pktmon';
	readonly link: LinkName;
	readonly name: string;
	readonly description: string;
	readonly ipv4: readonly string[];
	readonly ipv6: readonly string[];
	readonly mac: string | null;
}

/** A frame rebuilt from one or more capture events. */
export interface Frame {
	/** Position among the trace's frames (time order). */
	readonly number: number;
	/** Record index (in `sockscope decode` order) of the event that completed the frame. */
	readonly index: number;
	/** FILETIME (100 ns since 1601) of that event, as etl2pcapng does. */
	readonly filetime: bigint;
	readonly interfaceKey: string;
	readonly direction: Direction | null;
	readonly link: LinkName;
	readonly bytes: Uint8Array;
	/** Length on the wire when the provider says so (PktMon OriginalPayloadSize). */
	readonly originalLength: number | null;
	/** The event header's PID and TID: the context that logged it (often a DPC), not the owner. */
	readonly headerPid: number | null;
	readonly headerTid: number | null;
	/** PktMon: the packet's group id and which appearance (component) this is. */
	readonly pktGroupId: bigint | null;
	readonly appearance: number | null;
	/** PktMon 170: why and where it was dropped. */
	readonly dropReason: number | null;
	readonly dropReasonName: string | null;
	readonly dropLocation: number | null;
	/** Events that made it (more than one for an NDIS frame in fragments). */
	readonly fragments: number;
	/** What is wrong with how the frame was logged (a fragment lost its start, …), or null. */
	readonly problem: Msg | null;
	readonly dissection: Dissection;
}
