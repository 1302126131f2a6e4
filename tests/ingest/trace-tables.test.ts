// Each chunk carries what the trace's tables gained since the chunk before; replaying them in
// chunk order must make the same tables.
import { describe, expect, it } from 'vitest';
import { TraceTables } from '../../web/src/ingest/trace-tables.ts';

describe('TraceTables additions', () => {
	it('carry only the map entries added or changed since the last chunk, and replay to the same tables', () => {
		const t = new TraceTables();
		const replayed = new TraceTables();
		t.intern('0xffff8a5c00001000');
		t.processOf.set('0xffff8a5c00001000', 1200);
		t.processNames.set(1200, 'curl.exe');
		t.hostNames.set('93.184.216.34', ['example.com']);
		const first = t.takeAdditions();
		replayed.apply(first);
		expect(first.processes).toEqual([['0xffff8a5c00001000', 1200]]);
		// A PID learned again for the same EPROCESS, a new name, and a host list made anew with the
		// same names (not carried again).
		t.processOf.set('0xffff8a5c00001000', 1300);
		t.processNames.set(1300, 'svchost.exe');
		t.hostNames.set('93.184.216.34', ['example.com']);
		t.hostNames.set('2001:db8::1', ['a.example', 'b.example']);
		const second = t.takeAdditions();
		replayed.apply(second);
		expect(second).toEqual({
			strings: [],
			eventTypes: [],
			processes: [['0xffff8a5c00001000', 1300]],
			processNames: [[1300, 'svchost.exe']],
			hostNames: [['2001:db8::1', ['a.example', 'b.example']]],
		});
		const third = t.takeAdditions();
		expect([third.processes, third.processNames, third.hostNames]).toEqual([[], [], []]);
		for (const m of ['processOf', 'processNames', 'hostNames'] as const)
			expect([...replayed[m]]).toEqual([...t[m]]);
		expect(replayed.strings).toEqual(t.strings);
	});

	it('carry nothing again of what tables rebuilt from stored chunks hold (a resumed import)', () => {
		const stored = new TraceTables();
		stored.apply({
			strings: ['0x10'],
			eventTypes: [],
			processes: [['0x10', 7]],
			processNames: [[7, 'a.exe']],
			hostNames: [],
		});
		stored.processNames.set(8, 'b.exe');
		expect(stored.takeAdditions()).toEqual({
			strings: [],
			eventTypes: [],
			processes: [],
			processNames: [[8, 'b.exe']],
			hostNames: [],
		});
	});

	it('look up replayed strings as interned ones, and go on interning after them (a resumed import)', () => {
		const t = new TraceTables();
		const texts = ['0xffff8a5c00001000', '10.0.0.1', '0xffff8a5c00002000'];
		const indexes = texts.map((x) => t.intern(x));
		const replayed = new TraceTables();
		replayed.apply(t.takeAdditions());
		expect(texts.map((x) => replayed.indexOf(x))).toEqual(indexes);
		expect(replayed.indexOf('unknown')).toBeUndefined();
		const again = new TraceTables();
		again.apply({ strings: texts, eventTypes: [] });
		// Interned again: the index it has; a new string: the next one.
		expect(again.intern('10.0.0.1')).toBe(indexes[1]);
		expect(again.intern('')).toBe(0);
		expect(again.intern('fe80::1')).toBe(texts.length + 1);
		expect(again.indexOf('fe80::1')).toBe(texts.length + 1);
		expect(again.strings).toEqual(['', ...texts, 'fe80::1']);
	});
});
