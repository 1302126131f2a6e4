// Filters saved with a name, shown as a bar of buttons that apply them: kept in localStorage
// for every trace (a filter names what to look for, not one trace's events).

export interface SavedFilter {
	readonly name: string;
	readonly filter: string;
}

const KEY = 'sockscope.saved-filters';

/** Most buttons the bar holds. */
export const MAX_SAVED = 40;

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;

export function loadSavedFilters(storage: Storage | null): SavedFilter[] {
	try {
		const v = JSON.parse(storage?.getItem(KEY) ?? '[]') as unknown;
		if (!Array.isArray(v)) return [];
		return (
			v
				.filter(
					(f): f is SavedFilter =>
						typeof f === 'object' &&
						f !== null &&
						typeof (f as SavedFilter).name === 'string' &&
						typeof (f as SavedFilter).filter === 'string' &&
						(f as SavedFilter).name.trim() !== '',
				)
				.map((f) => ({ name: f.name, filter: f.filter }))
				// The bar keys its buttons by name: an edited entry with a name twice keeps the first.
				.filter((f, k, all) => all.findIndex((g) => g.name === f.name) === k)
				.slice(0, MAX_SAVED)
		);
	} catch {
		return [];
	}
}

export function storeSavedFilters(storage: Storage | null, list: readonly SavedFilter[]): void {
	try {
		storage?.setItem(KEY, JSON.stringify(list));
	} catch {
		// Storage may be off: the buttons then last until the page closes.
	}
}

/** The list with `filter` saved as `name`: a button of the same name takes the new filter. */
export function saveFilter(
	list: readonly SavedFilter[],
	name: string,
	filter: string,
): SavedFilter[] {
	const n = name.trim();
	if (!n) return [...list];
	const at = list.findIndex((f) => f.name === n);
	if (at >= 0) return list.map((f, k) => (k === at ? { name: n, filter } : f));
	return [...list, { name: n, filter }].slice(0, MAX_SAVED);
}

/** The list with button `at` renamed (a blank name, or another button's, changes nothing). */
export function renameFilter(
	list: readonly SavedFilter[],
	at: number,
	name: string,
): SavedFilter[] {
	const n = name.trim();
	if (!n || list.some((f, k) => k !== at && f.name === n)) return [...list];
	return list.map((f, k) => (k === at ? { ...f, name: n } : f));
}

export function removeFilter(list: readonly SavedFilter[], at: number): SavedFilter[] {
	return list.filter((_, k) => k !== at);
}
