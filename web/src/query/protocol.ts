// What a query answers, as the worker hands it to the page: time ranges, selections, rows as the
// table shows them, timeline bins and groups. Types only, so the page names them without the engine.
import type { HistogramCategory } from '../columns/categories.ts';
import type { OwnerSource } from '../columns/event-owners.ts';
import type { ChunkRow, EventIndex, RowPosition, Ticks } from '../decoder/units.ts';

export type { HistogramCategory };

export interface TimeRange {
	/** Inclusive. */
	readonly from: Ticks;
	/** Exclusive. */
	readonly to: Ticks;
}

/** The rows of one chunk that a selection matched. */
export interface ChunkSelection {
	readonly chunk: number;
	/** Position of the chunk's first match in the selection. */
	readonly first: RowPosition;
	/** Global index of the chunk's row 0. */
	readonly base: EventIndex;
	/** Matching local rows, or null for every row in [from, to). */
	readonly rows: Uint16Array | null;
	readonly from: ChunkRow;
	readonly to: ChunkRow;
	readonly count: number;
}

export interface Selection {
	readonly filter: string;
	readonly range: TimeRange | null;
	readonly total: number;
	readonly matched: number;
	readonly parts: readonly ChunkSelection[];
}

export interface RowView {
	readonly index: EventIndex;
	readonly time: Ticks;
	readonly kind: string;
	readonly event: string;
	readonly provider: string | null;
	readonly eventId: number;
	readonly level: number;
	readonly opcode: number;
	readonly pid: number | null;
	readonly tid: number | null;
	readonly cpu: number;
	readonly process: number | null;
	/**
	 * The process that owns the event: its socket's or TCP connection's once the sockets are
	 * known, else its own record's (the Process column); null when none is known.
	 */
	readonly owner: number | null;
	readonly ownerSource: OwnerSource | null;
	readonly endpoint: string | null;
	readonly local: string | null;
	readonly remote: string | null;
	readonly bytes: number | null;
	readonly status: number | null;
	readonly statusName: string | null;
	readonly error: boolean;
	readonly phase: 'enter' | 'exit' | null;
}

export interface Histogram {
	readonly from: Ticks;
	readonly to: Ticks;
	readonly bins: number;
	/** Counts per category (connect/accept, send/recv, other, errors), each `bins` long. */
	readonly series: Record<HistogramCategory, number[]>;
}

export type GroupKey = 'event' | 'process' | 'remote' | 'status' | 'provider' | 'endpoint';

export interface Group {
	readonly key: string;
	readonly label: string;
	readonly count: number;
	/** A filter expression selecting this group's rows. */
	readonly filter: string;
}
