// Group by over the bundled sample, checked against the sample's ground truth
// (tests/fixtures/sample/sample.truth.json), which the writer produced independently.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestToMemory, type MemoryTrace } from '../builders/memory-chunks.ts';
import { recordDecoder } from '../../web/src/decoder/single-record.ts';
import { QueryEngine } from '../../web/src/query/engine.ts';
import { remotesOfSockets } from '../../web/src/query/statistics.ts';
import {
	buildPivot,
	DEFAULT_PIVOT,
	isPivotColumn,
	type PivotGroup,
} from '../../web/src/query/pivot.ts';
import { RecordReader } from '../../web/src/worker/record-reader.ts';
import { acceptedSockets } from '../../web/src/worker/socket-payloads.ts';
import type { SampleTruth } from '../builders/sample.ts';
import { decoderModule, open } from '../decoder/load.ts';

const root = join(import.meta.dirname, '../..');
const sample = new Uint8Array(readFileSync(join(root, 'public/sample.etl')));
const truth = JSON.parse(
	readFileSync(join(root, 'tests/fixtures/sample/sample.truth.json'), 'utf8'),
) as SampleTruth;

let mem: MemoryTrace;
let engine: QueryEngine;
let remotes: Map<number, number>;

beforeAll(async () => {
	const trace = await open(sample, 'sample.etl');
	mem = await ingestToMemory(trace);
	engine = new QueryEngine(mem.chunks, mem.context);
	const reader = new RecordReader(
		{ engine, records: mem.records },
		recordDecoder(decoderModule(), trace.facts),
		trace.facts,
	);
	engine.recordFields = (chunk, rows) => reader.fields(chunk, rows);
	const all = await engine.select('');
	const strings = new Map(mem.tables.strings.map((s, i) => [s, i]));
	const accepted = await acceptedSockets(engine, all, mem.tables.eventTypes, reader, strings);
	remotes = await remotesOfSockets(engine, all, mem.tables.eventTypes, accepted);
});

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const AFD = 'e53c6823-7bb8-44bb-90dc-3f86090d48a6';

describe('group by over the sample', () => {
	it('counts every row once at each level, and each group holds its children', async () => {
		const pivot = await buildPivot(engine, mem.context(), await engine.select(''), DEFAULT_PIVOT, {
			remotes,
		});
		expect(pivot.matched).toBe(truth.totalRecords);
		expect(sum(pivot.groups.map((g) => g.count))).toBe(truth.totalRecords);
		const check = (g: PivotGroup) => {
			expect(g.first).toBeLessThanOrEqual(g.last);
			if (!g.children) return;
			expect(sum(g.children.map((c) => c.count)), g.filter).toBe(g.count);
			expect(sum(g.children.map((c) => c.bytesSent)), g.filter).toBe(g.bytesSent);
			expect(sum(g.children.map((c) => c.errors)), g.filter).toBe(g.errors);
			expect(new Set(g.children.map((c) => c.key)).size).toBe(g.children.length);
			g.children.forEach(check);
		};
		pivot.groups.forEach(check);
	});

	it('gives each process its AFD events and the bytes its sockets moved each way', async () => {
		const sel = await engine.select(`provider:${AFD}`);
		const pivot = await buildPivot(engine, mem.context(), sel, ['process', 'socket'], { remotes });
		for (const p of truth.processes) {
			const g = pivot.groups.find((x) => x.key === `number:${p.pid}`)!;
			const sockets = truth.sockets.filter((s) => s.pid === p.pid);
			expect(g, p.name).toMatchObject({
				count: p.afdEvents,
				bytesSent: sum(sockets.map((s) => s.bytesSent)),
				bytesReceived: sum(sockets.map((s) => s.bytesReceived)),
				filter: `process:${p.pid}`,
			});
			// Each socket's bytes, under its process.
			for (const s of sockets) {
				const child = g.children!.find((c) => c.label === s.endpoint)!;
				expect(child, s.endpoint).toMatchObject({
					bytesSent: s.bytesSent,
					bytesReceived: s.bytesReceived,
				});
				expect(child.errors > 0, s.endpoint).toBe(s.error !== null);
			}
		}
	});

	it("gives each event id its count, and each group's filter selects exactly its rows", async () => {
		const pivot = await buildPivot(
			engine,
			mem.context(),
			await engine.select(''),
			['provider', 'event'],
			{ remotes },
		);
		const afd = pivot.groups.find((g) => g.label === 'Microsoft-Windows-Winsock-AFD')!;
		expect(afd.count).toBe(sum(Object.values(truth.afdEventCounts)));
		const send = afd.children!.find((c) => c.label === 'AfdSend')!;
		expect(send.count).toBe(truth.afdEventCounts['1003']);
		for (const g of [...pivot.groups, ...pivot.groups.flatMap((g) => g.children ?? [])]) {
			const sel = await engine.select(g.filter);
			expect(sel.matched, g.filter).toBe(g.count);
		}
		const deep = await buildPivot(engine, mem.context(), await engine.select(''), DEFAULT_PIVOT, {
			remotes,
		});
		for (const g of deep.groups.flatMap((g) => g.children ?? []).slice(0, 20)) {
			const sel = await engine.select(g.filter);
			expect(sel.matched, g.filter).toBe(g.count);
		}
	});

	it('groups by status, with the failures the truth lists', async () => {
		const pivot = await buildPivot(engine, mem.context(), await engine.select('status:error'), [
			'status',
		]);
		const failures = truth.sockets.filter((s) => s.error).map((s) => s.error!);
		for (const f of failures) expect(pivot.groups.map((g) => g.label)).toContain(f);
	});

	it('groups by a payload field decoded again from the records', async () => {
		expect(isPivotColumn('field:SocketType')).toBe(true);
		expect(isPivotColumn('field:NoSuchField')).toBe(false);
		expect(isPivotColumn('nonsense')).toBe(false);
		const sel = await engine.select('event:AfdCreate');
		const pivot = await buildPivot(engine, mem.context(), sel, ['field:SocketType']);
		expect(sum(pivot.groups.map((g) => g.count))).toBe(sel.matched);
		for (const g of pivot.groups) {
			const again = await engine.select(`event:AfdCreate ${g.filter}`);
			expect(again.matched, g.filter).toBe(g.count);
		}
	});

	it('lists at most `limit` groups and counts the rest', async () => {
		const pivot = await buildPivot(engine, mem.context(), await engine.select(''), ['event'], {
			limit: 3,
		});
		const full = await buildPivot(engine, mem.context(), await engine.select(''), ['event']);
		expect(pivot.groups).toHaveLength(3);
		expect(pivot.more).toBe(full.groups.length - 3);
		expect(pivot.groups).toEqual(full.groups.slice(0, 3));
	});
});
