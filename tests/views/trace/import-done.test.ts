// What waits for the end of an import: no report comes, and the library lists the trace as done.
import { describe, expect, it } from 'vitest';
import { importDone } from '../../../web/src/views/trace/import-done.ts';

describe('the end of an import', () => {
	it('is when no report comes and the library no longer lists the trace as importing', () => {
		const progress = {
			traceId: 1,
			phase: 'importing' as const,
			fileName: 'a.etl',
			elapsedMs: 1,
			bytesDone: 50,
			bytesTotal: 100,
			records: 0,
			chunks: 0,
			mbPerSecond: 0,
			etaSeconds: null,
		};
		expect(importDone(progress, { status: 'complete' })).toBe(false);
		expect(importDone(null, { status: 'importing' })).toBe(false);
		expect(importDone(null, { status: 'complete' })).toBe(true);
	});
});
