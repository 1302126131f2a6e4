// `sockscope packets FILE` (one line per frame, in time order, with its owner) and
// `sockscope pcapng FILE [--out F]` (the frames as pcapng for Wireshark, each commented with its
// process): the sockets are rebuilt in a first pass, then each frame is rebuilt, joined and
// written in a second, none kept (stream-packets.ts).
import { closeSync, openSync, writeSync } from 'node:fs';
import { indexBuffers, openTrace } from '../decoder/etl-file.ts';
import { csvCell } from '../export/record-lines.ts';
import { blockCache } from '../decoder/source.ts';
import { checkedRead } from './checked-read.ts';
import { english } from '../i18n/render.ts';
import { nearest } from '../lib/nearest.ts';
import { compilePacketFilter, PacketFilterError } from '../packets/packet-filter.ts';
import { PACKET_COLUMNS, packetRow, type PacketColumn } from '../packets/packet-row.ts';
import { PcapngWriter, socketNames } from '../packets/pcapng-file.ts';
import {
	streamPackets,
	type FrameStream,
	type StreamedPackets,
} from '../packets/stream-packets.ts';
import type { CaptureInterface } from '../packets/types.ts';
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
function notes(p: StreamedPackets, damage: readonly string[]): string[] {
	return [
		...damage,
		...p.problems.map(
			(x) => `packets: ${english(x.where)} (record ${x.index}): ${english(x.what)}`,
		),
	];
}

/**
 * The trace's frames, each with its owner, handed to `out` one at a time (none is kept: memory
 * stays bounded whatever the capture's size).
 */
async function stream(
	opts: Options,
	module: WebAssembly.Module,
	io: Io,
	out: FrameStream,
): Promise<{ packets: StreamedPackets; damage: string[] } | number> {
	const file = opts.files[0]!;
	const input = await openInput(file, io.stdin);
	const progress = new Progress(input.name, opts.quiet, io.stderr);
	try {
		const opened = await openTrace(blockCache(input.source), module, input.name);
		if (!opened.ok) return openRefused(file, opened, io.stderr);
		const trace = opened.value;
		const index = await indexBuffers(trace);
		const read = checkedRead(trace, index, progress);
		const packets = await streamPackets(trace, index.buffers, out, read.onBuffer, read.onSlice);
		return { packets, damage: read.finish() };
	} finally {
		progress.done();
		input.close();
	}
}

function finish(file: string, p: StreamedPackets, damage: readonly string[], io: Io): number {
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
	const out = new LineWriter(io.stdout);
	let interfaces = new Map<string, CaptureInterface>();
	let names: (socket: string | null) => readonly string[] = () => [];
	let pending: string[] = [];
	const done = await stream(opts, module, io, {
		begin: async (p) => {
			interfaces = new Map(p.interfaces.map((f) => [f.key, f]));
			names = socketNames(p.tracked.sockets);
			if (opts.format === 'csv') await out.line(columns.join(','));
		},
		each: (f, o) => {
			if (test && !test(f, o, names)) return;
			const row = packetRow(f, o, interfaces);
			pending.push(
				opts.format === 'csv'
					? columns.map((c) => csvCell(row[c])).join(',')
					: JSON.stringify(Object.fromEntries(columns.map((c) => [c, row[c]]))),
			);
		},
		flush: async () => {
			const lines = pending;
			pending = [];
			for (const l of lines) await out.line(l);
		},
	});
	if (typeof done === 'number') return done;
	await out.flush();
	return finish(opts.files[0]!, done.packets, done.damage, io);
}

export async function pcapngCommand(
	opts: Options,
	module: WebAssembly.Module,
	io: Io,
): Promise<number> {
	const test = packetFilter(opts.filter);
	// `--out -` is standard output, as the default is.
	const fd = opts.out === null || opts.out === '-' ? null : openSync(opts.out, 'w');
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
	const put = (b: Uint8Array) => {
		chunk.push(b);
		size += b.length;
	};
	let file: PcapngWriter | null = null;
	try {
		const done = await stream(opts, module, io, {
			begin: (p) => {
				file = new PcapngWriter(p.interfaces, socketNames(p.tracked.sockets), test);
				for (const b of file.head()) put(b);
			},
			each: (f, o) => {
				const b = file!.frame(f, o);
				if (b) put(b);
			},
			flush: async () => {
				if (size >= 1 << 20) await send();
			},
		});
		if (typeof done === 'number') return done;
		await send();
		return finish(opts.files[0]!, done.packets, done.damage, io);
	} finally {
		if (fd !== null) closeSync(fd);
	}
}
