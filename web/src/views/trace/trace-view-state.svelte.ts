// One trace's view and what keeps it together: the query and its URL fragment, the re-runs while
// the trace is still being imported, the panels' data, copying and exporting, the shortcuts.
// TraceView.svelte makes one as it starts (its effects belong to that component) and renders it.
import { tick, untrack } from 'svelte';
import { t } from '../../i18n/locale.svelte.ts';
import type { TraceFacts } from '../../decoder/types.ts';
import type { Text } from '../../i18n/render.ts';
import type { TimeRange } from '../../query/protocol.ts';
import type { SocketSummary } from '../../sockets/socket.ts';
import { isTyping, shortcutOf } from '../../state/shortcuts.ts';
import { traceKey, type Panel } from '../../state/view-hash.ts';
import type { ViewLocation } from '../../state/view-location.svelte.ts';
import type {
	ExportFormat,
	PayloadValues,
	ImportProgress,
	SocketTableName,
	TableFormat,
	TraceSummary,
} from '../../worker/api.ts';
import type { RowView } from '../../query/protocol.ts';
import { trustCounters, type TrustCounter } from '../../worker/api.ts';
import { rowsAsMarkdown, rowsAsTsv } from '../export/copy-rows.ts';
import { ExportJob, exportFileName } from '../export/export-job.svelte.ts';
import { MARK_FIRST_ROWS } from '../marks.ts';
import {
	activeFilters,
	loadColourRules,
	rowColours,
	storeColourRules,
	type ColourRules,
	type RuleColour,
} from '../marking/colour-rules.ts';
import { loadMarks, markAfter, readsMarks, saveMarks, toggleMark } from '../marking/event-marks.ts';
import { eventsOf } from '../sockets/socket-list.ts';
import { importingSpan, traceSpan, zoomedOut } from '../timeline/timeline-data.ts';
import { visibleColumns, type CellContext } from '../events/columns.ts';
import { previousTimesAt, type TimeReference } from '../events/row-format.ts';
import { EventQuery, MAX_COPY_ROWS } from '../events/event-query.svelte.ts';
import { refine } from '../filter/filter-edit.ts';
import { importDone } from './import-done.ts';
import { PanelData } from './panel-data.svelte.ts';
import { Preferences } from './preferences.svelte.ts';
import { Toast } from './toast.svelte.ts';
import { TraceApi, type DecoderRemote } from './trace-api.ts';
import { cancelsKey, keyCommand } from './trace-keys.ts';
import { followView, openingView, sameRange, type QueryRun } from './view-sync.ts';

/** The longest the timeline waits for the table's first rows. */
const TIMELINE_AFTER_MS = 300;

/** The component's props, read through getters: the summary and progress change while importing. */
export interface TraceViewProps {
	readonly api: DecoderRemote;
	readonly trace: TraceSummary;
	readonly facts: TraceFacts;
	readonly progress: ImportProgress | null;
	readonly location: ViewLocation;
}

/** What the shortcuts reach in the page: the filter box and the table. */
export interface KeyTargets {
	focusFilter(): void;
	/** Moves the table's selection by `step` and focuses the table. */
	move(step: 1 | -1): void;
}

/** The page's storage, or null where there is none (storage turned off). */
function storage(): Storage | null {
	try {
		return typeof localStorage === 'undefined' ? null : localStorage;
	} catch {
		return null;
	}
}

/** Rows whose applied payload fields are kept before they are read again. */
const MAX_PAYLOAD_ROWS = 20_000;

export class TraceViewState {
	// These belong to one trace for the view's whole life (the component is keyed by the trace
	// id; the summary object itself changes as an import goes on).
	readonly #key: string;
	readonly #traceName: string;
	readonly #props: TraceViewProps;
	readonly #api: TraceApi;
	readonly #location: ViewLocation;
	#rowsMarked = false;

	readonly query: EventQuery;
	readonly panels: PanelData;
	readonly prefs = new Preferences();
	readonly job = new ExportJob();
	readonly toast = new Toast();

