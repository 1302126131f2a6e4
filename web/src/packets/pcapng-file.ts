// A packet set as a pcapng file, block by block (the CLI's `pcapng` and the page's download
// share it): the section header, one interface description per capture interface, then one
// enhanced packet block per frame the filter keeps, commented with its owner.
import type { SocketSummary } from '../sockets/socket.ts';
import type { PacketOwner } from './join.ts';
import type { Test } from './packet-filter.ts';
import { interfaceBlock, packetBlock, sectionHeader } from './pcapng.ts';
import type { CaptureInterface, Frame } from './types.ts';

/** The frames of a trace with their owners (owners[k] owns frames[k]). */
export interface PacketSet {
	readonly frames: readonly Frame[];
	readonly owners: readonly PacketOwner[];
	readonly interfaces: readonly CaptureInterface[];
}

/** The names a socket's remote has (for `host:` and the comments). */
export function socketNames(
	sockets: readonly SocketSummary[],
): (socket: string | null) => readonly string[] {
	const names = new Map(
		sockets.map((s) => [
			s.key,
			[s.remoteName, ...(s.remoteNames ?? [])].filter((x): x is string => !!x),
		]),
	);
	return (socket) => (socket === null ? [] : (names.get(socket) ?? []));
}

/** The comment of a frame: `pid=<PID> process=<image>` (or `pid=unknown`), then socket and remote. */
export function packetComment(
	p: PacketSet,
	k: number,
	remoteName: (socket: string | null) => string | null,
): string {
	return frameComment(p.frames[k]!, p.owners[k]!, remoteName);
}

export function frameComment(
	f: Frame,
	o: PacketOwner,
	remoteName: (socket: string | null) => string | null,
): string {
	const lines = [o.pid === null ? 'pid=unknown' : `pid=${o.pid} process=${o.process ?? ''}`];
	if (o.socket) lines.push(`socket=${o.socket}`);
	if (o.remote)
		lines.push(`remote=${o.remote}${remoteName(o.socket) ? ` (${remoteName(o.socket)})` : ''}`);
	if (o.reason) lines.push(`unowned=${o.reason}`);
	if (f.dropReason !== null)
		lines.push(`drop=${f.dropReasonName ?? f.dropReason} location=${f.dropLocation ?? 'unknown'}`);
	lines.push(`event=${f.index} header_pid=${f.headerPid ?? 'none'}`);
	return lines.join('\n');
}

/** The file a frame at a time: its header first, then a block per frame `keep` picks. */
export class PcapngWriter {
	readonly #interfaces: readonly CaptureInterface[];
	readonly #order: ReadonlyMap<string, number>;
	readonly #names: (socket: string | null) => readonly string[];
	readonly #keep: Test | null;

	constructor(
		interfaces: readonly CaptureInterface[],
		names: (socket: string | null) => readonly string[],
		keep: Test | null,
	) {
		this.#interfaces = interfaces;
		this.#order = new Map(interfaces.map((f, k) => [f.key, k]));
		this.#names = names;
		this.#keep = keep;
	}

	/** The section header and one interface description per capture interface. */
	head(): Uint8Array[] {
		return [sectionHeader('Sockscope'), ...this.#interfaces.map(interfaceBlock)];
	}

	/** The frame's block, or null when `keep` leaves it out. */
	frame(f: Frame, o: PacketOwner): Uint8Array | null {
		if (this.#keep && !this.#keep(f, o, this.#names)) return null;
		const remoteName = (socket: string | null) => this.#names(socket)[0] ?? null;
		return packetBlock(f, this.#order.get(f.interfaceKey)!, frameComment(f, o, remoteName));
	}
}

/** The file's blocks in order; `keep` picks frames (all when null). */
export function* pcapngBlocks(
	p: PacketSet,
	names: (socket: string | null) => readonly string[],
	keep: Test | null,
): Generator<Uint8Array> {
	const file = new PcapngWriter(p.interfaces, names, keep);
	yield* file.head();
	for (let k = 0; k < p.frames.length; k++) {
		const b = file.frame(p.frames[k]!, p.owners[k]!);
		if (b) yield b;
	}
}
