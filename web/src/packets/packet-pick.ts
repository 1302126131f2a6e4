// Which frames a pcapng download holds: what a packet filter keeps, rows picked in the Packets
// panel, one socket's packets, or a conversation's (its sockets' packets with its remote). The
// worker turns a pick into a test of a frame; the page names the file for it.
import { splitEndpoint, type PacketOwner } from './join.ts';
import { compilePacketFilter, type Test } from './packet-filter.ts';
import type { Frame } from './types.ts';

export type PacketPick =
	| { readonly kind: 'filter'; readonly filter: string }
	| { readonly kind: 'frames'; readonly numbers: readonly number[] }
	| { readonly kind: 'socket'; readonly socket: string }
	| {
			readonly kind: 'conversation';
			readonly sockets: readonly string[];
			/** The conversation's remote ('a.b.c.d:port'): a datagram socket talks to several. */
			readonly remote: string;
			/** Its process, for the file's name. */
			readonly process: string;
	  };

const sameEndpoint = (a: string | null, b: string | null): boolean => {
	const x = splitEndpoint(a);
	const y = splitEndpoint(b);
	return x !== null && y !== null && x.address === y.address && x.port === y.port;
};

/** The pick as a test of a frame (null: every frame); a filter's errors throw PacketFilterError. */
export function pickTest(pick: PacketPick): Test | null {
	switch (pick.kind) {
		case 'filter':
			return pick.filter.trim() ? compilePacketFilter(pick.filter) : null;
		case 'frames': {
			const numbers = new Set(pick.numbers);
			return (f: Frame) => numbers.has(f.number);
		}
		case 'socket':
			return (_f: Frame, o: PacketOwner) => o.socket === pick.socket;
		case 'conversation': {
			const sockets = new Set(pick.sockets);
			return (_f: Frame, o: PacketOwner) =>
				o.socket !== null && sockets.has(o.socket) && sameEndpoint(o.remote, pick.remote);
		}
	}
}

const safe = (s: string) =>
	s
		.replace(/[\\/:*?"<>|\s[\]]+/g, '_')
		.replace(/_+/g, '_')
		.replace(/^_|_$/g, '');

/**
 * "sample.etl" → "sample-packets.pcapng", "sample-packets-filtered.pcapng",
 * "sample-packets-3-selected.pcapng", "sample-socket-<key>.pcapng",
 * "sample-conversation-curl.exe-93.184.216.34_443.pcapng" (or .parquet, … for the table).
 */
export function pcapngFileName(
	traceName: string,
	pick: PacketPick,
	ext: 'pcapng' | 'parquet' | 'ndjson' | 'csv' = 'pcapng',
): string {
	const base = safe(traceName.replace(/\.etl$/i, '')) || 'trace';
	switch (pick.kind) {
		case 'filter':
			return `${base}-${pick.filter.trim() ? 'packets-filtered' : 'packets'}.${ext}`;
		case 'frames':
			return `${base}-packets-${pick.numbers.length}-selected.${ext}`;
		case 'socket':
			return `${base}-socket-${safe(pick.socket)}.${ext}`;
		case 'conversation':
			return `${base}-conversation-${safe(pick.process)}-${safe(pick.remote)}.${ext}`;
	}
}
