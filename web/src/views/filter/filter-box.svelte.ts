// The filter box's state: the text being typed (the draft) beside the filter applied, its syntax
// error, the autocomplete list and where the user is in it, and the help's visibility.
// FilterBar.svelte renders it and hands it the input's caret.
import {
	hasTerm,
	shownErrorOf,
	syntaxErrorOf,
	toggleTerm,
	type FilterFailure,
} from './filter-edit.ts';
import { insertSuggestion, listKey, suggest, type Vocabulary } from './filter-suggest.ts';

/** The bar's props, read through getters. */
export interface FilterBoxProps {
	/** The filter applied. */
	readonly value: string;
	/** The worker's error about it. */
	readonly error: FilterFailure | null;
	readonly vocabulary: Vocabulary | null;
	readonly onrun: (filter: string) => void;
}

/** How long the list stays after the box loses focus: a click on an item lands first. */
const CLOSE_AFTER_BLUR_MS = 120;

/**
 * How long typing pauses before the draft's syntax error shows: `process:` is a term being
 * typed, not a mistake, until the user stops (Enter shows it at once).
 */
export const SETTLE_MS = 900;

export class FilterBox {
	draft = $state('');
	caret = $state(0);
	/** The list may show (the box has focus and is being typed in). */
	open = $state(false);
	active = $state(0);
	/** The user has moved into the list with the arrows: Enter takes its item. */
	navigated = $state(false);
	help = $state(false);
	/** Typing has paused (or the draft was applied): its syntax error may show. */
	settled = $state(true);
	#settling: ReturnType<typeof setTimeout> | undefined;

	readonly #props: FilterBoxProps;
	readonly #place: (caret: number) => void;

	syntax = $derived(syntaxErrorOf(this.draft));
	shownError = $derived.by(() =>
		shownErrorOf(
			this.draft,
			this.settled ? this.syntax : null,
			this.#props.value,
			this.#props.error,
		),
	);
	suggestions = $derived.by(() => {
		const vocabulary = this.#props.vocabulary;
		return this.open && vocabulary ? suggest(this.draft, this.caret, vocabulary) : null;
	});
	/** What the toggles edit: the draft, unless it does not parse. */
	base = $derived.by(() => (this.syntax ? this.#props.value : this.draft));

	/** `place`: puts the input's caret at an offset and focuses it. */
	constructor(props: FilterBoxProps, place: (caret: number) => void) {
		this.#props = props;
		this.#place = place;
		$effect(() => {
			this.draft = props.value;
		});
		// A new list starts outside it.
		$effect(() => {
			void this.suggestions;
			this.navigated = false;
			this.active = 0;
		});
	}

	/** The draft is the filter applied, and it is fine. */
	get valid(): boolean {
		return !this.shownError && this.draft.trim() !== '' && this.draft === this.#props.value;
	}

	/** Where the caret is now (null: unknown, taken as the end). */
	setCaret(at: number | null): void {
		this.caret = at ?? this.draft.length;
	}

	/** Typed into, or focused: the list may show. */
	touched(at: number | null): void {
		this.open = true;
		this.setCaret(at);
	}

	/** Typed into: its syntax error waits for a pause. */
	typed(at: number | null): void {
		this.touched(at);
		this.settled = false;
		clearTimeout(this.#settling);
		this.#settling = setTimeout(() => (this.settled = true), SETTLE_MS);
	}

	#settle(): void {
		clearTimeout(this.#settling);
		this.settled = true;
	}

	blurred(): void {
		setTimeout(() => (this.open = false), CLOSE_AFTER_BLUR_MS);
	}

	/** Takes suggestion `k` into the draft. */
	accept(k: number): void {
		const s = this.suggestions;
		const item = s?.items[k];
		if (!s || !item) return;
		const next = insertSuggestion(this.draft, s, item);
		this.draft = next.text;
		this.caret = next.caret;
		this.active = 0;
		this.typed(next.caret);
		queueMicrotask(() => this.#place(next.caret));
		this.open = next.open;
	}

	submit(): void {
		this.#settle();
		this.open = false;
		this.#props.onrun(this.draft.trim());
	}

	/** Whether the draft (or the filter applied) has `term` among its top-level terms. */
	has(term: string): boolean {
		return hasTerm(this.base, term);
	}

	/** Applies the draft (or the filter applied) with `term` added or removed. */
	toggle(term: string): void {
		this.#props.onrun(toggleTerm(this.base, term));
	}

	toggleHelp(): void {
		this.help = !this.help;
	}

	keydown(e: KeyboardEvent): void {
		const s = this.suggestions;
		if (s && s.items.length) {
			const list = { count: s.items.length, navigated: this.navigated, active: this.active };
			const k = listKey(e.key, e.shiftKey, list);
			if (k) {
				e.preventDefault();
				if (k.do === 'move') {
					this.active = k.active;
					this.navigated = true;
				} else if (k.do === 'accept') this.accept(this.active);
				else {
					// Closing the list is all Escape does: the view must not take it as well.
					e.stopPropagation();
					this.open = false;
				}
				return;
			}
		}
		if (e.key === 'Escape') {
			e.preventDefault();
			e.stopPropagation();
			this.draft = '';
			this.open = false;
			this.#props.onrun('');
		}
	}
}
