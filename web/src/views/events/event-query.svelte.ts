// The events view of one trace: the filter and time range, the worker's answer, a window of rows
// for the table, the selected event (and any others marked for copying) and its details. Every
// request carries a generation so a late answer to an older filter never overwrites a newer one;
// rows and positions are asked of the answer's selection handle (a newer query supersedes it).
import type { FilterFailure } from '../filter/filter-edit.ts';
import type { RowView, TimeRange } from '../../query/protocol.ts';
import type { QueryAnswer, RecordDetails } from '../../worker/api.ts';
import type { TraceApi } from '../trace/trace-api.ts';

/** Rows asked for with every query: more than a screen, so the table rarely waits for a page. */
const HEAD_ROWS = 128;

/** Most rows copied at once: a clipboard is no export. */
export const MAX_COPY_ROWS = 10_000;

export class EventQuery {
	filter = $state('');
	range = $state.raw<TimeRange | null>(null);
	answer = $state.raw<QueryAnswer | null>(null);
	/** The filter and range the answer is for (the box may already hold a newer one). */
	answered = $state.raw<{ filter: string; range: TimeRange | null } | null>(null);
	/** Why the filter failed (its English text and its message), or null. */
	error = $state.raw<FilterFailure | null>(null);
	running = $state(false);
	/** Rows of the current window, by position in the matches. */
	rows = $state.raw<ReadonlyMap<number, RowView>>(new Map());
	/** Position (among the matches) of the selected event. */
	selected = $state<number | null>(null);
	/** Its index in the trace: stays the same whatever the filter. */
	selectedIndex = $state<number | null>(null);
	/** Further positions marked with Shift or Ctrl, for copying; the selection is always in. */
	marked = $state.raw<ReadonlySet<number>>(new Set());
	details = $state.raw<RecordDetails | null>(null);
	/** Bumped to ask the table to scroll a position into view. */
	reveal = $state.raw<{ position: number } | null>(null);

	readonly #api: TraceApi;
	#generation = 0;
	/** Settles once the current answer's first rows are in (or there are none to show). */
	#rowsIn: { answer: QueryAnswer | null; promise: Promise<void>; done: () => void } =
		EventQuery.#waiting(null);

