// `sockscope sockets` and `sockscope findings`: the reconstructed sockets and what deserves a look.
// Event indexes printed here are positions in `sockscope decode` output (header record = 0).
import { indexBuffers, type OpenTrace } from '../decoder/etl-file.ts';
import { checkedRead } from './checked-read.ts';
import { findingsOf } from '../sockets/findings.ts';
import { SOCKET_COLUMNS, socketRow } from '../sockets/socket-row.ts';
import { storyOf } from '../sockets/story.ts';
import { trackTraceStream, type TrackedStream } from '../sockets/track-trace.ts';
import { csvCell } from '../export/record-lines.ts';
import { FINDING_TABLE, findingRow } from '../export/tables.ts';
import { AlignedTable, type LineWriter } from './output.ts';
import type { Progress } from './progress.ts';
import { nearest } from '../lib/nearest.ts';

/** Sockets written between flushes of the output. */
const FLUSH_EVERY = 32;

/** The NDJSON line's fields beyond the CSV columns. */
const MORE_FIELDS = [
	'key',
	'origin',
	'events',
	'first_event',
	'tcp',
	'pid_source',
	'peers',
	'nested_send_exits',
	'story',
] as const;

/** The columns of the terminal's table of sockets, unless --columns picks others. */
const TABLE_COLUMNS = [
	'pid',
	'process',
	'type',
	'local',
	'remote',
	'remote_name',
	'state',
	'connect_ms',
	'bytes_sent',
	'bytes_received',
	'error',
	'ended_by',
] as const;

export type SocketsFormat = 'ndjson' | 'csv' | 'table';
export type FindingsFormat = 'list' | 'table' | 'ndjson' | 'csv';

/** `--columns` for sockets: names from SOCKET_COLUMNS (and, in NDJSON, the extra fields). */
export function pickSocketColumns(names: readonly string[]): string[] | { error: string } {
	const known: readonly string[] = [...SOCKET_COLUMNS, ...MORE_FIELDS];
	for (const n of names)
		if (!known.includes(n)) {
			const near = nearest(n, known);
			return {
				error: `--columns: sockets have no column "${n}"${near ? `; did you mean ${near}?` : ''}`,
			};
		}
	return [...names];
}

/**
 * Reads the whole trace into sockets, summed up one at a time as they are written (nothing here
 * prints a socket's event list, so none is kept); damage found on the way is returned as messages.
 */
export async function track(
	trace: OpenTrace,
	progress: Progress,
): Promise<{ tracked: TrackedStream; problems: string[] }> {
	const index = await indexBuffers(trace);
	const read = checkedRead(trace, index, progress);
	const tracked = await trackTraceStream(
		trace,
		index.buffers,
		{ maxEventsPerSocket: 0 },
		read.onBuffer,
		read.onSlice,
	);
	return { tracked, problems: read.finish() };
}

export async function socketsCommand(
	trace: OpenTrace,
	format: SocketsFormat,
	columns: readonly string[] | null,
	out: LineWriter,
	progress: Progress,
): Promise<string[]> {
	const { tracked, problems } = await track(trace, progress);
	const picked =
		columns ?? (format === 'csv' ? SOCKET_COLUMNS : format === 'table' ? TABLE_COLUMNS : null);
	if (format === 'csv') await out.line(picked!.join(','));
	const table = format === 'table' ? new AlignedTable(out, picked!) : null;
	const story = picked === null || picked.includes('story');
	let written = 0;
	for (const s of tracked.sockets) {
		// One object grown by named stores, in the order the fields are printed: spreading the row
		// into a literal with more fields made a hidden class per line, which V8 keeps in the old
		// heap until a full collection (a third of the peak memory on a 1 GB trace).
		const full: Record<string, unknown> = socketRow(s);
		// NDJSON keeps lists as lists (the CSV row joins the names with spaces).
		if (format === 'ndjson') full['remote_names'] = s.remoteNames ?? [];
		full['tcp'] = s.tcp?.text ?? null;
		full['key'] = s.key;
		full['origin'] = s.origin;
		full['events'] = s.eventCount;
		full['first_event'] = s.firstEvent.index;
		full['pid_source'] = s.pidSource;
		full['peers'] = s.peers.map((p) => ({
			remote: p.remote,
			remote_name: p.remoteName,
			bytes_sent: p.bytesSent,
			bytes_received: p.bytesReceived,
			datagrams_sent: p.datagramsSent,
			datagrams_received: p.datagramsReceived,
			first: p.first.iso,
			last: p.last.iso,
		}));
		full['nested_send_exits'] = s.nestedSendExits;
		// Told only when asked for: the story is the costly part.
		if (story) full['story'] = storyOf(s);
		if (table) await table.row(picked!.map((c) => full[c]));
		else if (format === 'csv') await out.line(picked!.map((c) => csvCell(full[c])).join(','));
		else
			await out.line(
				JSON.stringify(picked ? Object.fromEntries(picked.map((c) => [c, full[c]])) : full),
			);
		// Lines written soon die young: held for a megabyte of output they outlive collections
		// of the young heap and pile up in the old one, which the sockets then share.
		if (++written % FLUSH_EVERY === 0) await out.flush();
	}
	if (table) {
		if (table.rows === 0) await out.line('no sockets');
		else await table.end();
	}
	return problems;
}

export async function findingsCommand(
	trace: OpenTrace,
	json: boolean,
	format: FindingsFormat,
	out: LineWriter,
	progress: Progress,
): Promise<string[]> {
	const { tracked, problems } = await track(trace, progress);
	const findings = findingsOf(tracked);
	// English only: the messages the page translates stay out of the CLI's output.
	const english = findings.map(({ message: _, ...f }) => f);
	if (json) {
		await out.line(JSON.stringify({ sockets: tracked.socketCount, findings: english }));
		return problems;
	}
	if (format === 'ndjson') {
		for (const f of english) await out.line(JSON.stringify(f));
		return problems;
	}
	if (format === 'csv') {
		// The columns of the exported findings table (export/tables.ts).
		await out.line(FINDING_TABLE.map((c) => c.name).join(','));
		for (const f of findings) {
			const row = findingRow(f);
			await out.line(FINDING_TABLE.map((c) => csvCell(row[c.name])).join(','));
		}
		return problems;
	}
	if (format === 'table' && findings.length > 0) {
		const table = new AlignedTable(out, ['severity', 'count', 'sockets', 'events', 'finding']);
		for (const f of findings)
			await table.row([f.severity, f.count, f.socketCount, f.eventCount, f.title]);
		await table.end();
		await out.line('');
		await out.line(
			`${tracked.socketCount} sockets; --format list explains each finding and names its sockets and events`,
		);
		return problems;
	}
	if (findings.length === 0) await out.line(`no findings (${tracked.socketCount} sockets)`);
	for (const f of findings) {
		await out.line(`[${f.severity}] ${f.title} (${f.count})`);
		await out.line(`  ${f.explanation}`);
		const more = (shown: number, all: number) => (all > shown ? ` … (${all} in all)` : '');
		await out.line(
			`  sockets: ${f.sockets.slice(0, 8).join(' ')}${more(Math.min(8, f.sockets.length), f.socketCount)}`,
		);
		await out.line(
			`  events: ${f.events.slice(0, 16).join(' ')}${more(Math.min(16, f.events.length), f.eventCount)}`,
		);
	}
	return problems;
}
