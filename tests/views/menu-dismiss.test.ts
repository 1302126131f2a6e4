import { describe, expect, it } from 'vitest';
import { menuDismissal } from '../../web/src/views/menu-dismiss.ts';

/** A menu whose root holds the nodes in `inside`, recording how it was closed. */
function menu(open: boolean) {
	const inside = new Set<object>();
	const root = { contains: (n: object) => inside.has(n) } as unknown as HTMLElement;
	const closed: boolean[] = [];
	const d = menuDismissal({ isOpen: () => open, root: () => root, close: (k) => closed.push(k) });
	return { d, inside, closed };
}

function key(name: string) {
	const seen = { prevented: false, stopped: false };
	const e = {
		key: name,
		preventDefault: () => (seen.prevented = true),
		stopPropagation: () => (seen.stopped = true),
	} as unknown as KeyboardEvent;
	return { e, seen };
}

describe('menuDismissal', () => {
	it('Esc closes an open menu and keeps the key from the page', () => {
		const m = menu(true);
		const { e, seen } = key('Escape');
		m.d.key(e);
		expect(m.closed).toEqual([true]);
		expect(seen).toEqual({ prevented: true, stopped: true });
	});

	it('leaves other keys, and Esc when the menu is closed, to the page', () => {
		const open = menu(true);
		const other = key('Enter');
		open.d.key(other.e);
		const shut = menu(false);
		const esc = key('Escape');
		shut.d.key(esc.e);
		expect([...open.closed, ...shut.closed]).toEqual([]);
		expect(other.seen.prevented || esc.seen.prevented).toBe(false);
	});

	it('a pointer down outside closes it, inside does not', () => {
		const m = menu(true);
		const item = {};
		m.inside.add(item);
		m.d.pointer({ target: item } as unknown as PointerEvent);
		expect(m.closed).toEqual([]);
		m.d.pointer({ target: {} } as unknown as PointerEvent);
		expect(m.closed).toEqual([false]);
	});
});
