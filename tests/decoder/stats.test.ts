// traceStats counts header-only in WASM, walking slices in the merge's order; its figures, and the
// order of every list and table key in them (what `sockscope stats --json` prints), must be those
// of a pass handing every record through mergeRecords (merged-stats.ts), on real, damaged and
// hostile traces, and on traces whose record times go back and tie across CPUs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { traceStats } from '../../web/src/decoder/stats.ts';
import { filetimeFromIso, utf8z } from '../builders/bytes.ts';
import { busyEvent } from '../builders/busy-event.ts';
import { scanEtl } from '../builders/etl-scan.ts';
import { EtlWriter } from '../builders/etl-writer.ts';
import { Prng } from '../builders/prng.ts';
import { buildSample } from '../builders/sample.ts';
import {
	EXT_TYPE_EVENT_SCHEMA_TL,
	EXT_TYPE_PROV_TRAITS,
	TL_CHANNEL,
	tlProviderGuid,
	tlProviderTraits,
} from '../builders/tracelogging.ts';
import { HOSTILE_CASES, recordFlood, setLogfile } from '../fixtures/hostile/cases.ts';
import { WHOLE_FIXTURES_MS } from '../timeouts.ts';
import { open } from './load.ts';
import { cpuTrace } from './merge-traces.ts';
import { mergedStats } from './merged-stats.ts';

const ROOT = join(import.meta.dirname, '../..');

function etlFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
		e.isDirectory()
			? etlFiles(join(dir, e.name))
			: e.name.endsWith('.etl')
				? [join(dir, e.name)]
				: [],
	);
}

/** The stats both ways, each over its own decoder; null when the trace does not open. */
async function both(bytes: Uint8Array): Promise<{ tallied: string; merged: string } | null> {
	let a, b;
	try {
		a = await open(bytes);
		b = await open(bytes);
	} catch {
		return null;
	}
	const tallied = await traceStats(a, await indexBuffers(a));
	const merged = await mergedStats(b, await indexBuffers(b));
	// As printed: key order counts.
	return { tallied: JSON.stringify(tallied), merged: JSON.stringify(merged) };
}

async function expectSame(bytes: Uint8Array, name: string): Promise<void> {
	const r = await both(bytes);
	if (r) expect(r.tallied, name).toBe(r.merged);
}

/** The sample trace with its events' times drawn at random from a few values: back, and tied. */
function scrambledTimes(seed: number, spread: number): Uint8Array {
	const bytes = buildSample().file.bytes.slice();
	const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const rng = new Prng(seed);
	for (const b of scanEtl(bytes))
		for (const r of b.records)
			if (r.kind === 'event' && b.index > 0)
				v.setBigInt64(b.fileOffset + r.offset + 0x10, r.raw + BigInt(rng.int(-spread, 0)), true);
	return bytes;
}

/** Busy CPUs with small buffers, some of which stop at a broken record: damage in merge order. */
function damagedBuffers(seed: number): Uint8Array {
	const bytes = cpuTrace(6000, false);
	const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const rng = new Prng(seed);
	for (const b of scanEtl(bytes)) {
		const r = b.records[rng.int(0, b.records.length - 1)];
		if (b.index > 0 && r && rng.chance(0.3)) v.setUint32(b.fileOffset + r.offset, 0x12345678, true);
	}
	return bytes;
}

/**
 * Buffers of 1 MiB on 3 CPUs, the header counting 1,024 processors: each buffer is walked in
 * slices of 64 KiB, the slices of the CPUs interleaved. Among the Winsock events, TraceLogging
 * events whose metadata outruns the value budget (record damage, reported in slice order).
 */
