// TraceLogging events of the real fixtures decode to the provider and event names SOURCES.md
// records, with every field named.
import { describe, expect, it } from 'vitest';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { ProviderTable, recordJson, type RecordJson } from '../../web/src/decoder/record-json.ts';
import { cell, readSourcesTable } from '../fixtures/real/sources-table.ts';
import { open, realFixture } from './load.ts';

async function records(name: string): Promise<RecordJson[]> {
	const trace = await open(realFixture(name));
	const index = await indexBuffers(trace);
	const providers = new ProviderTable(trace);
	const out: RecordJson[] = [];
	await mergeRecords(trace, index.buffers, (b, i) => {
		out.push(recordJson(b, i, trace, providers));
	});
	return out;
}

const table = readSourcesTable();

describe('TraceLogging', () => {
	for (const [name, row] of table) {
		const m = /(?:TraceLogging|TL) "([^"]+)"[^(]*\((\d+) "([^"]+)"\)/.exec(
			cell(row, 'Providers (events)'),
		);
		if (!m) continue;
		const [, provider, count, event] = m;
		it(`${name}: ${count} "${event}" events of "${provider}"`, async () => {
			const events = (await records(name)).filter((r) => r.provider === provider);
			expect(events).toHaveLength(Number(count));
			for (const e of events) {
				expect(e.name).toBe(event);
				expect(e.problem).toBeUndefined();
				expect(Object.keys(e.fields).length).toBeGreaterThan(0);
			}
		});
	}

	it('primitive types: strings, integers, GUID, FILETIME and SYSTEMTIME fields', async () => {
		const e = (await records('perfview-primitive-types-tracelogging')).find(
			(r) => r.name === 'PrimitiveTypesTest',
		)!;
		expect(e.fields).toMatchObject({
			string_type: 'Mercury',
			boolean_type: false,
			char_type: 'M',
			int16_type: -51,
			uint32_type: 102,
		});
		expect(e.fields['guid_type']).toMatch(
			/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
		);
		expect(e.fields['file_time_type']).toMatch(/^2021-09-09T14:59:35\.\d{7}Z$/);
	});

	it('WPP records keep their header facts', async () => {
		const wpp = (await records('s4-cldflt-wpp-systemtime')).filter((r) => r.kind === 'wpp');
		expect(wpp).toHaveLength(13);
		expect(wpp[0]).toMatchObject({ id: 43, pid: 4, tid: 0xf4 });
	});
});
