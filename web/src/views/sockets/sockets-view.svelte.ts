// The Sockets panel's state: the list's filter, sort order and selected socket, the finding that
// narrows the list, and what follows from them (the rows shown, the lanes' axis, the story).
import { conversationsOf } from '../../sockets/conversations.ts';
import type { Finding } from '../../sockets/findings.ts';
import { storyMessageOf } from '../../sockets/story.ts';
import type { TrackedTrace } from '../../sockets/tracker.ts';
import { locale, t, tm } from '../../i18n/locale.svelte.ts';
import { lanesOf } from './lanes.ts';
import {
	axisOf,
	compileSocketFilter,
	nextSort,
	pickFinding,
	rowOf,
	shownRows,
	type RowWords,
	sortDirection,
	type SortDirection,
	type SortKey,
} from './socket-list.ts';

/** States and "ended by" in the reader's words (English rows keep the tracker's names). */
const ROW_WORDS: RowWords = {
	state: (state, connectFailed) =>
		connectFailed
			? t('sockets.state.connect-failed', { state: t(`sockets.state.${state}`) })
			: t(`sockets.state.${state}`),
	endedBy: (e) => t(`sockets.ended.${e}`),
};

/** The panel's props, read through getters: the sockets come after the panel is first shown. */
export interface SocketsSource {
	readonly tracked: TrackedTrace | null;
	/** Ticks of the trace's span, the lanes' axis. */
	readonly span: { from: number; to: number };
}

export class SocketsView {
	filter = $state('');
	finding = $state<Finding | null>(null);
	sortKey = $state<SortKey>('openedTicks');
	descending = $state(false);
	selectedKey = $state<string | null>(null);

	readonly #source: SocketsSource;

	rows = $derived.by(() => {
		// Read here so the rows are made again when the reader changes language.
		const words = locale.lang === 'en' ? undefined : ROW_WORDS;
		return (this.#source.tracked?.sockets ?? []).map((s) => rowOf(s, words));
	});
	/** The filter's test, or its error message. */
	compiled = $derived(compileSocketFilter(this.filter));
	#findingKeys = $derived(this.finding ? new Set(this.finding.sockets) : null);
	shown = $derived.by(() =>
		shownRows(this.rows, this.compiled, this.#findingKeys, this.sortKey, this.descending),
	);
	selected = $derived(this.rows.find((r) => r.key === this.selectedKey) ?? null);
	story = $derived(this.selected ? tm(storyMessageOf(this.selected.socket)) : '');
	axis = $derived.by(() => axisOf(this.#source.span, this.shown));
	lanes = $derived(lanesOf(this.shown, this.axis));
	/** The keys of the sockets shown when the filter or a finding narrows the list, else null. */
	narrowedTo = $derived.by(() =>
		this.shown.length === this.rows.length ? null : this.shown.map((r) => r.key),
	);
	/** Of the sockets shown, in the trace's order (the list's sort does not reorder them). */
	conversations = $derived.by(() => {
		const all = this.#source.tracked?.sockets ?? [];
		const keys = this.narrowedTo ? new Set(this.narrowedTo) : null;
		return conversationsOf(keys ? all.filter((s) => keys.has(s.key)) : all);
	});

	constructor(source: SocketsSource) {
		this.#source = source;
	}

	sortBy(key: SortKey): void {
		const next = nextSort({ key: this.sortKey, descending: this.descending }, key);
		this.sortKey = next.key;
		this.descending = next.descending;
	}

	/** How the list is sorted by column `key`, as aria-sort says it. */
	sortOrderOf(key: SortKey): SortDirection {
		return sortDirection({ key: this.sortKey, descending: this.descending }, key);
	}

	pickFinding(f: Finding): void {
		const { finding, select } = pickFinding(this.finding, f);
		this.finding = finding;
		if (select !== null) this.selectedKey = select;
	}

	clearFinding(): void {
		this.finding = null;
	}

	select(key: string): void {
		this.selectedKey = key;
	}
}
