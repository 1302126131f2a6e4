// `host:GLOB` over the bundled sample: the events whose remote address a DNS answer in the trace
// gave a matching name. The expected rows are worked out from the decoded records here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { ProviderTable, recordJson, type RecordJson } from '../../web/src/decoder/record-json.ts';
import { ingestTrace } from '../../web/src/ingest/ingest.ts';
import { MemoryChunks } from '../builders/memory-chunks.ts';
import { TraceTables } from '../../web/src/ingest/trace-tables.ts';
import { QueryEngine } from '../../web/src/query/engine.ts';
import { importTracker } from '../../web/src/sockets/import-tracker.ts';
import { open } from '../decoder/load.ts';

const root = join(import.meta.dirname, '../..');
const sample = new Uint8Array(readFileSync(join(root, 'public/sample.etl')));

let records: RecordJson[];
let engine: QueryEngine;
let tables: TraceTables;

beforeAll(async () => {
	const trace = await open(sample);
	const index = await indexBuffers(trace);
	const providers = new ProviderTable(trace);
	records = [];
	await mergeRecords(trace, index.buffers, (b, i) => {
		records.push(recordJson(b, i, trace, providers));
	});
	// As the command line imports: the tracker's names go into the tables before each chunk.
	const t2 = await open(sample);
	tables = new TraceTables();
	const chunks = new MemoryChunks();
	const names = importTracker(t2, false);
	await ingestTrace(t2, async (c) => void chunks.list.push(c), {
		tables,
		index: await indexBuffers(t2),
		observe: names.observe,
		beforeCommit: names.learnNames,
	});
	engine = new QueryEngine(chunks, () => ({
		strings: tables.strings,
		eventTypes: tables.eventTypes,
		startFiletime: BigInt(t2.facts.startFiletime),
		processNames: tables.processNames,
		hostNames: tables.hostNames,
	}));
});

/** Addresses the trace's DNS-Client answers give for names matching `re` (parsed here). */
function addressesFor(re: RegExp): Set<string> {
	const out = new Set<string>();
	for (const r of records) {
		if (r.provider !== 'Microsoft-Windows-DNS-Client' || r.id !== 3008) continue;
		const items = String(r.fields.QueryResults).split(';').filter(Boolean);
		const names = [String(r.fields.QueryName), ...items.filter((x) => x.startsWith('type:'))];
		if (!names.some((n) => re.test(n.replace(/^type:\s+5\s+/, '')))) continue;
		for (const x of items) if (!x.startsWith('type:')) out.add(x.replace(/^::ffff:/, ''));
	}
	return out;
}

/** The remote IP of an AFD record, as its Address field has it (bind events name the local one). */
function remoteIp(r: RecordJson): string | null {
	const a = r.fields.Address;
	if (typeof a !== 'string' || /bind/i.test(r.name ?? '')) return null;
	return (/^\[(.*)\]:\d+$/.exec(a) ?? /^(.*):\d+$/.exec(a))?.[1] ?? a;
}

describe('host: filter', () => {
	it('the names reach the filter tables', () => {
		expect(tables.hostNames.get('151.101.1.69')).toEqual([
			'www.reddit.com',
			'reddit.map.fastly.net',
		]);
	});
	for (const [glob, re] of [
		['*.reddit.com', /^.*\.reddit\.com$/i],
		['*fastly*', /fastly/i],
		['www.bing.com', /^www\.bing\.com$/i],
	] as const)
		it(`host:${glob} keeps the events to the addresses answered for it`, async () => {
			const addresses = addressesFor(re);
			expect(addresses.size).toBeGreaterThan(0);
			const want = records
				.map((r, i) => (addresses.has(remoteIp(r) ?? '') ? i : -1))
				.filter((i) => i >= 0);
			const sel = await engine.select(`host:${glob}`);
			expect(sel.matched).toBe(want.length);
			expect(want.length).toBeGreaterThan(0);
			expect(engine.indexes(sel, 0, 1_000_000)).toEqual(want);
		});
});
