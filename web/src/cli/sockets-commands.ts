// `sockscope sockets` and `sockscope findings`: the reconstructed sockets and what deserves a look.
// Event indexes printed here are positions in `sockscope decode` output (header record = 0).
import { indexBuffers, type OpenTrace } from '../decoder/etl-file.ts';
import { DamageLog } from '../decoder/messages.ts';
import { findingsOf } from '../sockets/findings.ts';
import { familyName, protocolName, typeName } from '../sockets/format.ts';
import type { SocketSummary } from '../sockets/socket.ts';
import { storyOf } from '../sockets/story.ts';
import { trackTrace } from '../sockets/track-trace.ts';
import type { TrackedTrace } from '../sockets/tracker.ts';
import { csvCell } from '../decoder/record-lines.ts';
import type { LineWriter } from './output.ts';

export const SOCKETS_USAGE = `  sockscope sockets FILE [--format ndjson|csv]
  sockscope findings FILE [--json]`;

export const SOCKET_COLUMNS = [
	'pid',
	'process',
	'endpoint',
	'generation',
	'family',
	'type',
	'protocol',
	'local',
	'remote',
	'opened',
	'closed',
	'state',
	'connect_ms',
	'bytes_sent',
	'bytes_received',
	'sends',
	'receives',
	'error',
	'ended_by',
] as const;

export type SocketRow = Record<(typeof SOCKET_COLUMNS)[number], string | number | null>;

/** One socket as a row of the `sockets` command. */
export function socketRow(s: SocketSummary): SocketRow {
	return {
		pid: s.pid,
		process: s.process,
		endpoint: s.endpoint,
		generation: s.generation,
		family: familyName(s.family),
		type: typeName(s.type),
		protocol: protocolName(s.protocol),
		local: s.local,
		remote: s.remote,
		opened: s.opened?.iso ?? null,
		closed: s.closed?.iso ?? null,
		state: s.state,
		connect_ms: s.connect?.ms ?? null,
		bytes_sent: s.bytesSent,
		bytes_received: s.bytesReceived,
		sends: s.sends,
		receives: s.receives,
		error: s.error,
		ended_by: s.endedBy,
	};
}

/** Reads the whole trace into sockets; damage found on the way is returned as messages. */
async function track(trace: OpenTrace): Promise<{ tracked: TrackedTrace; problems: string[] }> {
	const index = await indexBuffers(trace);
	const damage = new DamageLog();
	const tracked = await trackTrace(trace, index.buffers, {}, (b) => damage.add(b.damage));
	damage.add(index.damage);
	return { tracked, problems: damage.messages };
}

export async function socketsCommand(
	trace: OpenTrace,
	format: 'ndjson' | 'csv',
	out: LineWriter,
): Promise<string[]> {
	const { tracked, problems } = await track(trace);
	if (format === 'csv') await out.line(SOCKET_COLUMNS.join(','));
	for (const s of tracked.sockets) {
		const row = socketRow(s);
		if (format === 'csv') await out.line(SOCKET_COLUMNS.map((c) => csvCell(row[c])).join(','));
		else
			await out.line(
				JSON.stringify({
					...row,
					key: s.key,
					origin: s.origin,
					events: s.eventCount,
					first_event: s.firstEvent.index,
					story: storyOf(s),
				}),
			);
	}
	return problems;
}

export async function findingsCommand(
	trace: OpenTrace,
	json: boolean,
	out: LineWriter,
): Promise<string[]> {
	const { tracked, problems } = await track(trace);
	const findings = findingsOf(tracked);
	if (json) {
		// English only: the messages the page translates stay out of the CLI's output.
		const english = findings.map(({ message: _, ...f }) => f);
		await out.line(JSON.stringify({ sockets: tracked.sockets.length, findings: english }));
		return problems;
	}
	if (findings.length === 0) await out.line(`no findings (${tracked.sockets.length} sockets)`);
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
