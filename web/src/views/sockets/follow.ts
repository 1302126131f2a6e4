// Follow socket: a socket's events as a two-sided sequence, as Wireshark's Follow Stream and flow
// graph draw a conversation: what the application sent towards the peer, what came back, and the
// socket's own steps between, each with the time since the one before. Which way an event goes is
// the event's role (schema/winsock-semantics.json), not its name.
import { AFD_EVENTS } from '../../generated/afd-semantics.ts';
import type { RowView } from '../../query/protocol.ts';

const AFD_PROVIDER = 'Microsoft-Windows-Winsock-AFD';
const TICKS_PER_MS = 10_000;

/** `out`: towards the peer; `in`: from it; `local`: the socket's own step (bind, option, close…). */
export type FollowSide = 'out' | 'in' | 'local';

export interface FollowStep {
	readonly key: string;
	readonly index: number;
	/** Since the socket's first event shown, and since the step before. */
	readonly ms: number;
	readonly deltaMs: number;
	readonly side: FollowSide;
	readonly event: string;
	readonly phase: 'enter' | 'exit' | null;
	/**
	 * The BufferLength of the phase that carries a transfer's size, as logged: Windows logs one send
	 * as nested pairs and completes buffered sends again, so these are not summed (the socket's
	 * figures count each send once).
	 */
	readonly bytes: number | null;
	readonly statusName: string | null;
	readonly error: boolean;
}

const OUT = new Set(['send', 'connect', 'send-backlog']);
const IN = new Set([
	'receive',
	'data-indication',
	'connect-indication',
	'accept',
	'disconnect',
	'drop',
]);

function sideOf(r: RowView): FollowSide {
	const meaning = r.provider === AFD_PROVIDER ? AFD_EVENTS[r.eventId] : undefined;
	if (!meaning) return 'local';
	if (OUT.has(meaning.role)) return 'out';
	if (IN.has(meaning.role)) return 'in';
	return 'local';
}

function bytesOf(r: RowView): number | null {
	const meaning = r.provider === AFD_PROVIDER ? AFD_EVENTS[r.eventId] : undefined;
	if (!meaning?.bytes || r.bytes === null || r.error) return null;
	return meaning.bytes === r.phase ? r.bytes : null;
}

/** The steps of `rows` (a socket's events, in trace order). */
export function followSteps(rows: readonly RowView[]): FollowStep[] {
	const first = rows[0]?.time ?? 0;
	let before = first;
	return rows.map((r) => {
		const step: FollowStep = {
			key: String(r.index),
			index: r.index,
			ms: (r.time - first) / TICKS_PER_MS,
			deltaMs: (r.time - before) / TICKS_PER_MS,
			side: sideOf(r),
			event: r.event,
			phase: r.phase,
			bytes: bytesOf(r),
			statusName: r.statusName,
			error: r.error,
		};
		before = r.time;
		return step;
	});
}
