// A stored row's record reads back the same from its kept buffer as decoded alone from its bytes
// (records that are not kept buffers), with its row's PID and TID (here unlike its own) and the logfile header as
// the trace's facts; its fields, all or some, are the object's. On the sample and every real
// fixture.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RowRecords } from '../../web/src/columns/row-records.ts';
import { NO_PID } from '../../web/src/columns/layout.ts';
import { recordDecoder } from '../../web/src/decoder/single-record.ts';
import { ingestToMemory } from '../builders/memory-chunks.ts';
import { realFixturesDir } from '../fixtures/real/sources-table.ts';
import { decoderModule, open } from '../decoder/load.ts';
import { WHOLE_FIXTURES_MS } from '../timeouts.ts';

const TRACES: [string, string][] = [
	['sample', join(import.meta.dirname, '../../public/sample.etl')],
	...readdirSync(realFixturesDir)
		.filter((f) => f.endsWith('.etl'))
		.map((f): [string, string] => [f, join(realFixturesDir, f)]),
];

describe('RowRecords', { timeout: WHOLE_FIXTURES_MS }, () => {
	for (const [name, path] of TRACES)
		it(`${name}: each row's record from its buffer is the record decoded alone`, async () => {
			const trace = await open(new Uint8Array(readFileSync(path)));
			const mem = await ingestToMemory(trace);
			const module = await decoderModule();
			const kept = new RowRecords(mem.records, recordDecoder(module, trace.facts), trace.facts);
			// The same bytes through an object that is not a BufferRecords: every record alone.
			const bytesOnly = { bytes: (b: number, o: number) => mem.records.bytes(b, o) };
			const alone = new RowRecords(bytesOnly, recordDecoder(module, trace.facts), trace.facts);
			let rows = 0;
			let headers = 0;
			let fromBuffer = 0;
			for (const chunk of mem.chunks.list) {
				// PIDs and TIDs other than the records' own: the rows' are what the object says.
				const c = {
					...chunk.columns,
					pid: chunk.columns.pid.map((p, k) => (k % 3 === 0 ? NO_PID : p + 7)),
					tid: chunk.columns.tid.map((t, k) => (k % 5 === 0 ? NO_PID : t + 11)),
				};
				for (let i = 0; i < chunk.rows; i++, rows++) {
					const a = await kept.json(c, i);
					const b = await alone.json(c, i);
					expect(a, `row ${rows}`).toEqual(b);
					if (!a) continue;
					expect(a.pid).toBe(c.pid[i] === NO_PID ? null : c.pid[i]);
					expect(a.tid).toBe(c.tid[i] === NO_PID ? null : c.tid[i]);
					if (c.kind[i] === 0) {
						headers++;
						expect(a.kind).toBe('header');
						expect(a.fields).toEqual({ ...trace.facts });
						expect(await kept.stored(c, i)).toBeNull();
					} else if (await kept.stored(c, i)) fromBuffer++;
					expect(await kept.fields(c, i, null)).toEqual(a.fields);
					// Some of them: those asked for are the object's (a schema's also bring their meanings).
					const [first] = Object.keys(a.fields);
					if (first === undefined || c.kind[i] === 0) continue;
					const some = (await kept.fields(c, i, new Set([first])))!;
					expect(some[first]).toEqual(a.fields[first]);
					for (const [k, v] of Object.entries(some)) expect(v).toEqual(a.fields[k]);
				}
			}
			expect(rows).toBeGreaterThan(0);
			// Nearly every record is read from its buffer.
			expect(fromBuffer).toBeGreaterThan((rows - headers) / 2);
		});
});