	panel = $state<Panel>('events');
	/** The event the Time column counts from (kept in the URL fragment), or null. */
	reference = $state.raw<TimeReference | null>(null);
	/** Events the user marked (by index in the trace), kept for this trace on this machine. */
	eventMarks = $state.raw<ReadonlySet<number>>(new Set());
	/** The colouring rules, and the colours they give the rows read so far (by event index). */
	colourRules = $state.raw<ColourRules>(loadColourRules(storage()));
	rowColours = $state.raw<ReadonlyMap<number, RuleColour>>(new Map());
	/** Why a colouring rule cannot be tested, by its place among the active ones. */
	ruleErrors = $state.raw<readonly (Text | null)[]>([]);
	/** The applied payload fields of the rows read so far, by event index. */
	payload = $state.raw<ReadonlyMap<number, PayloadValues>>(new Map());

	// Derived with functions: the fields they read are set by the constructor, after these.
	span = $derived.by<TimeRange>(() => {
		const next = this.imported ? traceSpan(this.#props.trace) : importingSpan(this.#props.trace);
		// The same span keeps its identity: the timeline's query, which depends on it, is not asked
		// again at every report of an import's progress (each a query and a redraw of the chart).
		if (this.#lastSpan && sameRange(this.#lastSpan, next)) return this.#lastSpan;
		return (this.#lastSpan = next);
	});
	#lastSpan: TimeRange | null = null;
	ctx = $derived.by<CellContext>(() => ({
		processNames: this.panels.processNames,
		hostNames: this.panels.hostNames,
		timeMode: this.prefs.timeMode,
		startFiletime: this.#props.facts.startFiletime,
		reference: this.reference,
		// Only read when the Δ time column is shown: it is worked out for every page of rows.
		previousTime: this.prefs.columns.includes('delta')
			? previousTimesAt(this.query.rows)
			: undefined,
		payload: this.payload,
	}));
	columns = $derived(visibleColumns(this.prefs.columns, this.prefs.fields));
	// Closed unless the user opened it: the events are what a trace is opened for.
	factsOpen = $derived(this.prefs.factsOpen ?? false);
	/** Events matching the filter. */
	count = $derived.by(() => this.query.answer?.matched ?? 0);
	/** Events a copy takes: the marked ones and the selection. */
	selectedCount = $derived.by(() => {
		const { selected, marked } = this.query;
		return selected === null ? marked.size : new Set([...marked, selected]).size;
	});
	#answered = $derived.by(() => this.query.answer !== null);

	constructor(props: TraceViewProps) {
		this.#props = props;
		const { api, trace, location } = untrack(() => ({
			api: props.api,
			trace: props.trace,
			location: props.location,
		}));
		this.#key = traceKey(trace.fingerprint);
		this.#traceName = trace.name;
		this.#location = location;
		this.#api = new TraceApi(api, trace.id);
		this.eventMarks = loadMarks(storage(), this.#key);
		this.#api.marks = () => this.eventMarks;
		this.query = new EventQuery(this.#api);
		this.panels = new PanelData(this.#api, () => this.query.answer);
		// While the trace is imported, the worker says when to ask again (and once more at the
		// end, so the answer is whole). Followed before the first query, so that it hears of the
		// end of an import that query sees running.
		const unfollow = this.#api.followImport(() => void this.query.run());
		$effect(() => unfollow);
		untrack(() => this.#open());
		this.#followLocation();
		this.#markFirstRows();
		this.#loadPanels();
		this.#loadPayload();
		this.#loadColours();
		$effect(() => {
			if (this.job.message) this.toast.say(this.job.message);
		});
	}

	/**
	 * Not being imported any more: the whole trace is stored. Derived: what depends on it is not
	 * run again at every report of the import's progress, only when it turns.
	 */
	imported = $derived.by(() => importDone(this.#props.progress, this.#props.trace));

	/** Trace facts' trust counters: those known at once until the worker has counted them all. */
	get trustCounters(): TrustCounter[] {
		const { facts, trace } = this.#props;
		return this.panels.trust ?? trustCounters(facts, trace.damage.length, null);
	}

	// ---- the view in the URL ------------------------------------------------------------------

	#run(r: QueryRun): void {
		void this.query.run(r.filter, r.range, r.keep);
	}

	/** A link to this trace brings its view; otherwise the trace starts afresh. */
	#open(): void {
		const opening = openingView(this.#location.view, this.#key, this.#traceName);
		this.panel = opening.panel;
		this.#run(opening.run);
		this.#location.update(opening.change, opening.history);
	}

	#followLocation(): void {
		// The fragment changed from outside (Back, an edited URL): follow it. Only the fragment is
		// tracked here; the query's own state is read untracked, or the two would chase each other.
		$effect(() => {
			const v = this.#location.view;
			untrack(() => {
				const follow = followView(v, this.#key, {
					filter: this.query.filter,
					range: this.query.range,
					selectedIndex: this.query.selectedIndex,
					panel: this.panel,
					reference: this.reference?.index ?? null,
				});
				if (follow?.run) this.#run(follow.run);
				if (follow?.panel) this.panel = follow.panel;
				if (follow?.reference) void this.#followReference(follow.reference.index);
			});
		});

		// The selection goes into the fragment once there is an answer (before it, the fragment's
		// own selection is still waiting to be found).
		$effect(() => {
			const index = this.query.selectedIndex;
			const view = this.#location.view;
			if (!this.query.answered || view.trace !== this.#key) return;
			if (view.sel !== index) this.#location.update({ sel: index });
		});
	}

	applyFilter(filter: string): void {
		void this.query.run(filter, this.query.range);
		this.#location.update({ q: filter }, 'push');
	}

	/** Narrows the filter by a term (a cell, a field of the details, a row of the statistics). */
	refineFilter(term: string, negate = false): void {
		this.applyFilter(refine(this.query.filter, term, negate));
	}

	/** The Events panel with a filter. */
	showEvents(filter: string): void {
		this.applyFilter(filter);
		this.setPanel('events');
	}

	/** The Events panel with the filter narrowed by a term (a row of the statistics). */
	showRefined(term: string): void {
		this.showEvents(refine(this.query.filter, term));
	}

	/** `history`: 'replace' for a step of a run (the wheel's), which Back skips over as one. */
	setRange(range: TimeRange | null, history: 'push' | 'replace' = 'push'): void {
		void this.query.run(this.query.filter, range);
		this.#location.update({ range }, history);
	}

	zoomOut(): void {
		if (this.query.range) this.setRange(zoomedOut(this.query.range, this.span));
	}

	setPanel(p: Panel): void {
		this.panel = p;
		this.#location.update({ panel: p });
	}

	/** The Events panel with one socket's events, its telling event selected. */
	showSocketEvents(socket: SocketSummary): void {
		const { filter, range, select } = eventsOf(socket);
		void this.query.run(filter, range, select);
		this.#location.update({ q: filter, range, sel: select }, 'push');
		this.setPanel('events');
	}

	/** Events by record index, whatever the filter (Follow socket). */
	eventRows(indexes: readonly number[]): Promise<RowView[]> {
		return this.#api.eventRows(indexes);
	}

	/** The Events panel with `filter`, one event of it selected (a DNS lookup's). */
	showEvent(filter: string, index: number): void {
		void this.query.run(filter, null, index);
		this.#location.update({ q: filter, range: null, sel: index }, 'push');
		this.setPanel('events');
	}

	// ---- the first rows ----------------------------------------------------------------------

	#markFirstRows(): void {
		$effect(() => {
			if (this.#rowsMarked || this.query.rows.size === 0) return;
			this.#rowsMarked = true;
			performance.mark(MARK_FIRST_ROWS, { detail: this.#props.trace.name });
		});
	}

	// ---- data for the panels -------------------------------------------------------------------

	#loadPanels(): void {
		// Names for autocomplete and the Process column, and the trust counters (the records
		// without a schema take a pass over the event column), once the import is complete. Asked
		// after the first answer: their reads of whole columns would hold up its rows.
		$effect(() => {
			if (!this.imported || !this.#answered) return;
			this.panels.loadVocabulary();
		});
		$effect(() => {
			if (!this.imported || !this.#answered) return;
			this.panels.loadTrust();
		});

		// Each answer brings its timeline, after its first rows (drawing the chart takes the page
		// a while on a slow machine, and the rows are what was asked for); the statistics only
		// while they are shown.
		$effect(() => {
			const answer = this.query.answer;
			if (!answer) return;
			const range = this.query.range ?? this.span;
			const later = new Promise((resolve) => setTimeout(resolve, TIMELINE_AFTER_MS));
			this.panels.loadHistogram(answer, range, Promise.race([this.query.rowsShown(answer), later]));
		});

		$effect(() => {
			const answer = this.query.answer;
			if (this.panel !== 'stats' || !answer) return;
			this.panels.loadStatistics(answer);
		});

		// The sockets (and the DNS lookups, which come with them) are rebuilt when the import
		// completes: asked for once either panel is shown.
		$effect(() => {
			if ((this.panel !== 'sockets' && this.panel !== 'dns') || !this.imported) return;
			this.panels.loadSockets();
		});
	}

	/** The colouring rules tested on the rows the table has read (again when the rules change). */
	#loadColours(): void {
		let rulesOf: ColourRules | null = null;
		$effect(() => {
			const rules = this.colourRules;
			const filters = activeFilters(rules);
			const rows = this.query.rows;
			// Marks change what `marked:` rules match.
			void this.eventMarks;
			const fresh = rules !== rulesOf;
			rulesOf = rules;
			if (filters.length === 0) {
				if (untrack(() => this.rowColours.size > 0)) this.rowColours = new Map();
				return;
			}
			const indexes = [...rows.values()].map((r) => r.index);
			if (indexes.length === 0) return;
			void this.#api.ruleMatches(filters, indexes).then((r) => {
				if (!r.ok || rulesOf !== rules) return;
				const next = rowColours(rules, indexes, r.value.first);
				// Rows read before keep their colours while the rules are the same.
				const asked = new Set(indexes);
				if (!fresh)
					for (const [i, c] of untrack(() => this.rowColours))
						if (!asked.has(i) && next.size < 50_000) next.set(i, c);
				this.rowColours = next;
				this.ruleErrors = r.value.errors;
			});
		});
	}

	setColourRules(rules: ColourRules): void {
		this.colourRules = rules;
		storeColourRules(storage(), rules);
	}

	/** Marks or unmarks the selected event (M); a filter on the marks is run again. */
	toggleMark(index: number | null = this.query.selectedIndex): void {
		if (index === null) return;
		this.eventMarks = toggleMark(this.eventMarks, index);
		saveMarks(storage(), this.#key, this.eventMarks);
		this.toast.say(
			this.eventMarks.has(index) ? t('marks.marked', { index }) : t('marks.unmarked', { index }),
		);
		if (readsMarks(this.query.filter)) void this.query.run();
	}

	/** Selects the next or previous marked event the filter shows. */
	async stepMark(step: 1 | -1): Promise<void> {
		const answer = this.query.answer;
		if (!answer) return;
		const target = markAfter(this.eventMarks, this.query.selectedIndex, step);
		if (target === null) {
			this.toast.say(t('marks.none'));
			return;
		}
		const position = await this.#api.positionOf(answer.handle, target);
		if (position < 0) {
			this.toast.say(t('marks.not-shown', { index: target }));
			return;
		}
		this.query.reveal = { position };
		await this.query.select(position);
	}

	/** The applied payload fields of the rows the table has read, asked once per row. */
	#loadPayload(): void {
		let fieldsOf = '';
		$effect(() => {
			const fields = [...this.prefs.fields];
			const rows = this.query.rows;
			if (fields.length === 0) return;
			const key = fields.join('\u0000');
			const known = untrack(() => this.payload);
			// Other fields, or a map grown large: read again.
			const fresh = key !== fieldsOf || known.size > MAX_PAYLOAD_ROWS;
			fieldsOf = key;
			const missing = [...rows.values()].map((r) => r.index).filter((i) => fresh || !known.has(i));
			if (missing.length === 0) return;
			void this.#api.payloadValues(missing, fields).then((r) => {
				if (!r.ok || fieldsOf !== key) return;
				const next = new Map(fresh ? [] : untrack(() => this.payload));
				missing.forEach((i, k) => next.set(i, r.value[k] ?? {}));
				this.payload = next;
			});
		});
	}

	// ---- actions ---------------------------------------------------------------------------------

	async copyText(text: string, what: string): Promise<void> {
		try {
			await navigator.clipboard.writeText(text);
			this.toast.say(t('trace.copied', { what }));
		} catch {
			this.toast.say(t('trace.copy-refused'));
		}
	}

	async copyRows(as: 'tsv' | 'markdown'): Promise<void> {
		const positions = this.query.copyPositions().slice(0, MAX_COPY_ROWS);
		if (positions.length === 0) return;
		const rows = await this.query.rowsAt(positions);
		const { columns, ctx } = this;
		const text = as === 'tsv' ? rowsAsTsv(rows, columns, ctx) : rowsAsMarkdown(rows, columns, ctx);
		await this.copyText(
			text,
			t('trace.copied-rows', { count: rows.length, format: as === 'tsv' ? 'TSV' : 'Markdown' }),
		);
	}

	/** The matches on screen as a file: CSV as the table shows them, NDJSON and Parquet whole. */
	exportAs(format: ExportFormat): void {
		const fileName = exportFileName(this.#props.trace.name, format, this.query.filter !== '');
		const answer = this.query.answer;
		if (!answer) return;
		if (format === 'csv') {
			const table = { columns: this.columns, ctx: this.ctx };
			void this.job.runScreen(this.#api, answer.handle, answer.matched, table, fileName);
		} else void this.job.run(this.#api, answer.handle, format, fileName);
	}

	/** The worker's calls for this trace (the Packets panel asks its own questions). */
	get traceApi(): TraceApi {
		return this.#api;
	}

	/** One of the Sockets panel's tables as a file: `only` the sockets its list shows, or null. */
	exportTable(table: SocketTableName, format: TableFormat, only: readonly string[] | null): void {
		const fileName = exportFileName(this.#props.trace.name, format, table);
		void this.job.runTable(this.#api, table, format, only, fileName);
	}

	/** Makes the event at `position` the time reference, or clears it when it is that already. */
	async toggleReference(position: number | null = this.query.selected): Promise<void> {
		if (position === null) return;
		const row = this.query.rows.get(position) ?? (await this.query.rowsAt([position]))[0];
		if (!row) return;
		this.setReference(
			this.reference?.index === row.index ? null : { index: row.index, time: row.time },
		);
	}

	/** The time reference, written into the fragment (a reload or a link keeps it). */
	setReference(reference: TimeReference | null): void {
		this.reference = reference;
		this.#location.update({ ref: reference?.index ?? null });
	}

	/** The fragment's time reference: its event's time is read by index, whatever the filter. */
	async #followReference(index: number | null): Promise<void> {
		if (index === null) {
			this.reference = null;
			return;
		}
		const [row] = await this.#api.eventRows([index]);
		// The fragment may have moved on while the row was read; an unknown index sets nothing.
		if (!row || row.index !== index || this.#location.view.ref !== index) return;
		this.reference = { index, time: row.time };
	}

	/** A key pressed anywhere on the page. */
	keydown(e: KeyboardEvent, targets: KeyTargets): void {
		const action = shortcutOf(e);
		if (!action || e.defaultPrevented) return;
		const command = keyCommand(action, {
			typing: isTyping(e.target),
			dialogOpen: document.querySelector('dialog[open]') !== null,
			selected: this.query.selected !== null,
			filter: this.query.filter,
			range: this.query.range,
			span: this.span,
		});
		if (!command) return;
		if (cancelsKey(command)) e.preventDefault();
		switch (command.do) {
			case 'focus-filter':
				targets.focusFilter();
				break;
			case 'deselect':
				void this.query.select(null);
				break;
			case 'filter':
				this.applyFilter(command.filter);
				break;
			case 'move':
				if (this.panel === 'events') targets.move(command.step);
				else {
					this.setPanel('events');
					void tick().then(() => targets.move(command.step));
				}
				break;
			case 'time-mode':
				this.prefs.toggleTimeMode();
				break;
			case 'panel':
				this.setPanel(command.panel);
				break;
			case 'range':
				this.setRange(command.range);
				break;
			case 'time-reference':
				void this.toggleReference();
				break;
			case 'mark':
				this.toggleMark();
				break;
			case 'mark-step':
				void this.stepMark(command.step);
				break;
		}
	}
}
