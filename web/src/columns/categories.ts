// The timeline's categories of events. Each stored event carries its category (the `cat`
// column), so that a timeline over millions of events reads one byte per event for it.
import type { EventType } from './layout.ts';

export type HistogramCategory = 'connect' | 'data' | 'other' | 'errors';

/** In the order of their numbers in the `cat` column. */
export const CATEGORIES: readonly HistogramCategory[] = ['connect', 'data', 'other', 'errors'];
export const CAT_ERRORS = 3;

const CONNECT = /connect|accept|listen|bind|create|close|cleanup|abort|disconnect/i;
const DATA = /send|recv|receive|data|datagram/i;

/** The timeline category of an event type (failed events count as errors instead). */
export function categoryOf(t: EventType): HistogramCategory {
	if (!t.afd) return 'other';
	if (DATA.test(t.name) && !/connect/i.test(t.name)) return 'data';
	if (CONNECT.test(t.name)) return 'connect';
	return 'other';
}
