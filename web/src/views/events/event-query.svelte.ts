// The events view of one trace: the filter, its answer, a window of rows for the table, and the
// selected event's details. Every request carries a generation so a late answer to an older
// filter never overwrites a newer one.
import type { Remote } from 'comlink';
import type { RowView, TimeRange } from '../../query/engine.ts';
import type { DecoderApi, QueryAnswer, RecordDetails } from '../../worker/api.ts';

type Api = Remote<DecoderApi> | DecoderApi;

export class EventQuery {
	filter = $state('');
	range = $state.raw<TimeRange | null>(null);
	answer = $state.raw<QueryAnswer | null>(null);
	error = $state<string | null>(null);
	/** Rows of the current window, by position in the matches. */
	rows = $state.raw<ReadonlyMap<number, RowView>>(new Map());
	selected = $state<number | null>(null);
	details = $state.raw<RecordDetails | null>(null);

	readonly traceId: number;
	readonly #api: Api;
	#generation = 0;
	#window = { from: 0, to: 0 };

	constructor(api: Api, traceId: number) {
		this.#api = api;
		this.traceId = traceId;
	}

	/** Runs the filter (and time range); keeps the old answer on screen until the new one lands. */
	async run(filter = this.filter, range = this.range): Promise<void> {
		this.filter = filter;
		this.range = range;
		const generation = ++this.#generation;
		const r = await this.#api.query(this.traceId, filter, range);
		if (generation !== this.#generation) return;
		if (!r.ok) {
			if (!/superseded/.test(r.error)) this.error = r.error;
			return;
		}
		this.error = null;
		this.answer = r.value;
		this.rows = new Map();
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
		const page = await this.#api.rows(this.traceId, from, end - from);
		if (generation !== this.#generation) return;
		const next = new Map<number, RowView>();
		page.forEach((row, k) => next.set(from + k, row));
		this.rows = next;
	}

	async select(position: number | null): Promise<void> {
		this.selected = position;
		if (position === null) {
			this.details = null;
			return;
		}
		let row = this.rows.get(position);
		if (!row) {
			const page = await this.#api.rows(this.traceId, position, 1);
			row = page[0];
		}
		if (!row || this.selected !== position) return;
		const d = await this.#api.details(this.traceId, row.index);
		if (this.selected === position) this.details = d.ok ? d.value : null;
	}
}
