// A socket's wire facts as the lines its story shows (each a catalogue key under `wire.` and its
// values): what reached the peer and how long it took, and what went wrong on the way.
import type { WireFacts } from '../../packets/join.ts';
import type { Text } from '../../i18n/render.ts';

export interface WireLine {
	readonly key:
		| 'packets'
		| 'handshake'
		| 'refused'
		| 'reset'
		| 'syn-again'
		| 'syn-unanswered'
		| 'retransmits'
		| 'zero-windows';
	readonly params: Record<string, Text>;
	readonly bad: boolean;
}

/** The port of 'a.b.c.d:port' / '[v6]:port', or null. */
function portOf(remote: string | null): string | null {
	const m = remote ? /:(\d+)$/.exec(remote) : null;
	return m ? m[1]! : null;
}

export function wireLines(w: WireFacts, remote: string | null): WireLine[] {
	const out: WireLine[] = [
		{
			key: 'packets',
			params: {
				count: w.packets,
				out: w.packetsOut,
				in: w.packetsIn,
				sent: w.payloadOut.toLocaleString('en-US'),
				received: w.payloadIn.toLocaleString('en-US'),
			},
			bad: false,
		},
	];
	if (w.handshakeMs !== null)
		out.push({ key: 'handshake', params: { time: { durationMs: w.handshakeMs } }, bad: false });
	// An RST to a SYN that was never answered: the peer refused the connection.
	if (w.resetByPeer && w.synFrame !== null && w.handshakeMs === null)
		out.push({ key: 'refused', params: { port: portOf(remote) ?? '?' }, bad: true });
	else if (w.resetByPeer)
		out.push({ key: 'reset', params: { frame: w.resetFrame ?? '?' }, bad: true });
	if (w.synRetransmits > 0)
		out.push({
			key: w.handshakeMs === null ? 'syn-unanswered' : 'syn-again',
			params: { count: w.synRetransmits },
			bad: w.handshakeMs === null,
		});
	if (w.retransmits > 0)
		out.push({ key: 'retransmits', params: { count: w.retransmits }, bad: true });
	if (w.zeroWindows > 0)
		out.push({ key: 'zero-windows', params: { count: w.zeroWindows }, bad: true });
	return out;
}
