// Row selection: which rows of each chunk match a filter inside a time range, and the two ways
// through the answer (the n-th match's event index, an event's position among the matches).
import { CHUNK_ROWS, makeColumns, type ColumnName, type ReadColumns } from '../columns/layout.ts';
import type { EventIndex, RowPosition } from '../decoder/units.ts';
import type { ColumnCache, ChunkInfo } from './column-cache.ts';
import type { CompiledFilter, RecordFields, RowScan } from './filter-compile.ts';
import { countRange, scanRange } from './scan-kernels.ts';
import type { RowOwners } from './owner-join.ts';
import type { ChunkSelection, Selection, TimeRange } from './protocol.ts';
import { answeringSummary, summaryCount, summaryDecides } from './summary-count.ts';

/** Whether a summary's count (undefined: none answers) says a chunk matches wholly or not at all. */
function isWholeOrNone(count: number | undefined, info: ChunkInfo): boolean {
	return count === 0 || count === info.rows;
}

/** Whether a chunk holds times in the range. */
export function overlaps(info: ChunkInfo, range: TimeRange): boolean {
	return info.tMax >= range.from && info.tMin < range.to;
}

/** Rows [from, to) of a chunk inside a time range (rows are in time order). */
async function rowsInRange(
	columns: ColumnCache,
	info: ChunkInfo,
	range: TimeRange | null,
): Promise<[number, number]> {
	if (!range || (info.tMin >= range.from && info.tMax < range.to)) return [0, info.rows];
	if (!overlaps(info, range)) return [0, 0];
	const time = await columns.column(info.index, 'time');
	const lowerBound = (x: number) => {
		let lo = 0;
		let hi = info.rows;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (time[mid]! < x) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	};
	return [lowerBound(range.from), lowerBound(range.to)];
}

/** What a selection reads besides the columns. */
export interface SelectionInputs {
	readonly columns: ColumnCache;
	readonly chunks: readonly ChunkInfo[];
	/** Throws Superseded when a newer query has begun. */
	check(): void;
	owners(chunk: number): Promise<RowOwners>;
	/**
	 * The payload fields of the rows in [from, to) whose event types a filter reads them of; with
	 * `keys`, only those (null: every field).
	 */
	payloadOf(
		chunk: number,
		etype: ReadColumns['etype'],
		types: Uint8Array,
		from: number,
		to: number,
		keys: ReadonlySet<string> | null,
	): Promise<RecordFields>;
}

/** A selection made before over the first `chunks` chunks, which a new one goes on from. */
export interface EarlierSelection {
	readonly selection: Selection;
	readonly chunks: number;
}

/**
 * A compiled filter bound to one chunk's rows [from, to) as a scan: the columns it reads, its
 * payload fields and owners.
 */
async function chunkScan(
	compiled: CompiledFilter,
	names: readonly ColumnName[],
	chunk: number,
	from: number,
	to: number,
	base: number,
	inputs: SelectionInputs,
): Promise<RowScan> {
	const loaded = await inputs.columns.columns(chunk, names);
	const chunkColumns = makeColumns(names, (name) => loaded[names.indexOf(name)]!) as ReadColumns;
	return compiled.scan(
		chunkColumns,
		compiled.payloadTypes
			? await inputs.payloadOf(
					chunk,
					chunkColumns.etype,
					compiled.payloadTypes,
					from,
					to,
					compiled.payloadKeys,
				)
			: undefined,
		compiled.owners ? await inputs.owners(chunk) : undefined,
		base,
	);
}

/**
 * Runs a compiled filter (null: every row) over the chunks in the range. With `earlier` (the same
 * filter and range over the first chunks, whose answer still holds), only the chunks after those
 * are read, and its parts are kept as they are. With `upTo`, it stops at the first chunk that
 * brings its matches to `upTo`: a prefix of the selection (its counts are its chunks').
 */
