// Header-PID trust, as the tracker and the chunk builder both ask it.
import { describe, expect, it } from 'vitest';
import {
	AFD_EVENTS,
	AFD_LEGACY_EVENTS,
	AFD_LOCATIONS,
	SYSTEM_PID,
} from '../../web/src/generated/afd-semantics.ts';
import { callerPhase, headerPidTrust, ownerCandidate } from '../../web/src/sockets/header-pid.ts';

const codes = (pid: string) =>
	Object.entries(AFD_LOCATIONS)
		.filter(([, l]) => l.pid === pid)
		.map(([code]) => Number(code));
const unlisted = Math.max(...Object.keys(AFD_LOCATIONS).map(Number)) + 1;

describe('headerPidTrust', () => {
	it('follows the Location table where it knows the Location, whoever the event is', () => {
		for (const own of [false, true]) {
			for (const code of [...codes('reliable'), ...codes('reliable-unless-system')])
				expect(headerPidTrust(code, own), `${code}`).toBe('caller');
			for (const code of codes('unreliable'))
				expect(headerPidTrust(code, own), `${code}`).toBe('not-caller');
			for (const code of codes('unknown'))
				expect(headerPidTrust(code, own), `${code}`).toBe('unknown');
		}
		expect(codes('reliable').length).toBeGreaterThan(0);
		expect(codes('unreliable').length).toBeGreaterThan(0);
	});

	it("is a guess at an unknown Location or without one only for the caller's own event", () => {
		expect(headerPidTrust(unlisted, true)).toBe('guess');
		expect(headerPidTrust(unlisted, false)).toBe('unknown');
		expect(headerPidTrust(undefined, true)).toBe('guess');
		expect(headerPidTrust(undefined, false)).toBe('no-location');
	});
});

describe('callerPhase', () => {
	it('is the enter of an application call, any point of a legacy posted request', () => {
		for (const [id, m] of Object.entries(AFD_EVENTS))
			expect(callerPhase(Number(id)), id).toBe(m.call ? 'enter' : null);
		for (const [id, m] of Object.entries(AFD_LEGACY_EVENTS))
			expect(callerPhase(Number(id)), id).toBe(m.posted ? 'any' : null);
		const posted = Object.entries(AFD_LEGACY_EVENTS).filter(([, m]) => m.posted);
		expect(posted.map(([id]) => Number(id))).toEqual([18, 19, 20, 21, 22]);
		expect(callerPhase(4000)).toBeNull();
	});
});

describe('ownerCandidate', () => {
	it('is never Idle or System', () => {
		expect(ownerCandidate(0)).toBe(false);
		expect(ownerCandidate(SYSTEM_PID)).toBe(false);
		expect(ownerCandidate(SYSTEM_PID + 1)).toBe(true);
	});
});
