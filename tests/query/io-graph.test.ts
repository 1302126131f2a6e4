// The I/O graph over the bundled sample: bytes each way per interval, whose totals are the
// sample's ground truth for its sockets (tests/fixtures/sample/sample.truth.json).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestToMemory, type MemoryTrace } from '../builders/memory-chunks.ts';
import { QueryEngine } from '../../web/src/query/engine.ts';
import {
	AUTO_BUCKETS,
	IO_INTERVALS,
	ioGraph,
	ioInterval,
	MAX_BUCKETS,
} from '../../web/src/query/io-graph.ts';
import type { SampleTruth } from '../builders/sample.ts';
import { open } from '../decoder/load.ts';

const root = join(import.meta.dirname, '../..');
const sample = new Uint8Array(readFileSync(join(root, 'public/sample.etl')));
const truth = JSON.parse(
	readFileSync(join(root, 'tests/fixtures/sample/sample.truth.json'), 'utf8'),
) as SampleTruth;

let mem: MemoryTrace;
let engine: QueryEngine;
let span: { from: number; to: number };

beforeAll(async () => {
	const trace = await open(sample, 'sample.etl');
	mem = await ingestToMemory(trace);
	engine = new QueryEngine(mem.chunks, mem.context);
	const chunks = mem.chunks.chunks();
	span = { from: chunks[0]!.tMin, to: chunks.at(-1)!.tMax + 1 };
});

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const none = new Set<number>();

describe('I/O graph', () => {
	it("totals the sockets' bytes each way over the whole sample", async () => {
		const g = await ioGraph(
			engine,
			mem.tables.eventTypes,
			await engine.select(''),
			span,
			null,
			none,
		);
		expect(g.totalSent).toBe(sum(truth.sockets.map((s) => s.bytesSent)));
		expect(g.totalReceived).toBe(sum(truth.sockets.map((s) => s.bytesReceived)));
		expect(g.totalSent).toBeGreaterThan(0);
		expect(sum(g.sent)).toBe(g.totalSent);
		expect(sum(g.received)).toBe(g.totalReceived);
		expect(g.sent.length).toBeLessThanOrEqual(AUTO_BUCKETS);
		expect(g.sent.length).toBe((g.to - g.from) / g.interval);
		expect(g.from).toBeLessThanOrEqual(span.from);
		expect(g.to).toBeGreaterThanOrEqual(span.to);
	});

	it("gives each socket its own bytes, by its endpoint's filter", async () => {
		const byEndpoint = new Map<string, typeof truth.sockets>();
		for (const s of truth.sockets)
			byEndpoint.set(s.endpoint, [...(byEndpoint.get(s.endpoint) ?? []), s]);
		for (const [endpoint, sockets] of byEndpoint) {
			const sel = await engine.select(`endpoint:${endpoint}`);
			const g = await ioGraph(engine, mem.tables.eventTypes, sel, span, null, none);
			expect(g.totalSent, endpoint).toBe(sum(sockets.map((s) => s.bytesSent)));
			expect(g.totalReceived, endpoint).toBe(sum(sockets.map((s) => s.bytesReceived)));
		}
	});

	it('counts only the rows it is given and the range it is asked for', async () => {
		const all = await engine.select('');
		const half = { from: span.from, to: span.from + Math.ceil((span.to - span.from) / 2) };
		const a = await ioGraph(engine, mem.tables.eventTypes, all, half, IO_INTERVALS[3]!, none);
		const b = await ioGraph(
			engine,
			mem.tables.eventTypes,
			all,
			{ from: half.to, to: span.to },
			IO_INTERVALS[3]!,
			none,
		);
		const whole = await ioGraph(engine, mem.tables.eventTypes, all, span, null, none);
		expect(a.totalSent + b.totalSent).toBe(whole.totalSent);
		expect(a.totalReceived + b.totalReceived).toBe(whole.totalReceived);
		const nothing = await ioGraph(engine, mem.tables.eventTypes, all, span, null, none, new Set());
		expect(nothing.totalSent + nothing.totalReceived).toBe(0);
	});

	it('picks an interval that fits the span, widening a choice too fine for it', () => {
		const ms = 10_000;
		expect(ioInterval(50 * ms, null)).toBe(IO_INTERVALS[0]);
		expect(ioInterval(1000 * ms, null)).toBe(10 * ms);
		expect(ioInterval(1000 * ms, 5 * ms)).toBe(5 * ms);
		// 1 ms over an hour would be 3.6 M intervals.
		const hour = 3600 * 1000 * ms;
		const wide = ioInterval(hour, IO_INTERVALS[0]!);
		expect(Math.ceil(hour / wide)).toBeLessThanOrEqual(MAX_BUCKETS);
		expect(IO_INTERVALS).toContain(wide);
		// Days long: whole multiples of the widest interval.
		const week = 7 * 24 * hour;
		const auto = ioInterval(week, null);
		expect(auto % IO_INTERVALS.at(-1)!).toBe(0);
		expect(Math.ceil(week / auto)).toBeLessThanOrEqual(AUTO_BUCKETS);
	});
});