function slicedTrace(compress: boolean): Uint8Array {
	const w = new EtlWriter({ cpus: 3, bufferSize: 1 << 20, compress });
	let t = filetimeFromIso('2026-03-14T09:26:53.5897932Z');
	const schema = nestedSchema();
	const provider = 'Stats.Nested';
	for (let n = 0; n < 30000; n++) {
		t += 50n + BigInt(n % 7) * 10n;
		w.addAfd(busyEvent(n, n % 3, t, 50));
		if (n % 997 === 0)
			w.addEvent({
				cpu: n % 3,
				time: t,
				pid: 10,
				tid: 11,
				provider: tlProviderGuid(provider),
				id: 0,
				channel: TL_CHANNEL,
				ext: [
					{ type: EXT_TYPE_PROV_TRAITS, data: tlProviderTraits(provider) },
					{ type: EXT_TYPE_EVENT_SCHEMA_TL, data: schema },
				],
				payload: new Uint8Array(8),
			});
	}
	const bytes = w.finish().bytes;
	setLogfile(bytes, 'NumberOfProcessors', 1024);
	return bytes;
}

/** TraceLogging metadata: a 65,535-element struct array of such arrays of empty structs. */
function nestedSchema(): Uint8Array {
	const meta: number[] = [0, 0, 0, ...utf8z('Nested')];
	for (let d = 0; d < 2; d++) meta.push(...utf8z(`level${d}`), 24 | 0x20 | 0x80, 1, 0xff, 0xff);
	meta.push(...utf8z('empty'), 24 | 0x80, 0);
	const schema = Uint8Array.from(meta);
	new DataView(schema.buffer).setUint16(0, schema.length, true);
	return schema;
}

describe('traceStats (header-only, in WASM) against a pass through mergeRecords', () => {
	it(
		'public/sample.etl and every fixture',
		async () => {
			const files = [join(ROOT, 'public/sample.etl'), ...etlFiles(join(ROOT, 'tests/fixtures'))];
			expect(files.length).toBeGreaterThan(10);
			for (const f of files) await expectSame(new Uint8Array(readFileSync(f)), f);
		},
		WHOLE_FIXTURES_MS,
	);

	it(
		'the damaged inputs of the fuzz corpus',
		async () => {
			const dir = join(ROOT, 'tests/fuzz/corpus');
			const files = readdirSync(dir).sort();
			expect(files.length).toBeGreaterThan(100);
			let damaged = 0;
			for (const f of files) {
				const r = await both(new Uint8Array(readFileSync(join(dir, f))));
				if (!r) continue;
				expect(r.tallied, f).toBe(r.merged);
				if ((JSON.parse(r.merged) as { damage: unknown[] }).damage.length > 0) damaged++;
			}
			expect(damaged).toBeGreaterThan(100);
		},
		WHOLE_FIXTURES_MS,
	);

	for (const c of HOSTILE_CASES)
		it(`hostile: ${c.name}`, async () => expectSame(c.bytes(), c.name), WHOLE_FIXTURES_MS);

	it('record times that go back within a CPU and tie across CPUs', async () => {
		for (const [seed, spread] of [
			[1, 3],
			[2, 40],
			[3, 100_000],
			[4, 50_000_000],
		] as const)
			await expectSame(scrambledTimes(seed, spread), `seed ${seed}`);
	});

	it('buffers damaged on every CPU', async () => {
		for (const seed of [1, 2, 3]) {
			const bytes = damagedBuffers(seed);
			const r = (await both(bytes))!;
			expect(r.tallied, `seed ${seed}`).toBe(r.merged);
			expect((JSON.parse(r.tallied) as { damage: unknown[] }).damage.length).toBeGreaterThan(10);
		}
	});

	for (const compress of [false, true])
		it(`large buffers walked in slices, interleaved across CPUs (${compress ? 'compressed' : 'uncompressed'})`, async () => {
			const bytes = slicedTrace(compress);
			const r = (await both(bytes))!;
			expect(r.tallied).toBe(r.merged);
			const s = JSON.parse(r.tallied) as { records: number; damage: unknown[] };
			expect(s.records).toBeGreaterThan(30000);
			// The over-budget TraceLogging events: 20 listed, then one line for the rest.
			expect(s.damage.length).toBe(21);
		});

	it('identical record floods on several CPUs: every slice ends on a tie', async () => {
		const bytes = recordFlood(1 << 20, 6);
		setLogfile(bytes, 'NumberOfProcessors', 1024);
		await expectSame(bytes, 'flood');
	});
});
