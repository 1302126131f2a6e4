// The record writer prints every record byte for byte as the record object path does
// (recordLine(recordJson(...))), on the sample and every real fixture, in both formats.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { ProviderTable, recordJson } from '../../web/src/decoder/record-json.ts';
import { recordLine, type ExportFormat } from '../../web/src/export/record-lines.ts';
import { ByteSink } from '../../web/src/export/byte-sink.ts';
import { OWN, RecordWriter } from '../../web/src/export/record-writer.ts';
import { realFixturesDir } from '../fixtures/real/sources-table.ts';
import { open } from '../decoder/load.ts';
import { WHOLE_FIXTURES_MS } from '../timeouts.ts';

const traces: [string, string][] = [
	['sample', join(import.meta.dirname, '../../public/sample.etl')],
	...readdirSync(realFixturesDir)
		.filter((f) => f.endsWith('.etl'))
		.map((f): [string, string] => [f, join(realFixturesDir, f)]),
];

/**
 * Both paths over a whole trace in both formats, every other record with PID and TID replaced:
 * lines that differ (the first few), records, records the schema writers took.
 */
async function compare(path: string) {
	const trace = await open(new Uint8Array(readFileSync(path)));
	const index = await indexBuffers(trace);
	const providers = new ProviderTable(trace);
	const formats: ExportFormat[] = ['ndjson', 'csv'];
	const writers = formats.map((f) => new RecordWriter(f, trace, providers));
	const sink = new ByteSink();
	const differ: { old: string; new: string }[] = [];
	let records = 0;
	let fast = 0;
	await mergeRecords(trace, index.buffers, (b, i) => {
		// The columns' PID and TID stand in for the record's own in exports of stored events.
		const override = records % 2 === 1;
		const pid = override ? (records % 3 === 0 ? 0xffffffff : records * 7) : OWN;
		const tid = override ? (records % 5 === 0 ? 0xffffffff : records * 11) : OWN;
		const r = recordJson(b, i, trace, providers);
		if (override) {
			r.pid = pid === 0xffffffff ? null : pid;
			r.tid = tid === 0xffffffff ? null : tid;
		}
		for (const w of writers) {
			const old = Buffer.from(recordLine(r, w.format) + '\n');
			sink.length = 0;
			w.record(sink, b, i, pid, tid);
			const made = Buffer.from(sink.bytes.subarray(0, sink.length));
			if (!made.equals(old) && differ.length < 3)
				differ.push({ old: old.toString(), new: made.toString() });
		}
		sink.length = 0;
		if (writers[0]!.fast(sink, b, i, pid, tid)) fast++;
		records++;
	});
	return { differ, records, fast };
}

describe('record writer', { timeout: WHOLE_FIXTURES_MS }, () => {
	for (const [name, path] of traces)
		it(`${name}: every record as the record object prints it, NDJSON and CSV`, async () => {
			const { differ, records, fast } = await compare(path);
			expect(records).toBeGreaterThan(0);
			expect(differ).toEqual([]);
			// The sample's Winsock events take the schema writers.
			if (name === 'sample') expect(fast).toBeGreaterThan(records / 2);
		});
});
