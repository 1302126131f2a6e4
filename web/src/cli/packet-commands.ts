// `sockscope packets FILE` (one line per frame, in time order, with its owner) and
// `sockscope pcapng FILE [--out F]` (the frames as pcapng for Wireshark, each commented with its
// process): the sockets and the frames are rebuilt in one pass, then joined.
import { closeSync, openSync, writeSync } from 'node:fs';
import { indexBuffers, openTrace } from '../decoder/etl-file.ts';
import { csvCell } from '../decoder/record-lines.ts';
import { blockCache } from '../decoder/source.ts';
import { checkedRead } from './checked-read.ts';
import { nearest } from '../lib/nearest.ts';
import { compilePacketFilter, PacketFilterError } from '../packets/packet-filter.ts';
import { PACKET_COLUMNS, packetRow, type PacketColumn } from '../packets/packet-row.ts';
import { pcapngBlocks, socketNames } from '../packets/pcapng-file.ts';
import { trackPackets, type TracePackets } from '../packets/track-packets.ts';
import { EXIT, UsageError, type Options } from './args.ts';
import type { Io } from './io.ts';
import { openInput, openRefused } from './input.ts';
import { LineWriter } from './output.ts';
import { Progress } from './progress.ts';

/** `--columns` for packets: names from PACKET_COLUMNS. */
export function pickPacketColumns(names: readonly string[]): PacketColumn[] {
	for (const n of names)
		if (!(PACKET_COLUMNS as readonly string[]).includes(n)) {
			const near = nearest(n, PACKET_COLUMNS);
			throw new UsageError(
				`--columns: packets have no column "${n}"${near ? `; did you mean ${near}?` : ''}`,
			);
		}
	return names as PacketColumn[];
}

function packetFilter(expr: string | null) {
	if (expr === null) return null;
	try {
		return compilePacketFilter(expr);
	} catch (e) {
		if (e instanceof PacketFilterError) throw new UsageError(`--filter: ${e.message}`);
		throw e;
	}
}

/** What a run says on stderr: damage, capture problems, and a file without packets. */
function notes(p: TracePackets, damage: readonly string[]): string[] {
	const out = [
		...damage,
		...p.problems.map((x) => `packets: ${x.where} (record ${x.index}): ${x.what}`),
	];
	return out;
}

async function load(
	opts: Options,
	module: WebAssembly.Module,
	io: Io,
): Promise<{ packets: TracePackets; damage: string[]; name: string } | number> {
	const file = opts.files[0]!;
	const input = await openInput(file, io.stdin);
	const progress = new Progress(input.name, opts.quiet, io.stderr);
	try {
		const opened = await openTrace(blockCache(input.source), module, input.name);
		if (!opened.ok) return openRefused(file, opened, io.stderr);
		const trace = opened.value;
		const index = await indexBuffers(trace);
		const read = checkedRead(trace, index, progress);
		const packets = await trackPackets(trace, index.buffers, read.onBuffer, read.onSlice);
		return { packets, damage: read.finish(), name: input.name };
	} finally {
		progress.done();
		input.close();
	}
}

function namesOf(p: TracePackets): (socket: string | null) => readonly string[] {
	return socketNames(p.tracked.sockets);
}

function finish(file: string, p: TracePackets, damage: readonly string[], io: Io): number {
	const messages = notes(p, damage);
	for (const m of messages) io.stderr.write(`sockscope: ${file}: ${m}\n`);
	if (p.captureEvents === 0)
		io.stderr.write(
			`sockscope: ${file}: no packets: the trace has no NDIS-PacketCapture or PktMon events (capture with netsh trace start capture=yes, or pktmon start --capture)\n`,
		);
	return damage.length ? EXIT.damaged : EXIT.ok;
}

export async function packetsCommand(
	opts: Options,
	module: WebAssembly.Module,
	io: Io,
): Promise<number> {
	const columns = opts.columns ? pickPacketColumns(opts.columns) : [...PACKET_COLUMNS];
	const test = packetFilter(opts.filter);
	const loaded = await load(opts, module, io);
	if (typeof loaded === 'number') return loaded;
	const { packets: p, damage } = loaded;
	const out = new LineWriter(io.stdout);
	const interfaces = new Map(p.interfaces.map((f) => [f.key, f]));
	const names = namesOf(p);
	if (opts.format === 'csv') await out.line(columns.join(','));
	for (let k = 0; k < p.frames.length; k++) {
		const f = p.frames[k]!;
		const o = p.owners[k]!;
		if (test && !test(f, o, names)) continue;
		const row = packetRow(f, o, interfaces);
		if (opts.format === 'csv') await out.line(columns.map((c) => csvCell(row[c])).join(','));
		else await out.line(JSON.stringify(Object.fromEntries(columns.map((c) => [c, row[c]]))));
	}
	await out.flush();
	return finish(opts.files[0]!, p, damage, io);
}

export async function pcapngCommand(
	opts: Options,
	module: WebAssembly.Module,
	io: Io,
): Promise<number> {
	const test = packetFilter(opts.filter);
	const loaded = await load(opts, module, io);
	if (typeof loaded === 'number') return loaded;
	const { packets: p, damage } = loaded;
	const names = namesOf(p);
	const fd = opts.out === null ? null : openSync(opts.out, 'w');
	let chunk: Uint8Array[] = [];
	let size = 0;
	const send = async () => {
		if (!chunk.length) return;
		const all = new Uint8Array(size);
		let at = 0;
		for (const b of chunk) {
			all.set(b, at);
			at += b.length;
		}
		chunk = [];
		size = 0;
		if (fd !== null) writeSync(fd, all);
		else if (!io.stdout.write(all)) await new Promise<void>((r) => io.stdout.once('drain', r));
	};
	const put = async (b: Uint8Array) => {
		chunk.push(b);
		size += b.length;
		if (size >= 1 << 20) await send();
	};
	try {
		for (const block of pcapngBlocks(p, names, test)) await put(block);
		await send();
	} finally {
		if (fd !== null) closeSync(fd);
	}
	return finish(opts.files[0]!, p, damage, io);
}
