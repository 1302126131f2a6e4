import { describe, expect, it } from 'vitest';
import type { TraceFacts } from '../../web/src/decoder/types.ts';
import { PROVIDERS } from '../../web/src/generated/schemas.ts';
import type { EventType } from '../../web/src/columns/layout.ts';
import { trustCounters } from '../../web/src/worker/trust.ts';

const facts = { eventsLost: 7, buffersLost: 0 } as TraceFacts;
const afd = PROVIDERS.find((p) => p.key === 'afd')!;
const type = (t: Partial<EventType>): EventType => ({
	kind: 1,
	provider: null,
	providerName: null,
	id: 1,
	version: 0,
	opcode: 0,
	name: 'x',
	afd: false,
	schema: -1,
	...t,
});

describe('trust counters', () => {
	it('counts losses from the header and damage from the import, without links', () => {
		const c = trustCounters(facts, 2, null);
		expect(c.map((x) => [x.name, x.severity, x.value, x.filter])).toEqual([
			['events-lost', 'data-loss', 7, null],
			['buffers-lost', 'data-loss', 0, null],
			['damage', 'error', 2, null],
		]);
	});

	it('sorts event types into unknown providers, unknown versions and no schema, each with its filter', () => {
		const stranger = '11111111-2222-3333-4444-555555555555';
		const c = trustCounters(facts, 0, [
			{
				type: type({ provider: afd.guid, providerName: afd.name, schema: 0, name: 'SocketCreate' }),
				count: 50,
			},
			{
				type: type({ provider: afd.guid, providerName: afd.name, name: `${afd.name} #1018` }),
				count: 3,
			},
			{ type: type({ provider: stranger, name: `${stranger} #5` }), count: 4 },
			{ type: type({ kind: 2, name: 'Process/Start' }), count: 10 },
		]);
		const by = Object.fromEntries(c.map((x) => [x.name, x]));
		expect(by['unknown-providers']).toMatchObject({ value: 4, filter: `provider:${stranger}` });
		expect(by['unknown-versions']).toMatchObject({
			value: 3,
			filter: `event:"${afd.name} #1018"`,
		});
		expect(by['no-schema']!.value).toBe(3 + 4 + 10);
		expect(by['no-schema']!.filter!.split(' or ')).toHaveLength(3);
	});

	it('links nothing when a counter is zero', () => {
		const c = trustCounters(facts, 0, []);
		expect(c.filter((x) => x.filter !== null)).toEqual([]);
	});
});
