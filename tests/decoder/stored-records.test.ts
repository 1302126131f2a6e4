// A stored row's record read from its buffer as decoded and kept (BufferRecords.asStored) is the
// record a decode of its bytes alone gives, or none is given; and a record's fields alone
// (recordFields) are its object's fields: on the sample, every real fixture, the hand-made hostile
// traces (damaged records) and one of the rarer layouts, over every layout.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BufferRecords, bufferTable } from '../../web/src/decoder/buffer-records.ts';
import { Clock } from '../../web/src/decoder/decoded-buffer.ts';
import { indexBuffers, reopenTrace, type OpenTrace } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { ProviderTable, recordFields, recordJson } from '../../web/src/decoder/record-json.ts';
import { decodeRecord, recordDecoder } from '../../web/src/decoder/single-record.ts';
import { PayloadLayout, RecordOut } from '../../web/src/generated/layouts.ts';
import { PROVIDERS } from '../../web/src/generated/schemas.ts';
import { filetimeFromIso } from '../builders/bytes.ts';
import { EtlWriter } from '../builders/etl-writer.ts';
import { HOSTILE_CASES } from '../fixtures/hostile/cases.ts';
import { ingestToMemory } from '../builders/memory-chunks.ts';
import { realFixturesDir } from '../fixtures/real/sources-table.ts';
import { WHOLE_FIXTURES_MS } from '../timeouts.ts';
import { decoderModule, open } from './load.ts';

const START = filetimeFromIso('2026-03-14T09:26:53.5897932Z');
const AFD = PROVIDERS.find((p) => p.key === 'afd')!.guid;

/**
 * A message logged as a string (STRING_ONLY), an AFD event of a version no manifest has, and an
 * event whose extended item claims more data than it holds (the record says it is damaged).
 */
function oddLayouts(): Uint8Array {
	const w = new EtlWriter({ startTime: START });
	const common = { cpu: 0, pid: 4321, tid: 4322 };
	const text = new Uint8Array(Buffer.from('sockets ready\0', 'utf16le'));
	const provider = '6f0a4c2e-1d3b-4e5f-8a9b-0c1d2e3f4a5b';
	w.addEvent({ ...common, time: START + 10n, provider, id: 2, flags: 0x4, payload: text });
	const payload = new Uint8Array(12);
	w.addEvent({ ...common, time: START + 20n, provider: AFD, id: 1000, version: 9, payload });
	const marker = new Uint8Array([0xab, 0xcd, 0xef, 0x01, 0x23, 0x45, 0x67, 0x89]);
	w.addEvent({
		...common,
		time: START + 30n,
		provider,
		id: 3,
		payload,
		ext: [{ type: 0x7f, data: marker }],
	});
	const bytes = w.finish().bytes;
	const at = Buffer.from(bytes).indexOf(Buffer.from(marker));
	if (at < 0) throw new Error('the extended item is not where it was written');
	// DataSize, the item header's last u16, just before the data: beyond the item's own size.
	new DataView(bytes.buffer, bytes.byteOffset).setUint16(at - 2, 0xffff, true);
	return bytes;
}

const file = (path: string) => () => new Uint8Array(readFileSync(path));
const TRACES: [string, () => Uint8Array][] = [
	['sample', file(join(import.meta.dirname, '../../public/sample.etl'))],
	...readdirSync(realFixturesDir)
		.filter((f) => f.endsWith('.etl'))
		.map((f): [string, () => Uint8Array] => [f, file(join(realFixturesDir, f))]),
	...HOSTILE_CASES.filter((c) => !c.large).map((c): [string, () => Uint8Array] => [
		`hostile ${c.name}`,
		c.bytes,
	]),
	['odd layouts', oddLayouts],
];

/** The traces that open (some hostile cases are not traces at all: nothing to read back). */
async function* openTraces(): AsyncGenerator<[string, OpenTrace]> {
	for (const [name, bytes] of TRACES) {
		let trace: OpenTrace;
		try {
			trace = await open(bytes());
		} catch {
			continue;
		}
		yield [name, trace];
	}
}

describe('records read back from their buffers', { timeout: WHOLE_FIXTURES_MS }, () => {
	it('give the fields of the record object, all or those a filter reads, for every layout', async () => {
		const layouts = new Set<number>();
		let picked = 0;
		for await (const [name, trace] of openTraces()) {
			const providers = new ProviderTable(trace);
			const index = await indexBuffers(trace);
			let differ = 0;
			await mergeRecords(trace, index.buffers, (b, i) => {
				layouts.add(b.u8(i, RecordOut.layout));
				const want = recordJson(b, i, trace, providers).fields;
				if (JSON.stringify(recordFields(b, i, trace)) !== JSON.stringify(want)) differ++;
				// A filter's keys (every other one, and one no record has): those are as the object's.
				const keys = new Set(Object.keys(want).filter((_, k) => k % 2 === 0));
				keys.add('NoSuchField');
				const some = recordFields(b, i, trace, keys);
				for (const key of keys)
					if (JSON.stringify(some[key]) !== JSON.stringify(want[key])) differ++;
				if (keys.size > 1 && Object.keys(some).length < Object.keys(want).length) picked++;
			});
			expect(differ, name).toBe(0);
		}
		// Fields a filter does not read were left out.
		expect(picked).toBeGreaterThan(0);
		for (const l of [
			PayloadLayout.schema,
			PayloadLayout.tracelogging,
			PayloadLayout.string,
			PayloadLayout.unknownVersion,
		])
			expect(layouts.has(l), `layout ${l}`).toBe(true);
	});

	it('are the records decoded alone, or are not given', async () => {
		let given = 0;
		let rows = 0;
		let damaged = 0;
		for await (const [name, trace] of openTraces()) {
			const mem = await ingestToMemory(trace);
			const records = new BufferRecords(
				await reopenTrace(trace),
				bufferTable((await indexBuffers(trace)).buffers),
			);
			const single = recordDecoder(decoderModule(), trace.facts);
			const singleProviders = new ProviderTable(single);
			const start = BigInt(trace.facts.startFiletime);
			const clock = new Clock(start);
			for (const chunk of mem.chunks.list) {
				const c = chunk.columns;
				for (let i = 0; i < chunk.rows; i++) {
					if (c.kind[i] === 0) continue;
					rows++;
					const alone = await decodeRecord(
						single,
						await records.bytes(c.buffer[i]!, c.recOffset[i]!),
						c.cpu[i]!,
						start + BigInt(c.time[i]!),
					);
					const at = await records.asStored(
						c.buffer[i]!,
						c.recOffset[i]!,
						c.cpu[i]!,
						c.time[i]!,
						clock,
					);
					if (alone && alone.u16(0, RecordOut.damage) !== 0) {
						damaged++;
						expect(at, `${name} row ${i}: a damaged record is left to the decode alone`).toBeNull();
					}
					if (!at) continue;
					given++;
					expect(alone, `${name} row ${i}`).not.toBeNull();
					expect(recordJson(at.buffer, at.i, trace, records.providers), `${name} row ${i}`).toEqual(
						recordJson(alone!, 0, single, singleProviders),
					);
				}
			}
		}
		// Nearly every row is given, and some damaged ones are not.
		expect(given).toBeGreaterThan(rows * 0.9);
		expect(damaged).toBeGreaterThan(0);
	});
});
