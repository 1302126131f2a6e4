// How one AfdSend call is logged and what of it counts. One call may be logged as nested
// enter/exit pairs on one thread (3047 → 3056 → 3073 → 3051) and a buffered send completes again
// later (3024): an exit at a double-counting Location is never counted, one at a counting
// Location always; at a Location not known either way, nesting decides: an exit inside an
// unfinished send of the same socket on the same thread is the inner part of one call, not
// counted again. The outermost enter is the request. The chunk builder (which rows are a
// transfer) and the tracker (what a socket sent) ask the same tables. Imports nothing but
// generated tables and locations.ts: ingest/ may import it (.dependency-cruiser.cjs).
import type { AfdLocation } from '../generated/afd-semantics.ts';
import { locationOf } from './locations.ts';

/** Unfinished sends per thread of one socket (LiveSocket keeps them). */
export interface SendDepths {
	sendDepthOf(tid: number): number;
	setSendDepth(tid: number, depth: number): void;
}

/**
 * - `request`: the outermost enter: the call's request (the buffer offered).
 * - `inner`: an enter inside an unfinished send: nothing.
 * - `skip`: an exit that says nothing yet (STATUS_PENDING) or again (a double-counting Location).
 * - `nested`: an exit inside an unfinished send at a Location not known either way: the inner
 *   part of a send already counted (the socket says its figure rests on that guess).
 * - `outcome`: the call's outcome: its bytes, or its failure.
 */
export type SendStep = 'request' | 'inner' | 'skip' | 'nested' | 'outcome';

/**
 * One enter or exit of a send whose bytes are at the exit, on thread `tid` (-1: unknown) of a
 * socket whose unfinished sends `depths` keeps (and this updates). `nests`: the event's calls
 * may be logged nested (AfdSend); `pending`: the exit returned STATUS_PENDING.
 */
export function sendStep(
	depths: SendDepths,
	tid: number,
	exit: boolean,
	nests: boolean,
	pending: boolean,
	loc: AfdLocation | undefined,
): SendStep {
	const depth = nests ? depths.sendDepthOf(tid) : 0;
	if (!exit) {
		if (nests) depths.setSendDepth(tid, depth + 1);
		return depth > 0 ? 'inner' : 'request';
	}
	if (depth > 0) depths.setSendDepth(tid, depth - 1);
	if (pending || loc?.bytes === 'double-count') return 'skip';
	if (depth > 1 && loc?.bytes !== 'count') return 'nested';
	return 'outcome';
}

/** Whether a send exit at this Location (-1: none) repeats bytes already counted. */
export const doubleCounts = (location: number): boolean =>
	location >= 0 && locationOf(location)?.bytes === 'double-count';
