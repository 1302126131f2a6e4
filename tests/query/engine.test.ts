// The query engine over the bundled sample: every filter's count is checked against an
// independent computation from the fully decoded records.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { ProviderTable, recordJson, type RecordJson } from '../../web/src/decoder/record-json.ts';
import { explainStatus } from '../../web/src/decoder/status.ts';
import { ingestToMemory, type MemoryTrace } from '../builders/memory-chunks.ts';
import { QueryEngine } from '../../web/src/query/engine.ts';
import { FilterError } from '../../web/src/query/filter-parser.ts';
import { ipMatches, parseIpPattern } from '../../web/src/net/ip-range.ts';
import { parseIp } from '../../web/src/net/ip.ts';
import { open } from '../decoder/load.ts';

const root = join(import.meta.dirname, '../..');
const sample = new Uint8Array(readFileSync(join(root, 'public/sample.etl')));
const truth = JSON.parse(
	readFileSync(join(root, 'tests/fixtures/sample/sample.truth.json'), 'utf8'),
);

let records: RecordJson[];
let mem: MemoryTrace;
let engine: QueryEngine;
let start: bigint;

beforeAll(async () => {
	const trace = await open(sample);
	start = BigInt(trace.facts.startFiletime);
	const index = await indexBuffers(trace);
	const providers = new ProviderTable(trace);
	records = [];
	await mergeRecords(trace, index.buffers, (b, i) => {
		records.push(recordJson(b, i, trace, providers));
	});
	mem = await ingestToMemory(await open(sample));
	engine = new QueryEngine(mem.chunks, mem.context);
});

/** The peer address of a decoded record, as the columns define it (bind events name the local one). */
function addressOf(r: RecordJson): { ip: string; port: number; local: boolean } | null {
	const a = r.fields['Address'];
	if (typeof a !== 'string') return null;
	const local = /bind/i.test(r.name ?? '');
	const m = /^\[(.*)\]:(\d+)$/.exec(a) ?? /^(.*):(\d+)$/.exec(a);
	if (m && typeof r.fields['Port'] !== 'number')
		return { ip: m[1]!.replace(/%.*$/, ''), port: Number(m[2]), local };
	return { ip: a, port: Number(r.fields['Port'] ?? 0), local };
}

function statusOf(r: RecordJson): number | null {
	for (const k of ['Status', 'Error'])
		if (typeof r.fields[k] === 'number') return r.fields[k] as number;
	return null;
}

const isError = (r: RecordJson) => {
	const s = statusOf(r);
	return s !== null && explainStatus(s).isError && r.fields['EnterExit'] !== 0;
};

const cases: [string, (r: RecordJson) => boolean][] = [
	['', () => true],
	['event:AfdConnectWithAddress', (r) => r.name === 'AfdConnectWithAddress'],
	['event:afdsend*', (r) => /^afdsend/i.test(r.name ?? '')],
	['event:1003', (r) => r.kind === 'event' && r.id === 1003],
	['status:error', isError],
	['-status:error', (r) => !isError(r)],
	['status:CONNECTION_REFUSED', (r) => statusOf(r) === 0xc0000236],
	[
		'status:STATUS_IO_TIMEOUT or status:0xc000020d',
		(r) => statusOf(r) === 0xc00000b5 || statusOf(r) === 0xc000020d,
	],
	['pid:4', (r) => r.pid === 4],
	['tid>1000 cpu:2', (r) => (r.tid ?? 0) > 1000 && r.cpu === 2],
	['level:verbose', (r) => r.level === 5],
	['level<5', (r) => r.level < 5],
	[
		'bytes>1000',
		(r) =>
			(typeof r.fields['BufferLength'] === 'number' &&
				(r.fields['BufferLength'] as number) > 1000) ||
			(typeof r.fields['Bytes Indicated'] === 'number' &&
				(r.fields['Bytes Indicated'] as number) > 1000),
	],
	[
		'time>1s time<2.5s',
		(r) => BigInt(r.filetime) - start > 10_000_000n && BigInt(r.filetime) - start < 25_000_000n,
	],
	['port:53', (r) => addressOf(r)?.port === 53],
	[
		'raddr:10.0.0.0/8',
		(r) => {
			const a = addressOf(r);
			const b = a && !a.local ? parseIp(a.ip) : null;
			return b !== null && ipMatches(parseIpPattern('10.0.0.0/8')!, b);
		},
	],
	[
		'addr:fe80::/10',
		(r) => {
			const a = addressOf(r);
			const b = a ? parseIp(a.ip) : null;
			return b !== null && ipMatches(parseIpPattern('fe80::/10')!, b);
		},
	],
	['provider:*Kernel-Process', (r) => r.provider === 'Microsoft-Windows-Kernel-Process'],
	[
		'kind:event -provider:*AFD',
		(r) => r.kind === 'event' && r.provider !== 'Microsoft-Windows-Winsock-AFD',
	],
	[
		'(event:AfdConnect* or event:AfdAccept*) status:error',
		(r) => /^(AfdConnect|AfdAccept)/.test(r.name ?? '') && isError(r),
	],
];

