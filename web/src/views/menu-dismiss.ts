// How a menu or panel opened from a button closes: Esc wherever the focus is (caught before the
// page's own Esc, which would clear the selection or the filter; a clicked button is not focused
// in every browser), and a pointer down outside it, which still does what it does. One place, so
// every menu of the page closes alike.

export interface Dismissible {
	isOpen(): boolean;
	root(): HTMLElement | undefined;
	/** Closes it: `byKey` when Esc did. */
	close(byKey: boolean): void;
}

/** The window's handlers for a menu: `onkeydowncapture={d.key} onpointerdown={d.pointer}`. */
export function menuDismissal(menu: Dismissible): {
	key: (e: KeyboardEvent) => void;
	pointer: (e: PointerEvent) => void;
} {
	return {
		key(e) {
			if (!menu.isOpen() || e.key !== 'Escape') return;
			e.preventDefault();
			e.stopPropagation();
			menu.close(true);
		},
		pointer(e) {
			const root = menu.root();
			if (menu.isOpen() && root && !root.contains(e.target as Node)) menu.close(false);
		},
	};
}

/** Whether the focus is inside `root`: Esc then hands it back to the menu's button. */
export function holdsFocus(root: HTMLElement | undefined): boolean {
	return root?.contains(document.activeElement) === true;
}
