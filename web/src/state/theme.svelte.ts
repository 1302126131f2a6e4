// Light or dark: follows the system unless the user picks one, and remembers the pick. The pick
// is a data-theme attribute on the root; theme.css turns it into the colour scheme.
import './theme.css';

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'sockscope.theme';
const ORDER: ThemeChoice[] = ['system', 'light', 'dark'];

function stored(): ThemeChoice {
	try {
		const v = localStorage.getItem(KEY);
		return v === 'light' || v === 'dark' ? v : 'system';
	} catch {
		return 'system';
	}
}

export class Theme {
	choice = $state<ThemeChoice>('system');
	/** What the system prefers now. */
	systemDark = $state(false);
	readonly resolved = $derived<'light' | 'dark'>(
		this.choice === 'system' ? (this.systemDark ? 'dark' : 'light') : this.choice,
	);

	constructor() {
		this.choice = stored();
		const query = matchMedia('(prefers-color-scheme: dark)');
		this.systemDark = query.matches;
		query.addEventListener('change', (e) => (this.systemDark = e.matches));
		this.#apply();
	}

	set(choice: ThemeChoice): void {
		this.choice = choice;
		try {
			if (choice === 'system') localStorage.removeItem(KEY);
			else localStorage.setItem(KEY, choice);
		} catch {
			// Storage may be off (private modes): the choice then lasts until the page closes.
		}
		this.#apply();
	}

	/** System → light → dark → system. */
	next(): void {
		this.set(ORDER[(ORDER.indexOf(this.choice) + 1) % ORDER.length]!);
	}

	#apply(): void {
		document.documentElement.dataset['theme'] = this.choice;
	}
}
