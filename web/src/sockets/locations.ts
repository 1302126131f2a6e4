// The AFD Location codes as an array by code (a dense lookup per event, not a keyed one): what
// the header PID and the byte count say at each (generated/afd-semantics.ts). Imports nothing
// but generated tables: ingest/ reaches it through header-pid.ts and send-nesting.ts.
import { AFD_LOCATIONS, type AfdLocation } from '../generated/afd-semantics.ts';

const LOCATIONS: (AfdLocation | undefined)[] = Array.from(
	{ length: Math.max(...Object.keys(AFD_LOCATIONS).map(Number)) + 1 },
	(_, code) => AFD_LOCATIONS[code],
);

/** What is known of a Location code (undefined: not known either way). */
export const locationOf = (code: number): AfdLocation | undefined => LOCATIONS[code];
