// The tracker's table of event roles (afd-roles.ts), made from the generated tables.
import { describe, expect, it } from 'vitest';
import { AFD_EVENTS, AFD_LEGACY_EVENTS } from '../../web/src/generated/afd-semantics.ts';
import { addressOf, REQUEST, roleOf } from '../../web/src/sockets/afd-roles.ts';
import { LEGACY, MODERN } from '../../web/src/sockets/live-socket.ts';
import { F, FIELD_NAMES, type AfdEventView } from '../../web/src/sockets/view.ts';

function view(fields: Record<string, number | string>): AfdEventView {
	const at = (f: number) => fields[FIELD_NAMES[f]!];
	return {
		index: 0,
		ticks: 0,
		id: 0,
		version: 0,
		headerPid: null,
		tid: null,
		num: (f) => (typeof at(f) === 'number' ? (at(f) as number) : undefined),
		ptr: (f) => (typeof at(f) === 'string' ? (at(f) as string) : undefined),
		text: (f) => (typeof at(f) === 'string' ? (at(f) as string) : undefined),
	};
}

describe('roleOf', () => {
	it('gives every legacy event 1-41 and every enter/exit event of the tables its role', () => {
		for (let id = 1; id <= 41; id++) {
			const r = roleOf(id);
			expect([id, r.family, r.role]).toEqual([id, LEGACY, AFD_LEGACY_EVENTS[id]!.role]);
			expect(Boolean(r.bits & REQUEST), `${id}`).toBe(AFD_LEGACY_EVENTS[id]!.request);
		}
		for (const [id, m] of Object.entries(AFD_EVENTS)) {
			const r = roleOf(Number(id));
			expect([id, r.family, r.role]).toEqual([id, MODERN, m.role]);
			expect(r.endpoint, id).toBe(F.Endpoint);
		}
	});

	it('the legacy table agrees with itself: posted events are requests, addresses have ports', () => {
		for (const [id, m] of Object.entries(AFD_LEGACY_EVENTS)) {
			if (m.posted) expect(m.request, id).toBe(true);
			expect(m.fields.port !== null, id).toBe(m.fields.address !== null);
			if (m.role !== 'poll-request') expect(m.fields.endpoint, id).not.toBeNull();
		}
	});

	it('reads ids not in the tables for their Endpoint only, by family', () => {
		for (const [id, family] of [
			[500, LEGACY],
			[4000, MODERN],
			[70000, MODERN],
		] as const) {
			const r = roleOf(id);
			expect([r.family, r.role, r.bits, r.endpoint]).toEqual([family, null, 0, F.Endpoint]);
		}
	});

	it('reads the fields the tables name: a legacy address with its port, a SOCKADDR as logged', () => {
		const [sendto6] = Object.entries(AFD_LEGACY_EVENTS).filter(
			([, m]) => m.role === 'send-request' && m.fields.port !== null,
		);
		const legacy = roleOf(Number(sendto6![0]));
		expect(addressOf(view({ Address: '2001:db8::1', Port: 53 }), legacy)).toBe('[2001:db8::1]:53');
		expect(addressOf(view({ Address: '10.0.0.1', Port: 53 }), legacy)).toBe('10.0.0.1:53');
		expect(addressOf(view({ Address: '10.0.0.1' }), legacy)).toBeUndefined();
		const connect = Object.entries(AFD_EVENTS).find(
			([, m]) => m.role === 'connect' && m.fields.address !== null,
		)!;
		expect(addressOf(view({ Address: '10.0.0.1:443' }), roleOf(Number(connect[0])))).toBe(
			'10.0.0.1:443',
		);
		const noAddress = Object.entries(AFD_EVENTS).find(([, m]) => m.fields.address === null)!;
		expect(addressOf(view({ Address: '10.0.0.1:443' }), roleOf(Number(noAddress[0])))).toBe(
			undefined,
		);
	});
});
