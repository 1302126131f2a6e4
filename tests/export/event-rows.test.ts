// The events table's Parquet file is byte for byte the same whether its rows come straight from
// the records' buffers (BufferEventRows, where it can) or all from eventRow over the record
// objects: on the sample, every real fixture and a generated Winsock trace, with the sockets'
// owners.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BufferEventRows } from '../../web/src/export/event-rows.ts';
import { EVENT_COLUMNS, eventRow } from '../../web/src/export/tables.ts';
import { tableWriter, type Row } from '../../web/src/export/table-writer.ts';
import { WHOLE_FIXTURES_MS } from '../timeouts.ts';
import { across2to53, writerTraces } from './writer-traces.ts';
import { storedTrace } from './stored-rows.ts';
import { HOSTILE_CASES } from '../fixtures/hostile/cases.ts';

/** A table of rows as one Parquet file (row groups of `group` rows). */
async function parquet(rows: Row[], group: number): Promise<Buffer> {
	const pieces: Uint8Array[] = [];
	const table = tableWriter('parquet', EVENT_COLUMNS, (p) => void pieces.push(p), group);
	for (const r of rows) await table.add(r);
	await table.close();
	return Buffer.concat(pieces);
}

/** Each stored row both ways: from the record object, and from the buffer where it can be. */
async function bothWays(bytes: Uint8Array) {
	const stored = await storedTrace(bytes);
	const rows = new BufferEventRows(stored.records.providers);
	const objects: Row[] = [];
	const made: Row[] = [];
	let fromBuffer = 0;
	for await (const s of stored.rows()) {
		// The logfile header's row is the trace's facts: eventRow's alone.
		if (!s.at) continue;
		const { c, i, row: at } = s;
		const object = eventRow(c, i, at.ctx, stored.json({ ...s, at: s.at }), at.index, at.owners);
		const row = rows.row(s.at.buffer, s.at.i, c.pid[i]!, c.tid[i]!, at);
		objects.push(object);
		made.push(row ?? object);
		if (row) fromBuffer++;
	}
	return { objects, made, fromBuffer };
}

const traces = writerTraces('event-rows', 1);

describe('the events table from the buffer, in Parquet', { timeout: WHOLE_FIXTURES_MS }, () => {
	for (const [name, path] of traces)
		it(`${name}: the same file as from the record objects`, async () => {
			const { objects, made, fromBuffer } = await bothWays(new Uint8Array(readFileSync(path)));
			expect(objects.length).toBeGreaterThan(0);
			// Small row groups too: each group's statistics and dictionaries.
			for (const group of [65536, 1000]) {
				const a = await parquet(objects, group);
				const b = await parquet(made, group);
				expect(b.equals(a), `row groups of ${group}`).toBe(true);
			}
			if (name === 'sample' || name === 'generated')
				expect(fromBuffer).toBeGreaterThan(objects.length / 2);
		});

	it('the same file for the hand-made hostile traces that open', async () => {
		let opened = 0;
		for (const c of HOSTILE_CASES.filter((h) => !h.large)) {
			let both: Awaited<ReturnType<typeof bothWays>>;
			try {
				both = await bothWays(c.bytes());
			} catch {
				continue; // not a trace at all, or nothing stored to read back
			}
			opened++;
			const same = (await parquet(both.made, 65536)).equals(await parquet(both.objects, 65536));
			expect(same, c.name).toBe(true);
		}
		expect(opened).toBeGreaterThan(0);
	});

	it('the same file for times in 1629, before 1970 (microseconds below zero)', async () => {
		const { objects, made, fromBuffer } = await bothWays(across2to53());
		expect(fromBuffer).toBe(objects.length);
		expect((await parquet(made, 65536)).equals(await parquet(objects, 65536))).toBe(true);
	});
});
