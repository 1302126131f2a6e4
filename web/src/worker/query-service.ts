// The page's questions about opened traces. A query makes a selection and answers with a handle
// to it; rows, the timeline, groups, statistics, positions and exports take that handle. Each
// trace keeps only its latest selection: an older handle fails with `superseded` (the page has a
// newer answer on its way), so no request depends on which query the worker happened to see last.
import { fail, ok, type Result } from '../lib/result.ts';
import { Superseded } from '../query/superseded.ts';
import type { Count } from '../query/selection.ts';
import type {
	Group,
	GroupKey,
	Histogram,
	RowView,
	Selection,
	TimeRange,
} from '../query/protocol.ts';
import { FilterError } from '../query/filter-parser.ts';
import { isPivotColumn, type Pivot, type PivotColumn } from '../query/pivot.ts';
import { ruleMatches, type RuleMatches } from '../query/rule-match.ts';
import { recordDecoder } from '../decoder/single-record.ts';
import { findingsOf, type Finding } from '../sockets/findings.ts';
import type { TrackedTrace } from '../sockets/tracker.ts';
import { getOwners, getSockets, getTrace } from '../store/trace-store.ts';
import type {
	ExportFormat,
	OpenedTrace,
	PayloadValues,
	QueryAnswer,
	RecordDetails,
	IoGraphSource,
	SelectionHandle,
} from './api.ts';
import { countIo, type IoCount, type IoGraph } from '../query/io-graph.ts';
import { MAX_EVENT_ROWS } from './api.ts';
import type { Catalog } from './catalog.ts';
import { recordDetails } from './details.ts';
import type { ExportProgress } from './export-selection.ts';
import { exportSocketTable, type SocketTableName } from './export-tables.ts';
import { tableWriter, type TableFormat } from '../export/table-writer.ts';
import { pivotTable } from '../export/pivot-table.ts';
import type { EventOwners, OwnerLookup } from '../columns/event-owners.ts';
import type { LiveTrace } from './live-trace.ts';
import type { OpenTraces } from './open-traces.ts';
import { errorCode, errorMessage, failWith } from './guard.ts';
import { msg } from '../i18n/render.ts';
import type { TraceStatistics, Vocabulary } from './trace-insight.ts';
import { trustCounters, type TrustCounter } from './trust.ts';

/** Most groups a pivot lists under one parent. */
const MAX_PIVOT_GROUPS = 2000;

const noSockets = () => failWith<never>('not-found', msg('failure.no-sockets'));

// i18n: data (never shown: the page drops a superseded answer)
const SUPERSEDED = 'superseded by a newer query of this trace';

interface Current {
	readonly number: number;
	readonly live: LiveTrace;
	/** The matches listed: at once for a query that wants rows, at the first request else. */
	listed: Promise<Selection> | null;
	/** While importing, the trace's listing before this query: a later listing goes on from it. */
	readonly earlier: Promise<Selection> | null;
	/** Its count, by chunk (a query counted rather than listed): rows are found from it until listed. */
	readonly counted: Count | null;
	readonly filter: string;
	readonly range: TimeRange | null;
}

/** A current selection, listed. */
interface Listed {
	readonly live: LiveTrace;
	readonly selection: Selection;
}

export class QueryService {
	readonly #catalog: Catalog;
	readonly #traces: OpenTraces;
	/** Per trace, its latest selection. */
	readonly #current = new Map<number, Current>();
	#numbered = 0;
	/** Per trace, its latest I/O graph of a filter while importing (the next goes on from it). */
	readonly #ioCounts = new Map<number, { live: LiveTrace; count: IoCount }>();
	/** Per opened trace, its engine being given the owners table (once). */
	readonly #ownersJoined = new WeakMap<LiveTrace, Promise<void>>();

	/** Awaits what an import brings without holding the import up (RequestLoad.park). */
	readonly #park: <T>(p: Promise<T>) => Promise<T>;

	constructor(
		catalog: Catalog,
		traces: OpenTraces,
		park: <T>(p: Promise<T>) => Promise<T> = (p) => p,
	) {
		this.#catalog = catalog;
		this.#traces = traces;
		this.#park = park;
		// A trace opened afresh has no selection yet: handles to the old one are out of date.
		traces.onForget((id) => {
			this.#current.delete(id);
			this.#ioCounts.delete(id);
		});
	}

