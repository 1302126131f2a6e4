// The timeline's histogram reads compact columns (ticks since the chunk start, a category byte);
// every bin must equal a count made from the events' exact times and types, including a chunk
// that spans more than the compact column can hold.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { categoryOf, CATEGORIES } from '../../web/src/columns/categories.ts';
import { FLAG_ERROR, TICK_SPAN } from '../../web/src/columns/layout.ts';
import { ingestToMemory, type MemoryTrace } from '../builders/memory-chunks.ts';
import { QueryEngine } from '../../web/src/query/engine.ts';
import type { Histogram } from '../../web/src/query/protocol.ts';
import { EtlWriter } from '../builders/etl-writer.ts';
import { afdId } from '../builders/afd-vocabulary.ts';
import { open } from '../decoder/load.ts';

const root = join(import.meta.dirname, '../..');
const sample = new Uint8Array(readFileSync(join(root, 'public/sample.etl')));
const START = 134179540135897932n;
const MINUTE = 600_000_000n;

/** The histogram counted from the `time`, `etype` and `flags` columns, row by row. */
async function expected(mem: MemoryTrace, from: number, to: number, bins: number) {
	const types = mem.context().eventTypes;
	const counts = Object.fromEntries(CATEGORIES.map((c) => [c, new Array(bins).fill(0)]));
	for (const c of mem.chunks.list) {
		const { time, etype, flags } = c.columns;
		for (let i = 0; i < c.rows; i++) {
			const t = time[i]!;
			if (t < from || t >= to) continue;
			const b = Math.min(bins - 1, Math.floor(((t - from) * bins) / (to - from)));
			const cat = flags[i]! & FLAG_ERROR ? 'errors' : categoryOf(types[etype[i]!]!);
			counts[cat]![b]++;
		}
	}
	return counts;
}

async function histogramOf(mem: MemoryTrace, filter: string, from: number, to: number, bins = 64) {
	const engine = new QueryEngine(mem.chunks, mem.context);
	const h: Histogram = await engine.histogram(await engine.select(filter), from, to, bins);
	return h.series;
}

describe('histogram', () => {
	it('equals a count from exact times over the sample, for any range', async () => {
		const mem = await ingestToMemory(await open(sample));
		const last = mem.chunks.list.at(-1)!.tMax;
		for (const [from, to, bins] of [
			[0, last + 1, 800],
			[last / 3, last / 2, 50],
			[12345, 12345 + 99, 7],
		] as const) {
			const got = await histogramOf(mem, '', from, to, bins);
			expect(got).toEqual(await expected(mem, from, to, bins));
		}
		expect(
			Object.values(await histogramOf(mem, 'status:error', 0, last + 1))
				.flat()
				.reduce((a, b) => a + b, 0),
			// Three AFD failures and TCP/IP's connect timeout (1045).
		).toBe(4);
	});

	it('reads exact times in a chunk spanning more than 2^32 ticks', async () => {
		const w = new EtlWriter({ cpus: 2, bufferSize: 4096, startTime: START });
		// Bursts of sends minutes apart: one chunk, 40 minutes long.
		for (let k = 0; k < 400; k++)
			w.addAfd({
				cpu: k % 2,
				time: START + BigInt(Math.floor(k / 100)) * 13n * MINUTE + BigInt(k) * 1_000n,
				pid: 4120,
				tid: 7000,
				id: afdId('AfdSend'),
				pointerSize: 8,
				values: {
					EnterExit: 1,
					Location: 3,
					Process: 0x8a5c5080,
					Endpoint: 0x8b000000,
					BufferCount: 1,
					Buffer: 0x1000,
					BufferLength: 100 + k,
				},
			});
		const mem = await ingestToMemory(await open(w.finish().bytes));
		const chunk = mem.chunks.list[0]!;
		expect(mem.chunks.list).toHaveLength(1);
		expect(chunk.tMax - chunk.tMin).toBeGreaterThan(TICK_SPAN);
		// The compact column saturated; the histogram must not have used it.
		expect(Math.max(...chunk.columns.tick)).toBe(TICK_SPAN);
		const to = chunk.tMax + 1;
		const got = await histogramOf(mem, '', 0, to, 40);
		expect(got).toEqual(await expected(mem, 0, to, 40));
		expect(got.data.reduce((a, b) => a + b, 0)).toBe(400);
	});
});
