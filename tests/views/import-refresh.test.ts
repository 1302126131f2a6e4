// While a trace is being imported, the view re-runs its filter now and then: pauses growing with
// the import, but never a report left unanswered while nothing is shown.
import { describe, expect, it } from 'vitest';
import {
	finalRunDue,
	importDone,
	MIN_REFRESH_MS,
	refreshDue,
} from '../../web/src/views/events/import-refresh.ts';

const report = (elapsedMs: number, bytesDone = 50, bytesTotal = 100) => ({
	elapsedMs,
	bytesDone,
	bytesTotal,
});

describe('re-runs while importing', () => {
	it('waits at least the shortest pause early in an import', () => {
		expect(refreshDue(report(100), MIN_REFRESH_MS - 1, false)).toBe(false);
		expect(refreshDue(report(100), MIN_REFRESH_MS, false)).toBe(true);
	});

	it('waits half the import’s time once that is longer', () => {
		const elapsed = 10 * MIN_REFRESH_MS;
		expect(refreshDue(report(elapsed), elapsed / 2 - 1, false)).toBe(false);
		expect(refreshDue(report(elapsed), elapsed / 2, false)).toBe(true);
	});

	it('asks at every report while nothing is shown, and at the last report', () => {
		expect(refreshDue(report(60_000), 0, true)).toBe(true);
		expect(refreshDue(report(60_000, 100, 100), 0, false)).toBe(true);
	});
});

describe('the end of an import', () => {
	it('is when no report comes and the library no longer lists the trace as importing', () => {
		const p = { ...report(1), traceId: 1, phase: 'importing' as const, fileName: 'a.etl' };
		const progress = { ...p, records: 0, chunks: 0, mbPerSecond: 0, etaSeconds: null };
		expect(importDone(progress, { status: 'complete' })).toBe(false);
		expect(importDone(null, { status: 'importing' })).toBe(false);
		expect(importDone(null, { status: 'complete' })).toBe(true);
	});

	it('brings one more run only when the answer shown was partial and the import completed', () => {
		expect(finalRunDue(null, { status: 'complete' }, true)).toBe(true);
		expect(finalRunDue(null, { status: 'complete' }, false)).toBe(false);
		expect(finalRunDue(null, { status: 'importing' }, true)).toBe(false);
		expect(finalRunDue(null, { status: 'cancelled' }, true)).toBe(false);
	});
});
