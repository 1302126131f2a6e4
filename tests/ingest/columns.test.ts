import { describe, expect, it } from 'vitest';
import {
	CHUNK_ROWS,
	chunkCapacity,
	chunkStartingAt,
	FIRST_CHUNK_ROWS,
} from '../../web/src/ingest/columns.ts';

describe('chunk sizes', () => {
	it('makes the first chunk small and the others full size', () => {
		expect(FIRST_CHUNK_ROWS).toBeLessThan(CHUNK_ROWS);
		expect(chunkCapacity(0)).toBe(FIRST_CHUNK_ROWS);
		expect(chunkCapacity(1)).toBe(CHUNK_ROWS);
		expect(chunkCapacity(7)).toBe(CHUNK_ROWS);
	});

	it('finds the chunk a resumed import goes on with from the rows stored', () => {
		let rows = 0;
		for (let chunk = 0; chunk < 5; chunk++) {
			expect(chunkStartingAt(rows)).toBe(chunk);
			rows += chunkCapacity(chunk);
		}
	});

	it('refuses a row inside a chunk', () => {
		expect(() => chunkStartingAt(FIRST_CHUNK_ROWS - 1)).toThrow(
			`row ${FIRST_CHUNK_ROWS - 1} is not a chunk boundary`,
		);
		expect(() => chunkStartingAt(FIRST_CHUNK_ROWS + 10)).toThrow(/not a chunk boundary/);
	});
});
