// What the page-wide shortcuts (state/shortcuts.ts) do in a trace view, and the arrow keys on its
// panel tabs. The view carries the commands out; these functions only decide.
import type { TimeRange } from '../../query/protocol.ts';
import type { ShortcutAction } from '../../state/shortcuts.ts';
import { PANELS, type Panel } from '../../state/view-hash.ts';
import { zoomedOut } from '../timeline/timeline-data.ts';
import { toggleTerm } from '../filter/filter-edit.ts';

export type TraceCommand =
	| { readonly do: 'focus-filter' }
	| { readonly do: 'deselect' }
	| { readonly do: 'filter'; readonly filter: string }
	/** The next or previous event of the table, on the Events panel. */
	| { readonly do: 'move'; readonly step: 1 | -1 }
	| { readonly do: 'time-mode' }
	| { readonly do: 'panel'; readonly panel: Panel }
	| { readonly do: 'range'; readonly range: TimeRange | null }
	/** The selected event as the time reference, or none when it is that already. */
	| { readonly do: 'time-reference' }
	/** Mark or unmark the selected event; go to the next or previous mark. */
	| { readonly do: 'mark' }
	| { readonly do: 'mark-step'; readonly step: 1 | -1 };

export interface KeyContext {
	/** The key goes to a text field: it types there. */
	readonly typing: boolean;
	/** A dialog is open: the keys are its own. */
	readonly dialogOpen: boolean;
	readonly selected: boolean;
	readonly filter: string;
	readonly range: TimeRange | null;
	/** The whole trace's time span. */
	readonly span: TimeRange;
}

const PANEL_OF: Record<
	'panel-events' | 'panel-stats' | 'panel-sockets' | 'panel-dns' | 'panel-packets',
	Panel
> = {
	'panel-events': 'events',
	'panel-stats': 'stats',
	'panel-sockets': 'sockets',
	'panel-dns': 'dns',
	'panel-packets': 'packets',
};

/** What a shortcut does in the trace view, or null when it does nothing here. */
export function keyCommand(action: ShortcutAction, c: KeyContext): TraceCommand | null {
	if (c.typing || c.dialogOpen) return null;
	switch (action) {
		case 'focus-filter':
			return { do: 'focus-filter' };
		case 'escape':
			// Esc steps back: first the selection, then the filter.
			if (c.selected) return { do: 'deselect' };
			return c.filter ? { do: 'filter', filter: '' } : null;
		case 'next':
		case 'previous':
			return { do: 'move', step: action === 'next' ? 1 : -1 };
		case 'errors-only':
			return { do: 'filter', filter: toggleTerm(c.filter, 'status:error') };
		case 'time-format':
			return { do: 'time-mode' };
		case 'panel-events':
		case 'panel-stats':
		case 'panel-sockets':
		case 'panel-dns':
		case 'panel-packets':
			// One number per tab, in the tabs' order.
			return { do: 'panel', panel: PANEL_OF[action] };
		case 'zoom-out':
			return c.range ? { do: 'range', range: zoomedOut(c.range, c.span) } : null;
		case 'zoom-reset':
			return c.range ? { do: 'range', range: null } : null;
		case 'time-reference':
			return c.selected ? { do: 'time-reference' } : null;
		case 'mark':
			return c.selected ? { do: 'mark' } : null;
		case 'next-mark':
		case 'previous-mark':
			return { do: 'mark-step', step: action === 'next-mark' ? 1 : -1 };
		case 'help':
		case 'theme':
			// The page's own (App.svelte).
			return null;
	}
}

/** Whether the key's own effect (typing "/" into the box it focuses, scrolling) is cancelled. */
export function cancelsKey(command: TraceCommand): boolean {
	return command.do === 'focus-filter' || command.do === 'move';
}

/** The tab ArrowRight or ArrowLeft moves to from tab `p` (round the ends); null for other keys. */
export function tabAfter(p: Panel, key: string): Panel | null {
	if (key !== 'ArrowRight' && key !== 'ArrowLeft') return null;
	const step = key === 'ArrowRight' ? 1 : PANELS.length - 1;
	return PANELS[(PANELS.indexOf(p) + step) % PANELS.length]!;
}
