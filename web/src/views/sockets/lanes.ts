// Lanes: each socket's life on a shared time axis, cut into phases (connecting, open, closing)
// with markers where it failed or was aborted. Positions are fractions of the axis (0–1).
import { msg, type Text } from '../../i18n/render.ts';
import type { SocketSummary } from '../../sockets/socket.ts';

export type Phase = 'connecting' | 'open' | 'closing';

export interface LaneSegment {
	readonly phase: Phase;
	readonly x0: number;
	readonly x1: number;
}

export interface LaneMarker {
	readonly kind: 'error' | 'abort';
	readonly x: number;
	/** Its tooltip, in the reader's language (the abort reason from the schema's names). */
	readonly label: Text;
}

export interface Lane {
	readonly key: string;
	readonly segments: readonly LaneSegment[];
	readonly markers: readonly LaneMarker[];
}

/** The most lanes drawn at once: beyond it, the list's filter narrows what is shown. */
export const MAX_LANES = 300;

const TICKS_PER_MS = 10_000;

export function laneOf(s: SocketSummary, from: number, to: number): Lane {
	const width = Math.max(1, to - from);
	const x = (t: number) => Math.min(1, Math.max(0, (t - from) / width));
	const start = s.opened?.ticks ?? s.firstEvent.ticks;
	const end = Math.max(start, s.closed?.ticks ?? s.lastEvent.ticks);
	const segments: LaneSegment[] = [];
	// The connect's own start is not kept: its phase is drawn as the time it took, from the start.
	let connectEnd = start;
	const connectError = s.errors.find((e) => e.op === 'connect');
	if (s.connect?.outcome === 'failed' && connectError) connectEnd = connectError.ticks;
	else if (s.connect?.ms != null) connectEnd = start + s.connect.ms * TICKS_PER_MS;
	else if (s.connect?.outcome === 'pending') connectEnd = end;
	connectEnd = Math.min(end, connectEnd);
	const closeStart = Math.max(connectEnd, Math.min(end, s.closeRequested?.ticks ?? end));
	if (connectEnd > start) segments.push({ phase: 'connecting', x0: x(start), x1: x(connectEnd) });
	if (closeStart > connectEnd || segments.length === 0)
		segments.push({ phase: 'open', x0: x(connectEnd), x1: x(closeStart) });
	if (end > closeStart) segments.push({ phase: 'closing', x0: x(closeStart), x1: x(end) });
	const markers: LaneMarker[] = s.errors.map((e) => ({
		kind: 'error',
		x: x(e.ticks),
		label: msg('lanes.error', { op: e.op, name: e.name }),
	}));
	if (s.abort) {
		const t = s.closed?.ticks ?? s.lastEvent.ticks;
		markers.push({
			kind: 'abort',
			x: x(t),
			label: msg('lanes.aborted', { reason: { valueMap: 'afdAbort', value: s.abort.reason } }),
		});
	}
	return { key: s.key, segments, markers };
}

/** The lanes of the first MAX_LANES sockets shown, on the axis [from, to). */
export function lanesOf<R extends { readonly socket: SocketSummary }>(
	shown: readonly R[],
	axis: { from: number; to: number },
): { row: R; lane: Lane }[] {
	return shown
		.slice(0, MAX_LANES)
		.map((row) => ({ row, lane: laneOf(row.socket, axis.from, axis.to) }));
}
