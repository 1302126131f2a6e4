// What a trace view shows beside its table: the names for autocomplete and the Process column,
// the trust counters, the timeline, the statistics and the sockets. Each is asked of the worker
// when the view wants it (trace-view-state.svelte.ts decides when); an answer that comes after
// the query it was for has been replaced is dropped.
import { untrack } from 'svelte';
import type { Histogram, TimeRange } from '../../query/protocol.ts';
import type { Finding } from '../../sockets/findings.ts';
import type { TrackedTrace } from '../../sockets/tracker.ts';
import type { QueryAnswer, TraceStatistics, TrustCounter, Vocabulary } from '../../worker/api.ts';
import type { TraceApi } from './trace-api.ts';
import { hostNamesOf, processNamesOf } from './trace-names.ts';

/** Bars of the timeline. */
const HISTOGRAM_BINS = 240;

export class PanelData {
	vocabulary = $state.raw<Vocabulary | null>(null);
	trust = $state.raw<TrustCounter[] | null>(null);
	histogram = $state.raw<Histogram | null>(null);
	/** The statistics of `statsFor`, the answer they were asked for. */
	stats = $state.raw<TraceStatistics | null>(null);
	statsError = $state<string | null>(null);
	statsFor = $state.raw<object | null>(null);
	tracked = $state.raw<TrackedTrace | null>(null);
	findings = $state.raw<Finding[] | null>(null);
	socketsError = $state<string | null>(null);

	processNames = $derived(processNamesOf(this.vocabulary));
	hostNames = $derived(hostNamesOf(this.vocabulary));

	readonly #api: TraceApi;
	readonly #answer: () => QueryAnswer | null;

	/** `answer`: the query answer on screen now. */
	constructor(api: TraceApi, answer: () => QueryAnswer | null) {
		this.#api = api;
		this.#answer = answer;
	}

	loadVocabulary(): void {
		void this.#api.vocabulary().then((r) => {
			if (r.ok) this.vocabulary = r.value;
		});
	}

	loadTrust(): void {
		void this.#api.trust().then((r) => {
			if (r.ok) this.trust = r.value;
		});
	}

	/** The timeline of `answer` over `range`, asked once `after` settles. */
	loadHistogram(answer: QueryAnswer, range: TimeRange, after: Promise<unknown>): void {
		void after
			.then(() => this.#api.histogram(answer.handle, range, HISTOGRAM_BINS))
			.then((h) => {
				if (h.ok && this.#answer() === answer) this.histogram = h.value;
			});
	}

	/** The statistics of `answer`, unless they are already asked for. */
	loadStatistics(answer: QueryAnswer): void {
		if (this.statsFor === answer) return;
		this.statsFor = answer;
		this.statsError = null;
		void this.#api.statistics(answer.handle).then((s) => {
			if (this.#answer() !== answer || (!s.ok && s.code === 'superseded')) return;
			if (s.ok) this.stats = s.value;
			else this.statsError = s.error;
		});
	}

	/** The statistics to show with `answer`: none while they are still those of an older one. */
	statsOf(answer: QueryAnswer | null): TraceStatistics | null {
		return this.statsFor === answer ? this.stats : null;
	}

	statsLoading(answer: QueryAnswer | null): boolean {
		return this.statsFor !== answer || this.stats === null;
	}

	/** The sockets and findings, stored when the import completed: asked for once. */
	loadSockets(): void {
		if (untrack(() => this.tracked !== null || this.socketsError !== null)) return;
		void this.#api.sockets().then((r) => {
			if (r.ok) this.tracked = r.value;
			else this.socketsError = r.error;
		});
		void this.#api.findings().then((r) => {
			if (r.ok) this.findings = r.value;
		});
	}
}