export async function selectRows(
	filter: string,
	compiled: CompiledFilter | null,
	range: TimeRange | null,
	inputs: SelectionInputs,
	earlier: EarlierSelection | null = null,
	upTo = Infinity,
): Promise<Selection> {
	const parts: ChunkSelection[] = earlier ? [...earlier.selection.parts] : [];
	let total = earlier?.selection.total ?? 0;
	let matched = earlier?.selection.matched ?? 0;
	const { columns } = inputs;
	const chunks = earlier ? inputs.chunks.slice(earlier.chunks) : inputs.chunks;
	const names = compiled ? [...compiled.columns] : [];
	// A chunk whose summary answers is matched wholly or not at all without reading it; one it
	// matches in part is scanned (its rows are listed). Only the others are read ahead.
	const decides = summaryDecides(compiled);
	const counted = new Map<number, number>();
	for (const c of chunks) {
		const summary = compiled && answeringSummary(c, range, decides);
		if (summary) counted.set(c.index, summaryCount(compiled, summary));
	}
	const wanted = chunks
		.filter((c) => (!range || overlaps(c, range)) && !isWholeOrNone(counted.get(c.index), c))
		.map((c) => c.index);
	let next = 0;
	let sel: Uint16Array | null = null;
	for (const info of chunks) {
		inputs.check();
		if (matched >= upTo) break;
		if (names.length > 0 && wanted[next] === info.index) columns.readAhead(wanted, next++, names);
		const base = total;
		total += info.rows;
		const known = counted.get(info.index);
		if (known === 0) continue;
		const [from, to] = await rowsInRange(columns, info, range);
		if (from >= to) continue;
		if (!compiled || known === info.rows) {
			parts.push({
				chunk: info.index,
				first: matched,
				base,
				rows: null,
				from,
				to,
				count: to - from,
			});
			matched += to - from;
			continue;
		}
		const scan = await chunkScan(compiled, names, info.index, from, to, base, inputs);
		// Scanned in one reused vector; the part keeps a copy of its matches only.
		sel ??= new Uint16Array(CHUNK_ROWS);
		const n = scanRange(scan, sel, from, to);
		if (n === 0) continue;
		parts.push({
			chunk: info.index,
			first: matched,
			base,
			rows: sel.slice(0, n),
			from,
			to,
			count: n,
		});
		matched += n;
	}
	return { filter, range, total, matched, parts };
}

/**
 * Whether `sel`'s first parts are those of `earlier`, the very same (a selection made from it as
 * chunks were added): what was counted of those parts holds for `sel`'s.
 */
export function startsWith(sel: Selection, earlier: Selection): boolean {
	if (sel.parts.length < earlier.parts.length) return false;
	for (let k = 0; k < earlier.parts.length; k++)
		if (sel.parts[k] !== earlier.parts[k]) return false;
	return true;
}

/** One chunk's matches as a count found them: how many, and where they start among all. */
export type ChunkCount = Omit<ChunkSelection, 'rows'>;

/** What a count answers: the events in the range's chunks, and those the filter matches. */
export interface Count {
	readonly total: number;
	readonly matched: number;
	/**
	 * The chunks with matches, in order: enough to find which chunks hold the matches at any
	 * position (listWindow) without listing every match.
	 */
	readonly chunks: readonly ChunkCount[];
}

/**
 * Counts a compiled filter's matches without listing them: chunks whose summary answers are
 * counted from it, without reading their columns; the others (edges of the range, chunks stored
 * without a summary, filters on other columns) are scanned as `selectRows` scans them.
 */
