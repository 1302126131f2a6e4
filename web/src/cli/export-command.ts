// `sockscope export --format parquet|ndjson|csv --out DIR FILE...`: Hive-partitioned tables for
// DuckDB, Spark or any engine that reads a folder of files:
//   DIR/events/trace=<stem>/part-0.parquet, and the same for sockets, conversations, findings and
// packets (a trace without a capture has an empty packets table).
// Traces are exported one after another, each in two passes: the sockets (and findings, and the
// captured frames joined to them) first, whose owners the events' rows then take; a trace that
// cannot be read is reported and skipped, the others go on.
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import { indexBuffers, openTrace } from '../decoder/etl-file.ts';
import { blockCache } from '../decoder/source.ts';
import {
	CONVERSATION_TABLE,
	conversationRow,
	EVENT_COLUMNS,
	eventRow,
	FINDING_TABLE,
	findingRow,
	SOCKET_TABLE,
	socketTableRow,
} from '../export/tables.ts';
import {
	tableWriter,
	type TableColumn,
	type TableFormat,
	type TableWriter,
} from '../export/table-writer.ts';
import { conversationsOf } from '../sockets/conversations.ts';
import { findingsOf } from '../sockets/findings.ts';
import { EVENTS_KEPT_PER_SOCKET } from '../sockets/import-tracker.ts';
import { PACKET_TABLE, packetTableRow } from '../export/packet-table.ts';
import { trackPackets } from '../packets/track-packets.ts';
import { ColumnWriter } from '../export/column-writer.ts';
import { EVENT_PICKS } from '../export/event-picks.ts';
import { BufferEventRows } from '../export/event-rows.ts';
import { EXIT, type Options } from './args.ts';
import { filteredRecords, type WrittenRecord } from './decode-command.ts';
import { openInput } from './input.ts';
import { Progress } from './progress.ts';

export const TABLES = ['events', 'sockets', 'conversations', 'findings', 'packets'] as const;

