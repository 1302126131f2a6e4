// The DNS panel's logic over a hand-made report: words and "failed only" narrow the names, a
// picked name narrows the lookups, and the asking process is written as the other panels do.
import { describe, expect, it } from 'vitest';
import type { DnsLookupRow, DnsNameRow, DnsReport } from '../../../web/src/dns/dns-report.ts';
import {
	MAX_LOOKUPS_SHOWN,
	shownLookups,
	shownNames,
} from '../../../web/src/views/dns/dns-view.ts';
import { processText } from '../../../web/src/views/format.ts';

function name(n: string, failed: number, pid: number, image: string | null): DnsNameRow {
	return {
		key: n.toLowerCase(),
		name: n,
		lookups: failed + 1,
		failed,
		source: 'client',
		statuses: failed
			? [{ key: '9003', status: 9003, name: 'DNS_ERROR_RCODE_NAME_ERROR', count: failed }]
			: [],
		processes: [{ key: String(pid), pid, name: image, count: failed + 1 }],
		addresses: failed ? [] : ['198.51.100.7'],
		sockets: 0,
		p50Ms: null,
		maxMs: null,
		firstTicks: 0,
		lastTicks: 0,
		neverResolved: false,
	};
}

function lookup(index: number, n: string): DnsLookupRow {
	return {
		index,
		ticks: index,
		startTicks: null,
		name: n,
		type: 1,
		status: 0,
		pid: 10,
		source: 'client',
		addresses: [],
		chain: [],
		key: String(index),
		process: 'app.exe',
		statusName: 'ERROR_SUCCESS',
		failed: false,
		ms: null,
		sockets: [],
	};
}

const report: DnsReport = {
	names: [name('typo.example', 2, 10, 'app.exe'), name('www.example.com', 0, 20, 'OneDrive.exe')],
	lookups: [
		...Array.from({ length: MAX_LOOKUPS_SHOWN + 5 }, (_, i) => lookup(i, 'WWW.example.com')),
		lookup(9000, 'typo.example'),
	],
	failures: [],
};

describe('the DNS panel', () => {
	it('narrows the names by every word typed, and to failed ones', () => {
		expect(shownNames(report, '', false).map((n) => n.name)).toEqual([
			'typo.example',
			'www.example.com',
		]);
		expect(shownNames(report, 'onedrive 198.51', false).map((n) => n.name)).toEqual([
			'www.example.com',
		]);
		expect(shownNames(report, 'name_error', false).map((n) => n.name)).toEqual(['typo.example']);
		expect(shownNames(report, '', true).map((n) => n.name)).toEqual(['typo.example']);
		expect(shownNames(report, 'onedrive', true)).toEqual([]);
	});

	it("lists a picked name's lookups (case ignored), at most MAX_LOOKUPS_SHOWN", () => {
		const www = shownLookups(report, 'www.example.com');
		expect(www.total).toBe(MAX_LOOKUPS_SHOWN + 5);
		expect(www.rows.length).toBe(MAX_LOOKUPS_SHOWN);
		expect(shownLookups(report, 'typo.example').rows.map((l) => l.index)).toEqual([9000]);
		expect(shownLookups(report, null).total).toBe(report.lookups.length);
	});

	it('writes the asking process by its image and PID', () => {
		expect(processText(10, 'app.exe')).toBe('app.exe (10)');
		expect(processText(1880, null)).toBe('PID 1880');
		expect(processText(null, 'x')).toBe('—');
	});
});