	async opened(id: number): Promise<Result<OpenedTrace>> {
		// The owners table, which the first query joins to its rows, is read beside the trace.
		const owners = this.#catalog.importing(id) ? null : this.#readOwners(id);
		owners?.catch(() => {});
		const live = await this.#traces.live(id);
		if (owners) this.#joinOwners(id, live, owners).catch(() => {});
		const record = (await this.#catalog.get(id)) ?? live.record;
		live.record = record;
		return ok({
			trace: this.#catalog.summary(record),
			eventTypes: live.tables.eventTypes,
			processes: [...live.tables.processNames],
		});
	}

	/** Runs a filter; a later query of the same trace supersedes this one and its handle. */
	async query(
		id: number,
		filter: string,
		range: TimeRange | null,
		head = 0,
		marked?: readonly number[],
	): Promise<Result<QueryAnswer>> {
		const live = await this.#traces.live(id);
		if (marked) live.marked = new Set(marked);
		const generation = live.engine.begin();
		await this.#joinOwners(id, live);
		// An import stores its first rows within milliseconds of showing the trace: its first
		// answer waits for them, rather than come back empty and be asked for again.
		if (this.#catalog.importing(id)) await this.#park(live.firstChunk());
		const t0 = performance.now();
		// While chunks are added, an import's refreshes ask the same query again: the answer goes
		// on from the trace's latest listing, reading only the chunks stored since (engine.ts
		// decides whether it still holds). Otherwise a query that wants no rows is a count: chunk
		// summaries answer it where they can, and its matches are listed only if a request then
		// needs them.
		const latest = this.#current.get(id);
		const earlier =
			latest?.live === live && latest.listed && this.#catalog.importing(id)
				? await latest.listed.catch(() => undefined)
				: undefined;
		let counted: { total: number; matched: number };
		let byChunk: Count | null = null;
		let listed: Promise<Selection> | null = null;
		// The selection the first rows are read from: the whole listing, or only its first chunks.
		let first: Selection | null = null;
		try {
			if (earlier || (head > 0 && this.#catalog.importing(id))) {
				const selection = await live.engine.select(filter, range, generation, earlier);
				listed = Promise.resolve(selection);
				counted = first = selection;
			} else {
				// Counted, and its first rows found in the chunks that hold them: every match is
				// listed only once a request needs them (the table scrolled, the timeline), after
				// the first rows are on screen (a 25 M-event trace's listing took as long as its count).
				counted = byChunk = await live.engine.count(filter, range, generation);
				if (head > 0) first = await live.engine.head(filter, range, head, generation);
			}
		} catch (e) {
			if (e instanceof FilterError) return fail('filter', e.message, e.whole);
			if (e instanceof Superseded) return fail('superseded', e.message);
			throw e;
		}
		const current: Current = {
			number: ++this.#numbered,
			live,
			listed,
			earlier:
				latest?.live === live && this.#catalog.importing(id)
					? (latest.listed ?? latest.earlier)
					: null,
			counted: byChunk,
			filter,
			range,
		};
		this.#current.set(id, current);
		const ms = performance.now() - t0;
		const handle: SelectionHandle = { traceId: id, selection: current.number };
		const rows = head > 0 && first ? await rowsOf({ live, selection: first }, 0, head) : undefined;
		return ok({
			handle,
			total: counted.total,
			matched: counted.matched,
			partial: this.#catalog.importing(id),
			ms,
			...(rows ? { head: rows } : {}),
		});
	}

	/**
	 * Hands the engine the sockets' owners table once the import has stored it (read once per
	 * opened trace, apart from the sockets; `read`, a read started already): rows are then owned
	 * by their socket's or connection's process. Asked again while the trace is incomplete, or
	 * after a read failed.
	 */
	#joinOwners(
		id: number,
		live: LiveTrace,
		read?: Promise<EventOwners | OwnerLookup | null | undefined>,
	): Promise<void> {
		if (this.#catalog.importing(id)) return Promise.resolve();
		let joined = this.#ownersJoined.get(live);
		if (!joined) {
			joined = (async () => {
				// Those the import in this worker stored, else read apart from the sockets (which
				// hold none once read back, unless stored before the owners were stored apart).
				const held = live.heldOwners();
				const owners = held !== undefined ? held : await (read ?? this.#readOwners(id));
				if (owners === null) this.#ownersJoined.delete(live);
				else live.engine.setOwners(owners ?? null);
			})();
			joined.catch(() => this.#ownersJoined.delete(live));
			this.#ownersJoined.set(live, joined);
		}
		return joined;
	}

	/** The owners table of a complete trace (undefined when it has none); null while incomplete. */
	async #readOwners(id: number): Promise<OwnerLookup | null | undefined> {
		const db = await this.#catalog.db();
		if ((await getTrace(db, id))?.status !== 'complete') return null;
		return getOwners(db, id);
	}

	/** The selection a handle names, if it is still the latest of its trace. */
	async #selected(handle: SelectionHandle): Promise<Result<Listed>> {
		const current = this.#current.get(handle.traceId);
		if (current?.number !== handle.selection) return fail('superseded', SUPERSEDED);
		// Listed without a generation: a newer query makes this handle fail above, not the listing.
		current.listed ??= (async () =>
			current.live.engine.select(
				current.filter,
				current.range,
				undefined,
				(await current.earlier?.catch(() => undefined)) ?? undefined,
			))();
		// A listing that failed (storage) is tried again at the next request.
		current.listed.catch(() => {
			if (this.#current.get(handle.traceId) === current) current.listed = null;
		});
		return ok({ live: current.live, selection: await current.listed });
	}

	async rows(handle: SelectionHandle, offset: number, limit: number): Promise<Result<RowView[]>> {
		// Until something lists every match, the rows at a position come from the chunks that the
		// count says hold them.
		const current = this.#current.get(handle.traceId);
		if (current?.number === handle.selection && !current.listed && current.counted) {
			const { live, counted, filter, range } = current;
			const window = await live.engine.window(counted, filter, range, offset, limit);
			if (window) return ok(await rowsOf({ live, selection: window }, offset, limit));
		}
		const s = await this.#selected(handle);
		return s.ok ? ok(await rowsOf(s.value, offset, limit)) : s;
	}

	async positionOf(handle: SelectionHandle, index: number): Promise<Result<number>> {
		const s = await this.#selected(handle);
		if (!s.ok) return s;
		return ok(await s.value.live.engine.positionOf(s.value.selection, index));
	}

	async histogram(
		handle: SelectionHandle,
		from: number,
		to: number,
		bins: number,
	): Promise<Result<Histogram>> {
		const s = await this.#selected(handle);
		if (!s.ok) return s;
		return ok(await s.value.live.engine.histogram(s.value.selection, from, to, bins));
	}

	async groupBy(handle: SelectionHandle, key: GroupKey, limit: number): Promise<Result<Group[]>> {
		const s = await this.#selected(handle);
		if (!s.ok) return s;
		return ok(await s.value.live.engine.groupBy(s.value.selection, key, limit));
	}

	async statistics(handle: SelectionHandle): Promise<Result<TraceStatistics>> {
		const s = await this.#selected(handle);
		if (!s.ok) return s;
		const { live, selection } = s.value;
		const importing = this.#catalog.importing(handle.traceId);
		// The tracker's judgement of nested sends, once the import has stored its sockets.
		const tracked = importing ? undefined : await this.#trackedOf(handle.traceId);
		const uncounted = new Set(tracked?.uncountedSends ?? []);
		return ok(await this.#traces.insight(live).statistics(selection, importing, uncounted));
	}

	/** The I/O graph of a filter, or of some sockets' own events. */
	async ioGraph(
		id: number,
		source: IoGraphSource,
		interval: number | null,
	): Promise<Result<IoGraph>> {
		const live = await this.#traces.live(id);
		await this.#joinOwners(id, live);
		const importing = this.#catalog.importing(id);
		const tracked = importing ? undefined : await this.#trackedOf(id);
		const uncounted = new Set(tracked?.uncountedSends ?? []);
		const chunks = live.chunks();
		const whole = {
			from: chunks[0]?.tMin ?? 0,
			to: Math.max(chunks.at(-1)?.tMax ?? 0, chunks[0]?.tMin ?? 0) + 1,
		};
		let filter: string;
		let range: TimeRange | null;
		let only: Set<number> | null = null;
		if ('filter' in source) {
			({ filter, range } = source);
		} else {
			if (!tracked) return noSockets();
			const wanted = new Set(source.sockets);
			const sockets = tracked.sockets.filter((s) => wanted.has(s.key));
			if (sockets.length === 0)
				return failWith(
					'not-found',
					msg('failure.no-socket', { sockets: source.sockets.join(', ') }),
				);
			// Their own events when the tracker kept them all; else their endpoints over their span.
			if (sockets.every((s) => s.events.length === s.eventCount))
				only = new Set(sockets.flatMap((s) => [...s.events]));
			// A datagram socket's conversation is its traffic with one of its peers.
			const peer = source.remote ? addressTerms(source.remote) : null;
			filter = [
				...new Set(
					sockets.map((s) =>
						peer && s.peers.length > 0
							? `(endpoint:${s.endpoint} ${peer})`
							: `endpoint:${s.endpoint}`,
					),
				),
			].join(' or ');
			range = {
				from: Math.min(
					...sockets.map((s) => Math.min(s.opened?.ticks ?? Infinity, s.firstEvent.ticks)),
				),
				to: Math.max(...sockets.map((s) => Math.max(s.closed?.ticks ?? 0, s.lastEvent.ticks))) + 1,
			};
		}
		// While importing, the graph of a filter is asked again as chunks are stored: it goes on
		// from the latest one (the engine and countIo decide whether it still holds).
		const latest = this.#ioCounts.get(id);
		const earlier = importing && 'filter' in source && latest?.live === live ? latest.count : null;
		let selection: Selection;
		try {
			selection = await live.engine.select(filter, range, undefined, earlier?.sel);
		} catch (e) {
			if (e instanceof FilterError) return fail('filter', e.message, e.whole);
			throw e;
		}
		const types = live.context().eventTypes;
		const count = await countIo(
			live.engine,
			types,
			selection,
			range ?? whole,
			interval,
			uncounted,
			only,
			earlier,
		);
		if (importing) this.#ioCounts.set(id, { live, count });
		else this.#ioCounts.delete(id);
		return ok(count.graph);
	}

	async pivot(
		handle: SelectionHandle,
		columns: readonly PivotColumn[],
		limit: number,
	): Promise<Result<Pivot>> {
		const s = await this.#selected(handle);
		if (!s.ok) return s;
		const bad = columns.find((c) => !isPivotColumn(c));
		if (bad !== undefined)
			return failWith('invalid', msg('failure.cannot-group-by', { column: bad }));
		const { live, selection } = s.value;
		const importing = this.#catalog.importing(handle.traceId);
		const tracked = importing ? undefined : await this.#trackedOf(handle.traceId);
		const uncounted = new Set(tracked?.uncountedSends ?? []);
		const limited = Math.max(1, Math.min(MAX_PIVOT_GROUPS, Math.floor(limit) || 1));
		return ok(
			await this.#traces.insight(live).pivot(selection, columns, limited, importing, uncounted),
		);
	}

	async exportPivot(
		handle: SelectionHandle,
		columns: readonly PivotColumn[],
		format: TableFormat,
		write: (piece: Uint8Array, progress: ExportProgress) => Promise<boolean> | boolean,
	): Promise<Result<{ rows: number; complete: boolean }>> {
		const pivot = await this.pivot(handle, columns, MAX_PIVOT_GROUPS);
		if (!pivot.ok) return pivot;
		const { columns: table, rows } = pivotTable(pivot.value);
		let written = 0;
		let stopped = false;
		const writer = tableWriter(format, table, async (piece) => {
			if (!stopped && !(await write(piece, { rows: written, total: rows.length }))) stopped = true;
		});
		for (const row of rows) {
			if (stopped) return ok({ rows: written, complete: false });
			await writer.add(row);
			written++;
		}
		await writer.close();
		return ok({ rows: written, complete: !stopped });
	}

	async exportRows(
		handle: SelectionHandle,
		format: ExportFormat,
		write: (piece: string | Uint8Array, progress: ExportProgress) => Promise<boolean> | boolean,
	): Promise<Result<{ rows: number; complete: boolean }>> {
		const s = await this.#selected(handle);
		if (!s.ok) return s;
		const { live, selection } = s.value;
		return ok(await this.#traces.insight(live).export(selection, format, write));
	}

	async exportTable(
		id: number,
		table: SocketTableName,
		format: TableFormat,
		only: readonly string[] | null,
		write: (piece: Uint8Array, progress: ExportProgress) => Promise<boolean> | boolean,
	): Promise<Result<{ rows: number; complete: boolean }>> {
		const tracked = await this.#trackedOf(id);
		if (!tracked) return noSockets();
		return ok(await exportSocketTable(tracked, table, format, only, write));
	}

	async details(id: number, index: number): Promise<Result<RecordDetails>> {
		const live = await this.#traces.live(id);
		const at = live.locate(index);
		if (!at) return failWith('not-found', msg('failure.no-event', { index }));
		const [buffer, recOffset, cpu, time] = await Promise.all([
			live.engine.column(at.chunk, 'buffer'),
			live.engine.column(at.chunk, 'recOffset'),
			live.engine.column(at.chunk, 'cpu'),
			live.engine.column(at.chunk, 'time'),
		]);
		let bytes: Uint8Array;
		try {
			bytes = await live.records.bytes(buffer[at.row]!, recOffset[at.row]!);
		} catch (e) {
			const code = errorCode(e);
			return fail(code === 'internal' ? 'io' : code, `event ${index}: ${errorMessage(e)}`);
		}
		const decoder = recordDecoder(await this.#traces.module(), live.record.facts);
		const filetime = BigInt(live.record.facts.startFiletime) + BigInt(time[at.row]!);
		const d = await recordDetails(decoder, index, bytes.slice(), cpu[at.row]!, filetime);
		return d ? ok(d) : failWith('format', msg('failure.not-decoded-again', { index }));
	}

	async eventRows(id: number, indexes: readonly number[]): Promise<Result<RowView[]>> {
		const live = await this.#traces.live(id);
		const known = indexes.slice(0, MAX_EVENT_ROWS).filter((i) => live.locate(i) !== null);
		return ok(await live.engine.rows(known));
	}

	async ruleMatches(
		id: number,
		filters: readonly string[],
		indexes: readonly number[],
		marked?: readonly number[],
	): Promise<Result<RuleMatches>> {
		const live = await this.#traces.live(id);
		if (marked) live.marked = new Set(marked);
		const names = await this.#traces.insight(live).processNames(this.#catalog.importing(id));
		const ctx = { ...live.context(), processNames: names };
		return ok(
			await ruleMatches(live.engine, ctx, filters, indexes.slice(0, MAX_EVENT_ROWS), (i) =>
				live.locate(i),
			),
		);
	}

	async payloadValues(
		id: number,
		indexes: readonly number[],
		names: readonly string[],
	): Promise<Result<(PayloadValues | null)[]>> {
		const live = await this.#traces.live(id);
		return ok(
			await this.#traces.insight(live).payloadValues(indexes.slice(0, MAX_EVENT_ROWS), names),
		);
	}

	async vocabulary(id: number): Promise<Result<Vocabulary>> {
		const live = await this.#traces.live(id);
		return ok(await this.#traces.insight(live).vocabulary(this.#catalog.importing(id)));
	}

	/** The trust counters of Trace facts: losses, damage, records read without a schema. */
	async trust(id: number): Promise<Result<TrustCounter[]>> {
		const live = await this.#traces.live(id);
		// The stored record: its damage is complete once the import is.
		const record = (await this.#catalog.get(id)) ?? live.record;
		const types = await this.#traces.insight(live).typeCounts();
		return ok(trustCounters(record.facts, record.damage.length, types));
	}

	/** The sockets rebuilt when the trace's import completed. */
	async sockets(id: number): Promise<Result<TrackedTrace>> {
		const tracked = await this.#trackedOf(id);
		if (!tracked) return noSockets();
		// The owners table is the worker's, for the events' rows: the page is not sent it.
		const { owners: _owners, ...sockets } = tracked;
		return ok(sockets);
	}

	async findings(id: number): Promise<Result<Finding[]>> {
		const tracked = await this.#trackedOf(id);
		return tracked ? ok(findingsOf(tracked)) : noSockets();
	}

	/**
	 * A complete trace's sockets. They are stored as soon as they are rebuilt, which may be before
	 * an import that then stops: they are of the whole file, the events shown are not.
	 */
	async #trackedOf(id: number): Promise<TrackedTrace | undefined> {
		const db = await this.#catalog.db();
		const record = await getTrace(db, id);
		if (record?.status !== 'complete') return undefined;
		const live = await this.#traces.live(id);
		return live.tracked(() => getSockets(db, id));
	}
}

/** "[fe80::1%12]:53" or "10.0.0.5:53" → the filter's address and port terms, or null. */
function addressTerms(remote: string): string | null {
	const m = /^\[(.*)\]:(\d+)$/.exec(remote) ?? /^([^:]*):(\d+)$/.exec(remote);
	return m ? `raddr:${m[1]!.replace(/%.*$/, '')} rport:${m[2]}` : null;
}

/** Rows [offset, offset + limit) of a selection's matches. */
const rowsOf = ({ live, selection }: Listed, offset: number, limit: number) =>
	live.engine.rows(live.engine.indexes(selection, offset, limit));