describe('query engine on the sample trace', () => {
	it('holds every record', () => {
		expect(mem.result.records).toBe(truth.totalRecords);
		expect(records).toHaveLength(truth.totalRecords);
	});

	for (const [filter, expected] of cases) {
		it(`"${filter}" matches what the decoded records say`, async () => {
			const sel = await engine.select(filter);
			const want = records.map((r, i) => (expected(r) ? i : -1)).filter((i) => i >= 0);
			expect(sel.total).toBe(records.length);
			expect(sel.matched).toBe(want.length);
			expect(engine.indexes(sel, 0, 1_000_000)).toEqual(want);
		});
	}

	it('pages of rows carry the columns the table shows', async () => {
		const sel = await engine.select('event:AfdConnectWithAddress status:error');
		const rows = await engine.rows(engine.indexes(sel, 0, 10));
		expect(rows.length).toBe(sel.matched);
		for (const row of rows) {
			const r = records[row.index]!;
			expect(row.event).toBe('AfdConnectWithAddress');
			expect(row.statusName).toBe(r.fields['StatusName']);
			expect(row.error).toBe(true);
			expect(row.remote).toBe((r.fields['Address'] as string).replace(/%\d+/, ''));
			expect(row.endpoint).toBe(r.fields['Endpoint']);
			expect(row.time).toBe(Number(BigInt(r.filetime) - start));
		}
		expect(engine.positionOf(sel, rows[0]!.index)).toBe(0);
	});

	it('a time range narrows the selection', async () => {
		const all = await engine.select('');
		const range = { from: 10_000_000, to: 20_000_000 };
		const sel = await engine.select('', range);
		const want = records.filter((r) => {
			const t = Number(BigInt(r.filetime) - start);
			return t >= range.from && t < range.to;
		});
		expect(sel.matched).toBe(want.length);
		expect(sel.matched).toBeLessThan(all.matched);
	});

	it('histogram bins add up to the matches', async () => {
		const sel = await engine.select('provider:*AFD');
		const h = await engine.histogram(sel, 0, 50_000_000, 100);
		const sum = Object.values(h.series)
			.flat()
			.reduce((a, b) => a + b, 0);
		expect(sum).toBe(sel.matched);
		const errors = (await engine.select('provider:*AFD status:error')).matched;
		expect(h.series.errors.reduce((a, b) => a + b, 0)).toBe(errors);
	});

	it('group by event equals the ground truth counts', async () => {
		const groups = await engine.groupBy(await engine.select('provider:*AFD'), 'event', 1000);
		const byId: Record<string, number> = {};
		for (const g of groups) {
			const sel = await engine.select(g.filter);
			expect(sel.matched).toBe(g.count);
			const id = records[engine.indexes(sel, 0, 1)[0]!]!.id;
			byId[id] = (byId[id] ?? 0) + g.count;
		}
		expect(byId).toEqual(truth.afdEventCounts);
	});

	it('group by remote endpoint and status give filters that select exactly those rows', async () => {
		const sel = await engine.select('');
		for (const key of ['remote', 'status', 'process'] as const) {
			const groups = await engine.groupBy(sel, key, 5);
			expect(groups.length).toBeGreaterThan(0);
			for (const g of groups) expect((await engine.select(g.filter)).matched).toBe(g.count);
		}
	});

	it('bad filters throw FilterError with a position', async () => {
		await expect(engine.select('nosuch:1')).rejects.toThrow(FilterError);
		await expect(engine.select('bytes>lots')).rejects.toThrow('"lots" is not a number (at 7)');
		await expect(engine.select('addr:300.1.1.1')).rejects.toThrow(
			'is not an IP address or CIDR block',
		);
	});

	it('a newer query supersedes an older one', async () => {
		const old = engine.begin();
		engine.begin();
		await expect(engine.select('', null, old)).rejects.toThrow('superseded');
	});
});
