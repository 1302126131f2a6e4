// The facts a dissection gathers as it goes down the layers; dissect() freezes them.
import type { DnsMessage, Layer, TcpFacts } from './types.ts';

export class DissectState {
	layers: Layer[] = [];
	protocol = 'unknown';
	ipVersion: 4 | 6 | null = null;
	ipProtocol: number | null = null;
	srcAddress: string | null = null;
	dstAddress: string | null = null;
	srcPort: number | null = null;
	dstPort: number | null = null;
	vlan: number | null = null;
	linkBroadcast = false;
	tcp: TcpFacts | null = null;
	icmp: { type: number; code: number } | null = null;
	payloadBytes = 0;
	dns: DnsMessage | null = null;
	wireLength: number | null = null;

	layer(name: string, at: number, length: number, fields: Layer['fields']): void {
		this.layers.push({ name, at, length, fields });
		this.protocol = name;
	}
}
