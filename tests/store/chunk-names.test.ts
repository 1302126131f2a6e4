// Names learned after a trace's last chunk was stored join that chunk's additions, after those it
// was stored with: opening the trace again replays them in that order.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { allocateColumn, COLUMN_NAMES, type Columns } from '../../web/src/columns/layout.ts';
import type { ChunkAdditions } from '../../web/src/ingest/ingest.ts';
import { openStore } from '../../web/src/store/db.ts';
import {
	addChunkNames,
	chunkRecord,
	chunkRecords,
	putChunks,
} from '../../web/src/store/trace-store.ts';

const ROWS = 16;

function additions(
	processNames: [number, string][],
	hostNames: [string, string[]][],
): ChunkAdditions {
	return { strings: [], eventTypes: [], processes: [], processNames, hostNames };
}

async function storedChunks(traceId: number, count: number) {
	const db = await openStore(`chunk-names-${traceId}`);
	const columns = Object.fromEntries(
		COLUMN_NAMES.map((n) => [n, allocateColumn(n, ROWS)]),
	) as unknown as Columns;
	const records = Array.from(
		{ length: count },
		(_, index) =>
			chunkRecord(
				traceId,
				{ index, rows: ROWS, columns, tMin: 0, tMax: 1 },
				additions([[100 + index, `p${index}.exe`]], [[`10.0.0.${index}`, [`h${index}`]]]),
			).record,
	);
	await putChunks(db, records);
	return db;
}

describe('names added to a stored chunk', () => {
	it('follow the names the last chunk was stored with, and leave the others be', async () => {
		const db = await storedChunks(7, 2);
		await addChunkNames(db, 7, 1, {
			processNames: [[4242, 'late.exe']],
			hostNames: [['10.9.9.9', ['late.example']]],
		});
		const [first, last] = await chunkRecords(db, 7);
		expect(first!.additions.processNames).toEqual([[100, 'p0.exe']]);
		expect(last!.additions.processNames).toEqual([
			[101, 'p1.exe'],
			[4242, 'late.exe'],
		]);
		expect(last!.additions.hostNames).toEqual([
			['10.0.0.1', ['h1']],
			['10.9.9.9', ['late.example']],
		]);
		// The columns are untouched.
		expect(last!.rows).toBe(ROWS);
		expect(last!.parts).toEqual(first!.parts);
	});

	it('add nothing where the chunk is not stored', async () => {
		const db = await storedChunks(8, 1);
		await addChunkNames(db, 8, 5, { processNames: [[1, 'x.exe']], hostNames: [] });
		const chunks = await chunkRecords(db, 8);
		expect(chunks.map((c) => c.index)).toEqual([0]);
		expect(chunks[0]!.additions.processNames).toEqual([[100, 'p0.exe']]);
	});
});
