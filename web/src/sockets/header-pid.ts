// What an AFD event's header PID says of the process its Process field (EPROCESS) names. Windows
// logs many AFD events in whatever context the CPU was in, so the header PID is the caller's only
// at some Locations (generated/afd-semantics.ts). The chunk builder (the Process column) and the
// socket tracker (each socket's PID) both ask headerPidTrust; each keeps what it learns its own
// way (the column: the first PID it is taught; the tracker: ranked by source, processes.ts).
// Imports nothing but generated tables and locations.ts: ingest/ may import it
// (.dependency-cruiser.cjs).
import { AFD_EVENTS, AFD_LEGACY_EVENTS, SYSTEM_PID } from '../generated/afd-semantics.ts';
import { locationOf } from './locations.ts';

/**
 * - `caller`: a Location where it is known to be the caller's.
 * - `not-caller`: a Location where it is known not to be (it names no one).
 * - `guess`: the event is the caller's own (the enter of an application call, a legacy posted
 *   request) at a Location not known either way, or without one: a weak guess.
 * - `no-location`: an event without a Location (the legacy events) that is not the caller's own.
 * - `unknown`: any other event at a Location not known either way.
 */
export type HeaderPidTrust = 'caller' | 'not-caller' | 'guess' | 'no-location' | 'unknown';

/**
 * Whether an event is logged in its caller's context: at its enter (an application call), at
 * any point (a legacy posted request), or never known to be.
 */
export function callerPhase(id: number): 'enter' | 'any' | null {
	if (AFD_EVENTS[id]?.call) return 'enter';
	return AFD_LEGACY_EVENTS[id]?.posted ? 'any' : null;
}

/**
 * What the header PID of an AFD event is worth. `location`: its Location, undefined when it has
 * none; `callersOwn`: the event is the caller's own (callerPhase, at that phase).
 */
export function headerPidTrust(location: number | undefined, callersOwn: boolean): HeaderPidTrust {
	if (location === undefined) return callersOwn ? 'guess' : 'no-location';
	const loc = locationOf(location);
	if (!loc) return callersOwn ? 'guess' : 'unknown';
	return loc.pid === 'reliable' || loc.pid === 'reliable-unless-system'
		? 'caller'
		: loc.pid === 'unreliable'
			? 'not-caller'
			: 'unknown';
}

/** Whether a header PID can be a socket's owner at all (Idle and System never are). */
export const ownerCandidate = (pid: number): boolean => pid > SYSTEM_PID;