/** The partition value of a trace: its file name without .etl, safe in a path. */
export function traceStem(name: string): string {
	return name.replace(/\.etl$/i, '').replace(/[\\/:*?"<>|=%]+/g, '_') || 'trace';
}

/** A table's file in a trace's partition, written as it goes. */
function tableFile(
	dir: string,
	table: string,
	stem: string,
	format: TableFormat,
	columns: readonly TableColumn[],
): TableWriter {
	const partition = join(dir, table, `trace=${stem}`);
	mkdirSync(partition, { recursive: true });
	const fd = openSync(join(partition, `part-0.${format}`), 'w');
	const writer = tableWriter(format, columns, (piece) => void writeSync(fd, piece));
	return {
		...writer,
		close: async () => {
			try {
				return await writer.close();
			} finally {
				closeSync(fd);
			}
		},
	};
}

/**
 * The events table's NDJSON or CSV lines written straight from each record's buffer
 * (ColumnWriter over EVENT_PICKS), for a schema-decoded event; any other is left to eventRow.
 */
function eventLines(format: TableFormat, events: TableWriter): WrittenRecord {
	let writer: ColumnWriter | null = null;
	return (stored, providers, c, i, at) => {
		const w = (writer ??= new ColumnWriter(format as 'ndjson' | 'csv', EVENT_PICKS, providers));
		return events.write!((sink) =>
			w.write(sink, stored.buffer, stored.i, c.pid[i]!, c.tid[i]!, at),
		);
	};
}

/**
 * The events table's Parquet rows made straight from each record's buffer (BufferEventRows), for
 * a schema-decoded event; any other is left to eventRow.
 */
function eventRows(events: TableWriter): WrittenRecord {
	let rows: BufferEventRows | null = null;
	return (stored, providers, c, i, at) => {
		rows ??= new BufferEventRows(providers);
		const row = rows.row(stored.buffer, stored.i, c.pid[i]!, c.tid[i]!, at);
		if (row === null) return false;
		const adding = events.add(row);
		return adding ? adding.then(() => true) : true;
	};
}

interface Exported {
	readonly events: number;
	readonly sockets: number;
	readonly conversations: number;
	readonly findings: number;
	readonly packets: number;
	readonly damage: string[];
}

async function exportTrace(
	file: string,
	stem: string,
	opts: Options,
	module: WebAssembly.Module,
	stderr: NodeJS.WritableStream & { isTTY?: boolean },
	stdin: NodeJS.ReadableStream,
): Promise<Exported | { error: string }> {
	const format = opts.format as TableFormat;
	const dir = opts.out!;
	const input = await openInput(file, stdin);
	const progress = new Progress(input.name, opts.quiet, stderr);
	try {
		const opened = await openTrace(blockCache(input.source), module, input.name);
		if (!opened.ok) return { error: opened.error };
		const trace = opened.value;
		// The sockets first: the events' owners are theirs, known once the whole trace is followed.
		const index = await indexBuffers(trace);
		const packets = await trackPackets(trace, index.buffers, undefined, undefined, {
			tracker: { maxEventsPerSocket: EVENTS_KEPT_PER_SOCKET },
			eventOwners: true,
		});
		const tracked = packets.tracked;
		const events = tableFile(dir, 'events', stem, format, EVENT_COLUMNS);
		const { damage } = await filteredRecords(
			trace,
			module,
			opts.filter ?? '',
			(r, c, i, ctx, index, owners) => events.add(eventRow(c, i, ctx, r, index, owners)),
			async () => events.flush?.(),
			progress,
			{
				owners: tracked.owners ?? null,
				sockets: false,
				written: events.write ? eventLines(format, events) : eventRows(events),
			},
		);
		// Rows written from their buffers and from their record objects alike.
		const eventCount = await events.close();
		const write = async <T>(
			table: string,
			columns: readonly TableColumn[],
			items: readonly T[],
			row: (x: T) => Record<string, unknown>,
		) => {
			const w = tableFile(dir, table, stem, format, columns);
			for (const x of items) await w.add(row(x));
			return w.close();
		};
		const conversations = conversationsOf(tracked.sockets);
		const findings = findingsOf(tracked);
		await write('sockets', SOCKET_TABLE, tracked.sockets, socketTableRow);
		await write('conversations', CONVERSATION_TABLE, conversations, conversationRow);
		await write('findings', FINDING_TABLE, findings, findingRow);
		const interfaces = new Map(packets.interfaces.map((f) => [f.key, f]));
		await write('packets', PACKET_TABLE, packets.frames, (f) =>
			packetTableRow(f, packets.owners[f.number]!, interfaces),
		);
		return {
			events: eventCount,
			sockets: tracked.sockets.length,
			conversations: conversations.length,
			findings: findings.length,
			packets: packets.frames.length,
			damage,
		};
	} finally {
		progress.done();
		input.close();
	}
}

/** Exports every trace; returns the exit code (1 when any trace was damaged or skipped). */
export async function exportCommand(
	opts: Options,
	module: WebAssembly.Module,
	io: { stdin: NodeJS.ReadableStream; stderr: NodeJS.WritableStream & { isTTY?: boolean } },
): Promise<number> {
	const stems = new Map<string, string>();
	for (const f of opts.files) {
		const stem = traceStem(f === '-' ? 'stdin' : basename(f));
		// Two traces of the same name from different folders get partitions of their own.
		let unique = stem;
		for (let n = 2; [...stems.values()].includes(unique); n++) unique = `${stem}-${n}`;
		stems.set(f, unique);
	}
	let code: number = EXIT.ok;
	for (const file of opts.files) {
		const stem = stems.get(file)!;
		const removePartitions = () => {
			for (const t of TABLES)
				rmSync(join(opts.out!, t, `trace=${stem}`), { recursive: true, force: true });
		};
		// A partition left by an earlier export of a trace of this name is replaced, not added to.
		removePartitions();
		let result: Awaited<ReturnType<typeof exportTrace>>;
		try {
			result = await exportTrace(file, stem, opts, module, io.stderr, io.stdin);
		} catch (e) {
			result = { error: e instanceof Error ? e.message : String(e) };
		}
		if ('error' in result) {
			removePartitions();
			io.stderr.write(`sockscope: ${file}: ${result.error}; skipped\n`);
			code = EXIT.damaged;
			continue;
		}
		for (const d of result.damage) io.stderr.write(`sockscope: ${file}: ${d}\n`);
		if (result.damage.length) code = EXIT.damaged;
		if (!opts.quiet)
			io.stderr.write(
				`sockscope: ${file} → trace=${stem}: ${result.events} events, ${result.sockets} sockets, ` +
					`${result.conversations} conversations, ${result.findings} findings, ` +
					`${result.packets} packets\n`,
			);
	}
	return code;
}
