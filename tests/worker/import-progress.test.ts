// While importing, the page's timeline spans the chunks stored so far: what storedSpan reports.
import { describe, expect, it } from 'vitest';
import { storedSpan } from '../../web/src/worker/import-progress.ts';

describe('storedSpan', () => {
	it('is null before any event is stored', () => {
		expect(storedSpan([])).toBeNull();
		expect(storedSpan([{ tMin: 0, tMax: 0, rows: 0 }])).toBeNull();
	});

	it('spans the earliest to the latest event of the chunks stored, in any order', () => {
		const chunks = [
			{ tMin: 500, tMax: 9_000, rows: 10 },
			{ tMin: 120, tMax: 700, rows: 3 },
			{ tMin: 0, tMax: 0, rows: 0 },
			{ tMin: 8_000, tMax: 12_345, rows: 7 },
		];
		expect(storedSpan(chunks)).toEqual({ tMin: 120, tMax: 12_345 });
		expect(storedSpan(chunks.slice(0, 1))).toEqual({ tMin: 500, tMax: 9_000 });
	});
});
