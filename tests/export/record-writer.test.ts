// The record writer prints every record byte for byte as the record object path does
// (recordLine(recordJson(...))), on the sample, every real fixture and a generated Winsock trace
// long enough for the writer's kept values to fill, collide and be given up, in both formats.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { ProviderTable, recordJson } from '../../web/src/decoder/record-json.ts';
import { recordLine, type ExportFormat } from '../../web/src/export/record-lines.ts';
import { ByteSink } from '../../web/src/export/byte-sink.ts';
import type { DecodedBuffer } from '../../web/src/decoder/decoded-buffer.ts';
import { RecordOut } from '../../web/src/generated/layouts.ts';
import { OWN, RecordWriter } from '../../web/src/export/record-writer.ts';
import { open } from '../decoder/load.ts';
import { WHOLE_FIXTURES_MS } from '../timeouts.ts';
import { writerTraces } from './writer-traces.ts';

const traces = writerTraces('record-writer', 4);

/**
 * Header values of one record changed in place (both paths read the same bytes), so that
 * records of one event type do not all share them: what the writer keeps per event type must
 * follow.
 */
function vary(b: DecodedBuffer, i: number, k: number): void {
	const v = b.records;
	const at = i * RecordOut.SIZE;
	v.setUint8(at + RecordOut.level, v.getUint8(at + RecordOut.level) ^ (k & 1));
	v.setUint8(at + RecordOut.opcode, v.getUint8(at + RecordOut.opcode) ^ (k & 2));
	v.setUint8(at + RecordOut.version, v.getUint8(at + RecordOut.version) ^ (k & 4));
	v.setUint16(at + RecordOut.task, v.getUint16(at + RecordOut.task, true) ^ (k & 8), true);
	v.setUint16(at + RecordOut.id, v.getUint16(at + RecordOut.id, true) ^ (k & 16), true);
	const kw = at + RecordOut.keyword;
	v.setUint32(kw, v.getUint32(kw, true) ^ (k & 32), true);
	v.setUint32(kw + 4, v.getUint32(kw + 4, true) ^ ((k & 64) << 20), true);
}

/**
 * Both paths over a whole trace in both formats, every other record with PID and TID replaced
 * and one in three with header values changed: lines that differ (the first few), records,
 * records the schema writers took.
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
		if (records % 3 === 2) vary(b, i, records / 3);
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
			if (name === 'generated') expect(fast).toBeGreaterThan(records * 0.9);
		});
});