export async function countRows(
	compiled: CompiledFilter | null,
	range: TimeRange | null,
	inputs: SelectionInputs,
): Promise<Count> {
	const { columns, chunks } = inputs;
	const names = compiled ? [...compiled.columns] : [];
	const decides = summaryDecides(compiled);
	const answers = chunks.map((c) => answeringSummary(c, range, decides));
	const wanted = chunks
		.filter((c, k) => (!range || overlaps(c, range)) && !answers[k])
		.map((c) => c.index);
	const counts: ChunkCount[] = [];
	let total = 0;
	let matched = 0;
	let next = 0;
	let sel: Uint16Array | null = null;
	const add = (info: ChunkInfo, from: number, to: number, count: number) => {
		if (count === 0) return;
		counts.push({ chunk: info.index, first: matched, base: total - info.rows, from, to, count });
		matched += count;
	};
	for (const [k, info] of chunks.entries()) {
		inputs.check();
		total += info.rows;
		const summary = answers[k];
		// A summary answers only for a chunk wholly inside the range (summary-count.ts).
		if (summary) {
			add(info, 0, info.rows, summaryCount(compiled, summary));
			continue;
		}
		if (names.length > 0 && wanted[next] === info.index) columns.readAhead(wanted, next++, names);
		const [from, to] = await rowsInRange(columns, info, range);
		if (from >= to) continue;
		if (!compiled) {
			add(info, from, to, to - from);
			continue;
		}
		const scan = await chunkScan(compiled, names, info.index, from, to, total - info.rows, inputs);
		sel ??= new Uint16Array(CHUNK_ROWS);
		add(info, from, to, countRange(scan, sel, from, to));
	}
	return { total, matched, chunks: counts };
}

/**
 * The matches [offset, offset + limit) of a counted filter, listed from only the chunks that hold
 * them: a selection of those chunks' parts (enough for `indexesAt` over that window), its counts
 * the whole count's. A table opened at any position of a 25 M-event answer then reads a chunk or
 * two, not every match. Null when a chunk's matches are no longer as counted (what the filter
 * reads changed since): the caller lists them all instead.
 */
export async function listWindow(
	filter: string,
	compiled: CompiledFilter | null,
	range: TimeRange | null,
	inputs: SelectionInputs,
	count: Count,
	offset: RowPosition,
	limit: number,
): Promise<Selection | null> {
	const names = compiled ? [...compiled.columns] : [];
	const end = offset + limit;
	const parts: ChunkSelection[] = [];
	let sel: Uint16Array | null = null;
	for (const c of count.chunks) {
		if (c.first >= end) break;
		if (c.first + c.count <= offset) continue;
		inputs.check();
		if (!compiled || c.count === c.to - c.from) {
			parts.push({ ...c, rows: null });
			continue;
		}
		const scan = await chunkScan(compiled, names, c.chunk, c.from, c.to, c.base, inputs);
		sel ??= new Uint16Array(CHUNK_ROWS);
		const n = scanRange(scan, sel, c.from, c.to);
		if (n !== c.count) return null;
		parts.push({ ...c, rows: sel.slice(0, n) });
	}
	return { filter, range, total: count.total, matched: count.matched, parts };
}

/** Event indexes of matches [offset, offset + limit). */
export function indexesAt(sel: Selection, offset: RowPosition, limit: number): EventIndex[] {
	const out: EventIndex[] = [];
	let lo = 0;
	let hi = sel.parts.length - 1;
	while (lo < hi) {
		const mid = (lo + hi + 1) >> 1;
		if (sel.parts[mid]!.first <= offset) lo = mid;
		else hi = mid - 1;
	}
	for (let p = lo; p < sel.parts.length && out.length < limit; p++) {
		const part = sel.parts[p]!;
		for (let k = Math.max(0, offset - part.first); k < part.count && out.length < limit; k++)
			out.push(part.base + (part.rows ? part.rows[k]! : part.from + k));
	}
	return out;
}

/** Position of an event in the selection, or -1. */
export function positionIn(sel: Selection, row: EventIndex): RowPosition {
	for (const part of sel.parts) {
		const local = row - part.base;
		if (local < part.from || local >= part.to) continue;
		if (!part.rows) return part.first + local - part.from;
		let lo = 0;
		let hi = part.count - 1;
		while (lo <= hi) {
			const mid = (lo + hi) >> 1;
			const v = part.rows[mid]!;
			if (v === local) return part.first + mid;
			if (v < local) lo = mid + 1;
			else hi = mid - 1;
		}
		return -1;
	}
	return -1;
}
