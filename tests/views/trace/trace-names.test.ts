// The names a trace's vocabulary gives PIDs and remote addresses.
import { describe, expect, it } from 'vitest';
import type { Vocabulary } from '../../../web/src/worker/api.ts';
import { hostNamesOf, processNamesOf } from '../../../web/src/views/trace/trace-names.ts';

const vocabulary: Vocabulary = {
	events: [],
	providers: [],
	processes: [
		{ pid: 4, name: 'System', count: 3 },
		{ pid: 812, name: null, count: 1 },
		{ pid: 1200, name: 'curl.exe', count: 9 },
	],
	statuses: [],
	hosts: [['93.184.216.34', ['example.com', 'www.example.com']]],
};

describe('trace names', () => {
	it('names the processes whose name the trace tells, and only those', () => {
		const names = processNamesOf(vocabulary);
		expect([...names]).toEqual([
			[4, 'System'],
			[1200, 'curl.exe'],
		]);
		expect(names.has(812)).toBe(false);
	});

	it('gives each remote address its DNS names', () => {
		expect(hostNamesOf(vocabulary).get('93.184.216.34')).toEqual([
			'example.com',
			'www.example.com',
		]);
	});

	it('knows no names before the vocabulary comes', () => {
		expect(processNamesOf(null).size).toBe(0);
		expect(hostNamesOf(null).size).toBe(0);
	});
});