	static #waiting(answer: QueryAnswer | null) {
		let done = () => {};
		const promise = new Promise<void>((resolve) => (done = resolve));
		return { answer, promise, done };
	}

	/** Resolves when `answer`'s first rows are in the table's hands (at once for an older answer). */
	rowsShown(answer: QueryAnswer): Promise<void> {
		return this.#rowsIn.answer === answer ? this.#rowsIn.promise : Promise.resolve();
	}
	#window = { from: 0, to: 0 };
	#anchor: number | null = null;

	constructor(api: TraceApi) {
		this.#api = api;
	}

	/**
	 * Runs the filter (and time range); keeps the old answer on screen until the new one lands.
	 * The selected event stays selected when it still matches; `keep` names another to select.
	 */
	async run(
		filter = this.filter,
		range = this.range,
		keep: number | null = this.selectedIndex,
	): Promise<void> {
		this.filter = filter;
		this.range = range;
		// The event to keep is wanted from now on: a run started before this one ends (an import
		// refreshing, say) must look for it too.
		const known = keep === this.selectedIndex && this.details !== null;
		this.selectedIndex = keep;
		const generation = ++this.#generation;
		this.running = true;
		const r = await this.#api.query(filter, range, HEAD_ROWS);
		if (generation !== this.#generation) return;
		this.running = false;
		if (!r.ok) {
			if (r.code === 'superseded') return;
			// The last good answer stays on screen, with the error beside the box. With none yet
			// (a link with a bad filter), the whole trace is shown instead of an empty table.
			if (this.answer === null && filter !== '') {
				await this.run('', range, keep);
				if (generation + 1 !== this.#generation) return;
				this.filter = filter;
			}
			this.error = r;
			return;
		}
		this.error = null;
		this.#rowsIn.done();
		this.#rowsIn = EventQuery.#waiting(r.value);
		if (r.value.matched === 0) this.#rowsIn.done();
		this.answer = r.value;
		this.answered = { filter, range };
		const head = r.value.head ?? [];
		this.rows = new Map(head.map((row, k) => [k, row]));
		if (head.length > 0) this.#rowsIn.done();
		this.marked = new Set();
		this.#anchor = null;
		const position = keep === null ? -1 : await this.#api.positionOf(r.value.handle, keep);
		if (generation !== this.#generation) return;
		if (position >= 0) {
			this.selected = position;
			this.selectedIndex = keep;
			this.reveal = { position };
			if (!known) void this.#loadDetails(position, keep);
		} else if (keep !== null && r.value.partial) {
			// Still importing: the event may not be stored yet. Keep asking for it on later runs.
			this.selected = null;
			this.selectedIndex = keep;
			this.details = null;
		} else {
			this.selected = null;
			this.selectedIndex = null;
			this.details = null;
			// Nothing to keep in view: a new answer starts at its first row.
			this.reveal = { position: 0 };
		}
		await this.load(this.#window.from, this.#window.to, generation);
	}

	/** Makes rows [from, to) of the matches available to the table. */
	async load(from: number, to: number, generation = this.#generation): Promise<void> {
		this.#window = { from, to };
		const matched = this.answer?.matched ?? 0;
		const end = Math.min(to, matched);
		if (from >= end) return;
		let missing = false;
		for (let i = from; i < end && !missing; i++) if (!this.rows.has(i)) missing = true;
		if (!missing) return;
		const page = await this.#rows(from, end - from);
		if (generation !== this.#generation) return;
		// Requests overlap while scrolling and may land out of order: keep what the table shows
		// now, from this page and from earlier ones, and ask again if that leaves holes.
		const w = this.#window;
		const next = new Map<number, RowView>();
		for (const [p, row] of this.rows) if (p >= w.from && p < w.to) next.set(p, row);
		page.forEach((row, k) => {
			const p = from + k;
			if (p >= w.from && p < w.to) next.set(p, row);
		});
		this.rows = next;
		if (next.size > 0) this.#rowsIn.done();
		if (w.from !== from || w.to !== to) await this.load(w.from, w.to, generation);
	}

	/**
	 * Selects a position. `extend` marks the range from the last plain selection (Shift);
	 * `toggle` adds or removes one position from the marked ones (Ctrl).
	 */
	async select(
		position: number | null,
		how: { extend?: boolean; toggle?: boolean } = {},
	): Promise<void> {
		if (position === null) {
			this.selected = null;
			this.selectedIndex = null;
			this.details = null;
			this.marked = new Set();
			this.#anchor = null;
			return;
		}
		if (how.extend && this.#anchor !== null) {
			const [a, b] = [Math.min(this.#anchor, position), Math.max(this.#anchor, position)];
			const next = new Set<number>();
			for (let p = a; p <= b && next.size < MAX_COPY_ROWS; p++) next.add(p);
			this.marked = next;
		} else if (how.toggle) {
			const next = new Set(this.marked);
			if (this.selected !== null) next.add(this.selected);
			if (next.has(position) && next.size > 1) next.delete(position);
			else next.add(position);
			this.marked = next;
			this.#anchor = position;
		} else {
			this.marked = new Set();
			this.#anchor = position;
		}
		this.selected = position;
		const row = this.rows.get(position) ?? (await this.#rows(position, 1))[0];
		if (!row || this.selected !== position) return;
		this.selectedIndex = row.index;
		await this.#loadDetails(position, row.index);
	}

	async #loadDetails(position: number, index: number | null): Promise<void> {
		if (index === null) return;
		const d = await this.#api.details(index);
		if (this.selected === position) this.details = d.ok ? d.value : null;
	}

	/** Positions to copy: the marked ones, else the selection, in table order. */
	copyPositions(): number[] {
		const set = new Set(this.marked);
		if (this.selected !== null) set.add(this.selected);
		return [...set].sort((a, b) => a - b);
	}

	/** The rows at the given positions, fetched in runs of consecutive positions. */
	async rowsAt(positions: readonly number[]): Promise<RowView[]> {
		const out: RowView[] = [];
		let k = 0;
		while (k < positions.length) {
			let end = k + 1;
			while (end < positions.length && positions[end] === positions[end - 1]! + 1) end++;
			const from = positions[k]!;
			const cached = positions.slice(k, end).map((p) => this.rows.get(p));
			if (cached.every((r) => r)) out.push(...(cached as RowView[]));
			else out.push(...(await this.#rows(from, end - k)));
			k = end;
		}
		return out;
	}

	/** Rows of the answer on screen (none before the first). */
	#rows(offset: number, limit: number): Promise<RowView[]> {
		const handle = this.answer?.handle;
		return handle ? this.#api.rows(handle, offset, limit) : Promise.resolve([]);
	}
}
