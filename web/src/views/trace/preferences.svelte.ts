// How the user likes the events view: which columns, times in UTC or since the start, whether
// the trace facts start open. Kept in localStorage (on this machine only, like everything else).
import { COLUMNS, DEFAULT_COLUMNS, type ColumnId } from '../events/columns.ts';
import type { TimeMode } from '../events/row-format.ts';

const KEY = 'sockscope.preferences';

interface Stored {
	columns?: ColumnId[];
	timeMode?: TimeMode;
	factsOpen?: boolean;
	/** Payload fields applied as columns (by name), in the order applied. */
	fields?: string[];
}

function load(): Stored {
	try {
		return JSON.parse(localStorage.getItem(KEY) ?? '{}') as Stored;
	} catch {
		return {};
	}
}

export class Preferences {
	columns = $state<ColumnId[]>([...DEFAULT_COLUMNS]);
	timeMode = $state<TimeMode>('relative');
	/** null: not chosen yet; the facts then start open on screens tall enough to spare room. */
	factsOpen = $state<boolean | null>(null);
	/** Payload fields applied as columns from the details pane (table, export, Group by). */
	fields = $state<string[]>([]);

	constructor() {
		const s = load();
		const known = new Set(COLUMNS.map((c) => c.id));
		if (Array.isArray(s.columns) && s.columns.some((c) => known.has(c)))
			this.columns = s.columns.filter((c) => known.has(c));
		if (s.timeMode === 'utc' || s.timeMode === 'relative') this.timeMode = s.timeMode;
		if (typeof s.factsOpen === 'boolean') this.factsOpen = s.factsOpen;
		if (Array.isArray(s.fields))
			this.fields = [...new Set(s.fields.filter((f) => typeof f === 'string' && f !== ''))];
	}

	/** Adds a payload field as a column (or removes it when it is one already). */
	toggleField(name: string): void {
		this.fields = this.fields.includes(name)
			? this.fields.filter((f) => f !== name)
			: [...this.fields, name];
		this.#save();
	}

	toggleColumn(id: ColumnId): void {
		const on = this.columns.includes(id);
		if (on && this.columns.length === 1) return;
		this.columns = on ? this.columns.filter((c) => c !== id) : [...this.columns, id];
		this.#save();
	}

	resetColumns(): void {
		this.columns = [...DEFAULT_COLUMNS];
		this.#save();
	}

	toggleTimeMode(): void {
		this.timeMode = this.timeMode === 'utc' ? 'relative' : 'utc';
		this.#save();
	}

	setFactsOpen(open: boolean): void {
		this.factsOpen = open;
		this.#save();
	}

	#save(): void {
		try {
			const s: Stored = { columns: this.columns, timeMode: this.timeMode, fields: this.fields };
			if (this.factsOpen !== null) s.factsOpen = this.factsOpen;
			localStorage.setItem(KEY, JSON.stringify(s));
		} catch {
			// Storage may be off: preferences then last until the page closes.
		}
	}
}
